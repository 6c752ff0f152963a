// A server's log messages (ctx.log): the level each client asked for, by the revision's rule
// (server.ts's SERVER.logging), and the logging/setLevel handler of the 2025 revisions.
//
// 2025 revisions (server/utilities/logging): the client sets the lowest level it wants with
// logging/setLevel; that level holds for its connection (its session) until it sets another.
// Until it sets one, every level is sent: the spec sets no default, and the official SDK's
// McpServer sends everything until a level is set (its isMessageIgnored).
// 2026-07-28 (RequestMetaObject, `io.modelcontextprotocol/logLevel`): each request carries its
// own level; without it "the server MUST NOT send any notifications/message for this request".
// Either way a server that does not declare the `logging` capability sends none ("Servers that
// emit log message notifications MUST declare the logging capability").

import type { AnyRequestHandler } from "../core/endpoint-contract.js";
import type { JsonObject } from "../core/json.js";
import { isLogLevel, type LogHook, type LogLevel } from "../core/logging.js";
import { RequestContext } from "../core/request-context.js";

/** A revision's logging rule, as data (SERVER.logging of server.ts; generator model/logging.ts). */
export interface LoggingRule {
  /** The server capability that declares log messages ("logging"). */
  readonly capability: string;
  /** The notification a log message is ("notifications/message"). */
  readonly notification: string;
  /** The client request that sets its connection's level ("logging/setLevel"); null: none in this revision. */
  readonly setLevel: string | null;
  /** The request `_meta` key of the request's own level ("io.modelcontextprotocol/logLevel"); null: none. */
  readonly levelMetaKey: string | null;
}

/** The level of a connection whose client has not set one (2025 revisions): every message is sent. */
export const DEFAULT_LOG_LEVEL: LogLevel = "debug";

/**
 * The log levels of one server: the threshold of each request (LogHook, read by ctx.log) and the
 * level each connection set. A connection is its transport; its level goes with it (WeakMap).
 */
export class ServerLogLevels implements LogHook {
  readonly notification: string;
  readonly #rule: LoggingRule;
  readonly #levels: WeakMap<object, LogLevel> = new WeakMap();

  constructor(rule: LoggingRule) {
    this.#rule = rule;
    this.notification = rule.notification;
  }

  threshold(meta: JsonObject | undefined, connection: object | undefined): LogLevel | null {
    const key = this.#rule.levelMetaKey;
    if (key !== null) {
      const own = meta?.[key];
      return isLogLevel(own) ? own : null;
    }
    if (this.#rule.setLevel === null) return null;
    return (connection === undefined ? undefined : this.#levels.get(connection)) ?? DEFAULT_LOG_LEVEL;
  }

  /**
   * The setLevel handler: `own` (the user's), the level recorded for the connection once it
   * answers; without one, a handler that records it and answers `{}` (EmptyResult).
   */
  setLevelHandler(own: AnyRequestHandler | undefined): AnyRequestHandler {
    return async (params, ctx) => {
      const result = own === undefined ? {} : await own(params, ctx);
      const level = params?.["level"];
      const connection = RequestContext.connectionOf(ctx);
      if (isLogLevel(level) && connection !== undefined) this.#levels.set(connection, level);
      return result;
    };
  }
}

/**
 * The server's logging: its levels, and its handler table with the setLevel handler in it (the
 * user's wrapped, else the default); undefined levels and the table unchanged when the server
 * declares no `logging` capability or the revision has no log messages.
 */
export function serverLogging(
  rule: LoggingRule | null,
  declared: JsonObject,
  handlers: Readonly<Record<string, AnyRequestHandler | undefined>> | undefined,
): { readonly levels: ServerLogLevels | undefined; readonly handlers: Readonly<Record<string, AnyRequestHandler | undefined>> | undefined } {
  if (rule === null || !Object.hasOwn(declared, rule.capability)) return { levels: undefined, handlers };
  const levels = new ServerLogLevels(rule);
  if (rule.setLevel === null) return { levels, handlers };
  const own = handlers !== undefined && Object.hasOwn(handlers, rule.setLevel) ? handlers[rule.setLevel] : undefined;
  return { levels, handlers: { ...handlers, [rule.setLevel]: levels.setLevelHandler(typeof own === "function" ? own : undefined) } };
}
