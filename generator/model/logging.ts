import { StubgenError } from "../errors.js";
import { definition, deref, isSchemaNode, refName, type SchemaDocument } from "../load/schema-document.js";
import type { SchemaModel } from "./model.js";
import type { RevisionPolicy } from "./policy.js";

/**
 * How a revision's client asks for log messages, read from the schema (SERVER.logging of
 * server.ts; the runtime's features/logging.ts reads nothing else):
 * - 2024-11-05 … 2025-11-25: a `logging/setLevel` request sets the level for the session;
 * - 2026-07-28: each request carries its own level in `_meta` (RequestMetaObject's LoggingLevel
 *   property, `io.modelcontextprotocol/logLevel`; absent: no log messages for that request).
 */
export interface LoggingModel {
  /** The server capability that declares log messages. */
  readonly capability: string;
  /** The notification a log message is. */
  readonly notification: string;
  /** The client request that sets the connection's level; null: none. */
  readonly setLevel: string | null;
  /** The request `_meta` key of the request's own level; null: none. */
  readonly levelMetaKey: string | null;
}

/** The schema's names (the same in every revision so far). */
const NAMES = { capability: "logging", notification: "notifications/message", setLevel: "logging/setLevel", level: "LoggingLevel" } as const;

/** The syslog severities of RFC 5424 that LoggingLevel must list (the runtime's LOG_LEVELS, core/logging.ts, ranks them). */
const RFC_5424 = ["alert", "critical", "debug", "emergency", "error", "info", "notice", "warning"];

/** The revision's logging, or null when its server sends no log messages (no notifications/message). Pure. */
export function loggingModel(doc: SchemaDocument, model: SchemaModel, policy: RevisionPolicy): LoggingModel | null {
  const has = (method: string, kind: "request" | "notification", from: "client" | "server") =>
    model.methods.some((m) => m.method === method && m.kind === kind && m.from.includes(from));
  if (!has(NAMES.notification, "notification", "server")) return null;
  const level = definition(doc, NAMES.level);
  const levels = level === null ? null : deref(doc, level).node["enum"];
  if (!Array.isArray(levels) || [...levels].sort().join() !== RFC_5424.join()) {
    throw new StubgenError(`expected ${NAMES.level} to list the RFC 5424 severities (${RFC_5424.join(", ")})`, { file: doc.file });
  }
  return {
    capability: NAMES.capability,
    notification: NAMES.notification,
    setLevel: has(NAMES.setLevel, "request", "client") ? NAMES.setLevel : null,
    levelMetaKey: levelMetaKey(doc, policy),
  };
}

/** The property of the request `_meta` definition (RULES.requestMeta's) whose type is LoggingLevel, or null. */
function levelMetaKey(doc: SchemaDocument, policy: RevisionPolicy): string | null {
  if (policy.requestMeta === null) return null;
  const meta = definition(doc, policy.requestMeta.type);
  const properties = meta === null ? undefined : deref(doc, meta).node["properties"];
  if (!isSchemaNode(properties)) return null;
  return Object.entries(properties).find(([, node]) => isSchemaNode(node) && refName(doc, node["$ref"]) === NAMES.level)?.[0] ?? null;
}
