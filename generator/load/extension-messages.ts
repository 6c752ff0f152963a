import { StubgenError } from "../errors.js";
import { join } from "./json-pointer.js";
import { isSchemaNode, refName, type SchemaDocument, type SchemaNode } from "./schema-document.js";

/**
 * One JSON-RPC message an extension's schema defines as its own: a request or a notification
 * with a fixed method name.
 */
export interface ExtensionMessage {
  readonly kind: "request" | "notification";
  readonly method: string;
  /** The definition that describes the whole message (`GetTaskRequest`). */
  readonly definition: string;
  /** JSON pointer of that definition, for error messages. */
  readonly pointer: string;
  /** A request's result definition (`GetTaskResult` for `GetTaskRequest`), when the schema has one. */
  readonly result: string | null;
}

/** The envelope definitions whose `$ref` in an `allOf` makes a definition a message, and its kind. */
const ENVELOPES: Readonly<Record<string, ExtensionMessage["kind"]>> = {
  JSONRPCRequest: "request",
  JSONRPCNotification: "notification",
};

/**
 * The messages an extension's schema defines, in document order. Extension schemas have no
 * direction unions (ClientRequest, ServerNotification…), so a message is recognised by its own
 * shape, in either of two forms:
 * - an `allOf` that combines a `$ref` to `JSONRPCRequest` or `JSONRPCNotification` with a member
 *   whose `properties.method` is a `const` (the Tasks extension, generated from Zod);
 * - a self-contained message: `properties.jsonrpc` and a `const` `properties.method`, a request
 *   when it has `properties.id`, else a notification.
 * Copies of core types carry a `method` const too (the Tasks schema copies `ElicitRequest`), but
 * they are neither form: they are the core's request types, not messages of the extension.
 * Two definitions with the same method are an error naming both. Pure.
 */
export function extensionMessages(doc: SchemaDocument): ExtensionMessage[] {
  const found: ExtensionMessage[] = [];
  const byMethod = new Map<string, ExtensionMessage>();
  for (const [name, node] of doc.defs) {
    const pointer = join("", doc.defsKey, name);
    const shape = messageShape(doc, node);
    if (shape === null) continue;
    const earlier = byMethod.get(shape.method);
    if (earlier !== undefined) {
      throw new StubgenError(`expected one definition of the message ${JSON.stringify(shape.method)}, found ${earlier.pointer} and this one`, {
        file: doc.file,
        pointer,
      });
    }
    const resultName = shape.kind === "request" && name.endsWith("Request") ? `${name.slice(0, -"Request".length)}Result` : null;
    const message: ExtensionMessage = {
      kind: shape.kind,
      method: shape.method,
      definition: name,
      pointer,
      result: resultName !== null && doc.defs.has(resultName) ? resultName : null,
    };
    byMethod.set(shape.method, message);
    found.push(message);
  }
  return found;
}

function messageShape(doc: SchemaDocument, node: SchemaNode): { kind: ExtensionMessage["kind"]; method: string } | null {
  const allOf = node["allOf"];
  if (Array.isArray(allOf)) {
    let kind: ExtensionMessage["kind"] | undefined;
    let method: string | undefined;
    for (const member of allOf) {
      if (!isSchemaNode(member)) continue;
      const envelope = refName(doc, member["$ref"]);
      if (envelope !== null && Object.hasOwn(ENVELOPES, envelope)) kind = ENVELOPES[envelope];
      method ??= methodConst(member);
    }
    return kind !== undefined && method !== undefined ? { kind, method } : null;
  }
  const properties = node["properties"];
  const method = methodConst(node);
  if (method === undefined || !isSchemaNode(properties) || properties["jsonrpc"] === undefined) return null;
  return { kind: properties["id"] !== undefined ? "request" : "notification", method };
}

/** `properties.method.const` when it is a string. */
function methodConst(node: SchemaNode): string | undefined {
  const properties = node["properties"];
  const method = isSchemaNode(properties) ? properties["method"] : undefined;
  const value = isSchemaNode(method) ? method["const"] : undefined;
  return typeof value === "string" ? value : undefined;
}
