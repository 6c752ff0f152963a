// ctx.log: a handler's log message (notifications/message), sent only at or above the level the
// client asked for. What the endpoint needs of it; the server's rules and levels are
// features/logging.ts.

import type { JsonObject } from "./json.js";

/**
 * The severity of a log message, lowest first: the syslog severities of RFC 5424 (section
 * 6.2.1), in the order the spec's LoggingLevel lists them (Logging, Log Levels).
 */
export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** Every LogLevel, lowest severity first (RFC 5424 order). */
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

const RANK: ReadonlyMap<string, number> = new Map(LOG_LEVELS.map((level, i) => [level, i]));

/** Whether `value` is a LogLevel. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && RANK.has(value);
}

/** Whether a message of `level` is sent to a client whose threshold is `threshold` (at or above it). */
export function atLeast(level: LogLevel, threshold: LogLevel): boolean {
  return RANK.get(level)! >= RANK.get(threshold)!;
}

/** What the endpoint asks about one request's log messages (EndpointOptions.logging; the server's is features/logging.ts). */
export interface LogHook {
  /** The notification a log message is (notifications/message). */
  readonly notification: string;
  /**
   * The lowest level sent for a request with this `_meta`, received on the connection whose
   * transport is `connection`; null: nothing is sent for it.
   */
  threshold(meta: JsonObject | undefined, connection: object | undefined): LogLevel | null;
}

/** ctx.log as HandlerContext has it. */
export type LogFunction = (level: LogLevel, data: unknown, logger?: string) => Promise<void>;

/** A request's ctx.log: one notification per message at or above its threshold, sent related to the request (`notify`). */
export function logFunction(
  hook: LogHook | undefined,
  meta: JsonObject | undefined,
  connection: object | undefined,
  notify: (method: string, params: object) => Promise<void>,
): LogFunction {
  return (level, data, logger) => {
    if (!isLogLevel(level)) return Promise.reject(new RangeError(`log level must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(level)}`));
    // The threshold is read per message: a logging/setLevel that arrives while the handler runs counts at once.
    const threshold = hook?.threshold(meta, connection) ?? null;
    if (threshold === null || !atLeast(level, threshold)) return Promise.resolve();
    const params: JsonObject = { level, data };
    if (logger !== undefined) params["logger"] = logger;
    return notify(hook!.notification, params);
  };
}
