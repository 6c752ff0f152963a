/**
 * The per-extension table: what the generator knows about a protocol extension that its schema
 * does not say. Extension schemas carry no direction unions (ClientRequest, ServerNotification…),
 * so who sends each message is here, as data, and checked against the schema both ways (an entry
 * for a message the schema lacks, or a message without an entry, is an error), like the policy
 * table of the revisions. The extension's own rules (how a request that became a task is
 * cancelled, which param names it over HTTP) are data here too, never code in the emitters.
 *
 * Sources, Tasks: SEP-2663 (io.modelcontextprotocol/tasks), as the official conformance suite
 * quotes it (scenarios tasks-*): tasks/get, tasks/update and tasks/cancel are requests of the
 * client; notifications/tasks is the server's status notification; a task is cancelled with
 * tasks/cancel, never notifications/cancelled; over Streamable HTTP the tasks/* requests carry
 * `Mcp-Name: <taskId>` (§"Streamable HTTP: Routing Headers"); a server that negotiated the
 * extension may answer tools/call with a task handle, CreateTaskResult (`resultType: "task"`).
 *
 * Sources, Skills: SEP-2640 (io.modelcontextprotocol/skills, stable on 2026-07-28,
 * https://modelcontextprotocol.io/seps/2640-skills-extension): skills/list, skills/get and
 * resources/directory/read are requests of the client ("Clients issue skills/list and
 * skills/get only after observing the server's declaration"); the extension adds no
 * notification, widens no core result and names no routing header.
 */
import { StubgenError } from "../errors.js";
import { extensionMessages, type ExtensionMessage } from "../load/extension-messages.js";
import { isSchemaNode, type SchemaDocument, type SchemaNode } from "../load/schema-document.js";
import type { Side } from "./vocabulary.js";

export interface ExtensionPolicy {
  /** Method → the side(s) that send it. Every message of the schema needs an entry. */
  readonly senders: Readonly<Record<string, readonly Side[]>>;
  /** Request → the param mirrored into `Mcp-Name` over Streamable HTTP. */
  readonly httpNameParams: Readonly<Record<string, string>>;
  /**
   * Core requests whose result the extension widens: method → the extension's definitions the
   * result may also be, each with its reason (the core schema cannot say it).
   */
  readonly widenedResults: Readonly<Record<string, readonly { readonly type: string; readonly reason: string }[]>>;
  /** The request that cancels what became a task (instead of notifications/cancelled). */
  readonly cancelRequest: string | null;
  /**
   * The runtime module that implements the extension (templates/runtime/<name>.ts), exported from
   * the revision's index when it is merged (tasks: also wired into the generated client and
   * server); null: none (the extension's messages are typed, nothing more).
   */
  readonly runtime: "tasks" | "skills" | null;
}

/** Extension id (schema/revisions.json `extensions[].id`) → its table. */
export const EXTENSION_POLICIES: Readonly<Record<string, ExtensionPolicy>> = {
  tasks: {
    senders: {
      "tasks/get": ["client"],
      "tasks/update": ["client"],
      "tasks/cancel": ["client"],
      "notifications/tasks": ["server"],
    },
    httpNameParams: { "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" },
    widenedResults: {
      "tools/call": [{ type: "CreateTaskResult", reason: "SEP-2663: a server that negotiated the extension may answer tools/call with a task handle" }],
    },
    cancelRequest: "tasks/cancel",
    runtime: "tasks",
  },
  skills: {
    senders: {
      "skills/list": ["client"],
      "skills/get": ["client"],
      "resources/directory/read": ["client"],
    },
    httpNameParams: {},
    widenedResults: {},
    cancelRequest: null,
    // The catalog, the verifying client and the disk reader (features/skill-*.ts), exported from
    // the index; the user wires them (the extension changes no core behaviour).
    runtime: "skills",
  },
};

/** One of an extension's messages with its senders, as the catalog will take it. */
export interface ExtensionMethod extends ExtensionMessage {
  readonly from: readonly Side[];
}

/**
 * The messages of an extension's schema joined with its table: each with the side(s) that send
 * it. Checks the table against the schema both ways, and that every other entry of the table
 * names a message or definition that exists; errors name the schema file and pointer. Pure.
 */
export function extensionMethods(id: string, doc: SchemaDocument, policy: ExtensionPolicy | undefined = EXTENSION_POLICIES[id]): ExtensionMethod[] {
  if (policy === undefined) {
    throw new StubgenError(`no table for extension ${JSON.stringify(id)} in generator/model/extensions.ts; expected one of ${Object.keys(EXTENSION_POLICIES).join(", ")}`, { file: doc.file });
  }
  const messages = extensionMessages(doc);
  const methods = new Set(messages.map((m) => m.method));
  const table = `the table of extension ${id} (generator/model/extensions.ts)`;
  for (const method of Object.keys(policy.senders)) {
    if (!methods.has(method)) throw new StubgenError(`${table} names ${JSON.stringify(method)}, which this schema does not define; expected one of ${[...methods].join(", ")}`, { file: doc.file });
  }
  for (const [method, param] of Object.entries(policy.httpNameParams)) {
    const message = messages.find((m) => m.method === method);
    if (message === undefined || message.kind !== "request") throw new StubgenError(`${table} gives an Mcp-Name param for ${JSON.stringify(method)}, which is not a request of this schema`, { file: doc.file });
    if (!declaresParam(doc.defs.get(message.definition), param)) {
      throw new StubgenError(`${table} mirrors params.${param} into Mcp-Name, but the message names no such property`, { file: doc.file, pointer: message.pointer });
    }
  }
  for (const [method, types] of Object.entries(policy.widenedResults)) {
    for (const { type } of types) {
      if (!doc.defs.has(type)) throw new StubgenError(`${table} widens the result of ${method} with ${type}, which this schema does not define`, { file: doc.file });
    }
  }
  if (policy.cancelRequest !== null && !messages.some((m) => m.method === policy.cancelRequest && m.kind === "request")) {
    throw new StubgenError(`${table} names ${JSON.stringify(policy.cancelRequest)} as the cancel request, which is not a request of this schema`, { file: doc.file });
  }
  return messages.map((message) => {
    const from = policy.senders[message.method];
    if (from === undefined || from.length === 0) {
      throw new StubgenError(
        `the schema does not say who sends ${JSON.stringify(message.method)} (extension schemas have no direction unions); expected an entry in ${table}`,
        { file: doc.file, pointer: message.pointer },
      );
    }
    return { ...message, from };
  });
}

/** Whether a message declares `params.<name>`, in its own properties or an `allOf` member's. */
function declaresParam(node: SchemaNode | undefined, name: string): boolean {
  if (node === undefined) return false;
  const members = Array.isArray(node["allOf"]) ? node["allOf"].filter(isSchemaNode) : [node];
  return members.some((member) => {
    const properties = member["properties"];
    const params = isSchemaNode(properties) ? properties["params"] : undefined;
    const own = isSchemaNode(params) ? params["properties"] : undefined;
    return isSchemaNode(own) && Object.hasOwn(own, name);
  });
}
