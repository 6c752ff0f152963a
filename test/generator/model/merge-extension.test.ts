/**
 * mergeExtension (generator/model/merge-extension.ts): an extension's schema merged into a
 * revision's, on two fixture extensions of different shapes (allOf envelopes in 2020-12; plain
 * messages in draft-07) and on the real Tasks extension with 2026-07-28.
 *
 * The code under test runs in `setUpPerTest` or in the tests, never in a describe body, so
 * mutation testing sees it (test/helpers/per-test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { readSchemaDocument, type SchemaDocument } from "../../../generator/load/schema-document.js";
import { loadExtension, loadSchema } from "../../../generator/load/schema-source.js";
import { EXTENSION_POLICIES, type ExtensionPolicy } from "../../../generator/model/extensions.js";
import { mergeExtension, type MergedExtension } from "../../../generator/model/merge-extension.js";
import { buildModel, type ModelExtension } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { FIXTURES, TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { catchStubgenError, JOBS_POLICY as JOBS } from "../support.js";

const read = (name: string): SchemaDocument => {
  const file = join(FIXTURES, "extensions", name);
  return readSchemaDocument(readFileSync(file, "utf8"), file);
};
const core = read("core.json");
const LOCKS: ExtensionPolicy = {
  senders: { "locks/acquire": ["client"], "notifications/locks/released": ["server"] },
  httpNameParams: {},
  widenedResults: {},
  cancelRequest: null,
  runtime: null,
};

const error = catchStubgenError;

const refs = (doc: SchemaDocument, union: string) => ((doc.defs.get(union)?.["anyOf"] ?? []) as Array<{ $ref: string }>).map((m) => m.$ref);

function model(doc: SchemaDocument, id: string, policy: ExtensionPolicy, methods: string[]) {
  const source = doc.extensions!.at(-1)!;
  const extension: ModelExtension = { ...source, methods, policy };
  expect(source.id).toBe(id);
  return buildModel(doc, { revision: "fixture", policy: policyFor("fixture"), extensions: [extension] });
}

describe("mergeExtension: an allOf-shaped extension (2020-12)", () => {
  const before = JSON.stringify(core.root);
  let merged: MergedExtension;
  setUpPerTest(() => {
    merged = mergeExtension(core, "jobs", read("allof-extension.json"), JOBS);
  });

  it("takes the copied core types as the core's (same schema but for annotations) and adds the extension's own once", () => {
    expect(merged.shared).toEqual(["JSONRPCNotification", "JSONRPCRequest", "PingRequest"]);
    expect(merged.added).toEqual(["StartJobRequest", "StartJobResult", "StopJobRequest", "JobDoneNotification"]);
    expect([...merged.doc.defs.keys()]).toEqual([...core.defs.keys(), ...merged.added]);
    // The core's definitions, with their descriptions, are the ones kept.
    expect(merged.doc.defs.get("PingRequest")).toBe(core.defs.get("PingRequest"));
  });

  it("flattens each message into the core's message shape (envelope fields, method, params, required)", () => {
    expect(merged.doc.defs.get("StartJobRequest")).toEqual({
      properties: {
        id: { $ref: "#/$defs/RequestId" },
        jsonrpc: { const: "2.0", type: "string" },
        method: { type: "string", const: "jobs/start" },
        params: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
      required: ["id", "jsonrpc", "method", "params"],
      type: "object",
    });
    expect(merged.doc.defs.get("JobDoneNotification")).toEqual({
      properties: { jsonrpc: { const: "2.0", type: "string" }, method: { type: "string", const: "notifications/jobs/done" } },
      required: ["jsonrpc", "method"],
      type: "object",
    });
  });

  it("adds each message to the direction unions of its senders; a single-$ref union becomes an anyOf", () => {
    expect(refs(merged.doc, "ClientRequest")).toEqual(["#/$defs/PingRequest", "#/$defs/CallToolRequest", "#/$defs/CompleteRequest", "#/$defs/StartJobRequest", "#/$defs/StopJobRequest"]);
    expect(refs(merged.doc, "ServerRequest")).toEqual(["#/$defs/PingRequest", "#/$defs/StopJobRequest"]);
    expect(refs(merged.doc, "ServerNotification")).toEqual(["#/$defs/ProgressNotification", "#/$defs/JobDoneNotification"]);
    expect(refs(merged.doc, "ClientNotification")).toEqual(["#/$defs/ProgressNotification"]);
  });

  it("leaves the core document as it was", () => {
    expect(JSON.stringify(core.root)).toBe(before);
    expect(core.defs.has("StartJobRequest")).toBe(false);
    expect(core.extensions).toBeUndefined();
  });

  it("the model reads the merged messages like the core's: senders, params, results, the extension's name, widened results", () => {
    const m = model(merged.doc, "jobs", JOBS, ["jobs/start", "jobs/stop", "notifications/jobs/done"]);
    const row = (method: string) => m.methods.find((r) => r.method === method);
    expect(row("jobs/start")).toMatchObject({ kind: "request", from: ["client"], results: ["StartJobResult"], extension: "jobs", paramsRequired: true });
    expect(row("jobs/stop")).toMatchObject({ kind: "request", from: ["client", "server"], extension: "jobs" });
    expect(row("notifications/jobs/done")).toMatchObject({ kind: "notification", from: ["server"], extension: "jobs" });
    expect(row("tools/call")?.results).toEqual(["CallToolResult", "StartJobResult"]);
    expect(row("tools/call")?.extension).toBeUndefined();
    expect(m.extensions?.map((e) => [e.id, e.definitions])).toEqual([["jobs", merged.added]]);
  });
});

describe("mergeExtension: a plain-shaped extension (draft-07 definitions)", () => {
  let merged: MergedExtension;
  setUpPerTest(() => {
    merged = mergeExtension(core, "locks", read("plain-extension.json"), LOCKS);
  });

  it("rewrites the extension's $refs to the core's definitions key and shares the copied types", () => {
    expect(merged.shared).toEqual(["CompleteRequest", "RequestId"]);
    expect(merged.added).toEqual(["LockRequest", "LockReleasedNotification"]);
    const lock = merged.doc.defs.get("LockRequest") as { properties: Record<string, unknown> };
    expect(lock.properties["id"]).toEqual({ $ref: "#/$defs/RequestId" });
    expect(JSON.stringify(merged.doc.root)).not.toContain("#/definitions/");
    expect(merged.doc.extensions?.[0]).toMatchObject({ id: "locks", defsKey: "definitions" });
  });

  it("joins the unions of its senders", () => {
    expect(refs(merged.doc, "ClientRequest").at(-1)).toBe("#/$defs/LockRequest");
    expect(refs(merged.doc, "ServerNotification").at(-1)).toBe("#/$defs/LockReleasedNotification");
  });
});

describe("mergeExtension: bad input", () => {
  const jobs = read("allof-extension.json");
  const withDef = (doc: SchemaDocument, name: string, node: object): SchemaDocument => {
    const root = { ...doc.root, $defs: { ...(doc.root["$defs"] as object), [name]: node } };
    return readSchemaDocument(JSON.stringify(root), doc.file);
  };

  it("a copied core type that differs from the core's: an error at its pointer in the extension, naming the core file", () => {
    const e = error(() => mergeExtension(core, "jobs", withDef(jobs, "CallToolResult", { type: "object" }), JOBS));
    expect(e.location).toMatchObject({ file: jobs.file, pointer: "/$defs/CallToolResult" });
    expect(e.message).toContain(`extension jobs defines CallToolResult, which the core schema (${core.file}) defines differently`);
  });

  it("a difference in what a schema accepts (not an annotation) counts, even deep inside", () => {
    const changed = { ...(core.defs.get("PingRequest") as object), properties: { method: { const: "pong", type: "string" } } };
    expect(error(() => mergeExtension(core, "jobs", withDef(jobs, "PingRequest", changed), JOBS)).location.pointer).toBe("/$defs/PingRequest");
  });

  it("a message named like a core definition: an error (it would replace the core's)", () => {
    const stop = jobs.defs.get("StopJobRequest")!;
    const renamed = readSchemaDocument(JSON.stringify({ ...jobs.root, $defs: { ...Object.fromEntries([...jobs.defs].filter(([n]) => n !== "StopJobRequest")), CallToolRequest: stop } }), jobs.file);
    const policy = { ...JOBS };
    expect(error(() => mergeExtension(core, "jobs", renamed, policy)).location.pointer).toBe("/$defs/CallToolRequest");
  });

  it("a core schema without the union a sender needs: an error naming the core file", () => {
    const noServerNotification = readSchemaDocument(JSON.stringify({ ...core.root, $defs: Object.fromEntries([...core.defs].filter(([n]) => n !== "ServerNotification")) }), core.file);
    const e = error(() => mergeExtension(noServerNotification, "jobs", jobs, JOBS));
    expect(e.location.file).toBe(core.file);
    expect(e.message).toContain("expected a ServerNotification in the core schema: the extension's table says the server sends notifications/jobs/done");
  });

  it("no table for the extension: the table's error", () => {
    expect(error(() => mergeExtension(core, "nope", jobs, undefined)).message).toContain('no table for extension "nope"');
  });
});

describe("mergeExtension: Tasks (io.modelcontextprotocol/tasks) into 2026-07-28", async () => {
  const doc = await loadSchema("2026-07-28", { cacheDir: TEST_CACHE_DIR });
  const tasks = loadExtension("tasks", { cacheDir: TEST_CACHE_DIR });
  let merged: MergedExtension;
  setUpPerTest(() => {
    merged = mergeExtension(doc, "tasks", tasks, EXTENSION_POLICIES["tasks"]);
  });

  it("recognises the 56 core types the extension copies and adds its 20 own, none renamed or duplicated", () => {
    expect(merged.shared).toHaveLength(56);
    expect(merged.shared).toEqual(expect.arrayContaining(["Annotations", "ElicitRequest", "JSONRPCRequest", "RequestId", "Result", "Tool"]));
    expect([...merged.added].sort()).toEqual([
      "CancelTaskRequest", "CancelTaskResult", "CancelledTask", "CompletedTask", "CreateTaskResult", "DetailedTask", "FailedTask",
      "GetTaskRequest", "GetTaskResult", "InputRequiredTask", "Task", "TaskStatus", "TaskStatusNotification", "TaskStatusNotificationParams",
      "TaskSubscriptionAcknowledgedNotifications", "TaskSubscriptionNotifications", "TasksExtensionCapability", "UpdateTaskRequest", "UpdateTaskResult", "WorkingTask",
    ].sort());
    expect(merged.doc.defs.size).toBe(doc.defs.size + 20);
  });

  it("the catalog: tasks/get, tasks/update, tasks/cancel from the client, notifications/tasks from the server, tools/call widened with CreateTaskResult", () => {
    const m = buildModel(merged.doc, {
      revision: "2026-07-28",
      policy: policyFor("2026-07-28"),
      extensions: [{ ...merged.doc.extensions![0]!, methods: merged.methods.map((x) => x.method).sort(), policy: EXTENSION_POLICIES["tasks"]! }],
    });
    const rows = m.methods.filter((r) => r.extension === "tasks").map((r) => [r.method, r.kind, r.from.join("+"), r.results?.join(" | ") ?? null]);
    expect(rows).toEqual([
      ["notifications/tasks", "notification", "server", null],
      ["tasks/cancel", "request", "client", "CancelTaskResult"],
      ["tasks/get", "request", "client", "GetTaskResult"],
      ["tasks/update", "request", "client", "UpdateTaskResult"],
    ]);
    expect(m.methods.find((r) => r.method === "tools/call")?.results).toEqual(["CallToolResult", "InputRequiredResult", "CreateTaskResult"]);
  });
});

describe("mergeExtension: what counts as the core's copy, and how a message is flattened", () => {
  /** A one-request extension ("x/do", sent by the client) with more definitions. */
  const X: ExtensionPolicy = { senders: { "x/do": ["client"] }, httpNameParams: {}, widenedResults: {}, cancelRequest: null, runtime: null };
  const DO_REQUEST = {
    allOf: [
      { $ref: "#/$defs/JSONRPCRequest" },
      { type: "object", properties: { method: { type: "string", const: "x/do" } }, required: ["method"] },
    ],
  };
  const extension = (defs: Record<string, unknown>): SchemaDocument =>
    readSchemaDocument(JSON.stringify({ $defs: { JSONRPCRequest: core.defs.get("JSONRPCRequest"), DoRequest: DO_REQUEST, ...defs } }), "/ext/x.json");
  const coreWith = (defs: Record<string, unknown>): SchemaDocument =>
    readSchemaDocument(JSON.stringify({ ...core.root, $defs: { ...Object.fromEntries(core.defs), ...defs } }), core.file);
  /** Whether the extension's copy of `name` is taken as the core's (true) or refused (false). */
  const taken = (coreDef: unknown, copy: unknown): boolean => {
    try {
      return mergeExtension(coreWith({ T: coreDef }), "x", extension({ T: copy }), X).shared.includes("T");
    } catch (err) {
      expect((err as Error).message).toContain("extension x defines T, which the core schema");
      return false;
    }
  };

  it("annotations are set aside at every depth: in nested schemas, in arrays of schemas", () => {
    const coreDef = { type: "object", description: "c", properties: { a: { type: "array", items: { type: "string", description: "c" } } }, anyOf: [{ required: ["a"], title: "c" }] };
    const copy = { type: "object", $comment: "x", properties: { a: { type: "array", items: { type: "string", examples: ["x"] }, deprecated: true } }, anyOf: [{ required: ["a"] }] };
    expect(taken(coreDef, copy)).toBe(true);
  });

  it("a property, pattern or definition named like an annotation is not one", () => {
    for (const key of ["properties", "patternProperties", "$defs", "definitions"]) {
      expect(taken({ type: "object", [key]: { title: { type: "string" } } }, { type: "object", [key]: {} }), key).toBe(false);
      expect(taken({ type: "object", [key]: { title: { type: "string", description: "c" } } }, { type: "object", [key]: { title: { type: "string" } } }), key).toBe(true);
    }
  });

  it("const, enum and default are values: the words in them count", () => {
    expect(taken({ const: { title: "a" } }, { const: { title: "b" } })).toBe(false);
    expect(taken({ enum: [{ description: "a" }] }, { enum: [{ description: "b" }] })).toBe(false);
    expect(taken({ type: "object", default: { title: "a" } }, { type: "object", default: { title: "b" } })).toBe(false);
    expect(taken({ type: "object", default: { title: "a" } }, { type: "object", default: { title: "a" } })).toBe(true);
  });

  it("compares by value, key order aside: a keyword more or less, an array longer or different, a schema for an array, differ", () => {
    const base = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a", "b"] };
    expect(taken(base, { required: ["a", "b"], properties: { b: { type: "string" }, a: { type: "string" } }, type: "object" })).toBe(true);
    expect(taken(base, { ...base, minProperties: 1 })).toBe(false);
    expect(taken({ ...base, minProperties: 1 }, base)).toBe(false);
    expect(taken(base, { ...base, required: ["a"] })).toBe(false);
    expect(taken(base, { ...base, required: ["a", "c"] })).toBe(false);
    expect(taken({ type: "array", items: [{ type: "string" }] }, { type: "array", items: { type: "string" } })).toBe(false);
  });

  it("a message of the extension's table named like a core definition is refused even when it is a copy", () => {
    const ping = core.defs.get("PingRequest")!;
    const policy: ExtensionPolicy = { ...X, senders: { "x/do": ["client"], ping: ["client"] } };
    const doc = readSchemaDocument(JSON.stringify({ $defs: { JSONRPCRequest: core.defs.get("JSONRPCRequest"), DoRequest: DO_REQUEST, PingRequest: { allOf: [{ $ref: "#/$defs/JSONRPCRequest" }, ping] } } }), "/ext/ping.json");
    const e = error(() => mergeExtension(core, "x", doc, policy));
    expect(e.location).toMatchObject({ file: "/ext/ping.json", pointer: "/$defs/PingRequest" });
    expect(e.message).toContain("expected the core's schema (a copy that differs only in annotations) or another name");
  });

  it("the envelope's id and jsonrpc win over a member's; required lists are joined, non-strings and absent lists skipped", () => {
    const doc = extension({
      DoRequest: {
        allOf: [
          { $ref: "#/$defs/JSONRPCRequest" },
          { type: "object", properties: { id: { type: "integer" }, jsonrpc: { const: "1.0" }, method: { type: "string", const: "x/do" } }, required: ["method", 7] },
          { type: "object", properties: { params: { type: "object" } } },
        ],
      },
    });
    expect(mergeExtension(core, "x", doc, X).doc.defs.get("DoRequest")).toEqual({
      properties: { id: { $ref: "#/$defs/RequestId" }, jsonrpc: { const: "2.0", type: "string" }, method: { type: "string", const: "x/do" }, params: { type: "object" } },
      required: ["id", "jsonrpc", "method"],
      type: "object",
    });
  });

  it("keywords beside the envelope's $ref count (2020-12 allows siblings of $ref)", () => {
    const doc = extension({ DoRequest: { allOf: [{ $ref: "#/$defs/JSONRPCRequest", properties: { method: { type: "string", const: "x/do" } }, required: ["method"] }] } });
    expect(mergeExtension(core, "x", doc, X).doc.defs.get("DoRequest")).toEqual({
      properties: { id: { $ref: "#/$defs/RequestId" }, jsonrpc: { const: "2.0", type: "string" }, method: { type: "string", const: "x/do" } },
      required: ["id", "jsonrpc", "method"],
      type: "object",
    });
  });

  it("a message's description: the first member's that has one, else the message's own, else none", () => {
    const described = (node: Record<string, unknown>) => mergeExtension(core, "x", extension({ DoRequest: node }), X).doc.defs.get("DoRequest")?.["description"];
    const [envelope, member] = DO_REQUEST.allOf;
    expect(described({ description: "own", allOf: [envelope, { ...member, description: "member" }] })).toBe("member");
    expect(described({ description: "own", allOf: [envelope, member] })).toBe("own");
    expect(described({ allOf: [envelope, member] })).toBeUndefined();
    expect(Object.keys(mergeExtension(core, "x", extension({}), X).doc.defs.get("DoRequest")!)).toEqual(["properties", "required", "type"]);
  });

  it("an added definition loses its $schema; its $refs into the extension's definitions point into the core's", () => {
    const plain = readSchemaDocument(
      JSON.stringify({
        definitions: {
          JSONRPCRequest: core.defs.get("JSONRPCRequest"),
          RequestId: core.defs.get("RequestId"),
          DoRequest: { allOf: [{ $ref: "#/definitions/JSONRPCRequest" }, DO_REQUEST.allOf[1]] },
          DoResult: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { id: { $ref: "#/definitions/RequestId" } } },
        },
      }),
      "/ext/plain.json",
    );
    const merged = mergeExtension(core, "x", plain, X);
    expect(merged.doc.defs.get("DoResult")).toEqual({ type: "object", properties: { id: { $ref: "#/$defs/RequestId" } } });
    expect(merged.shared).toEqual(["JSONRPCRequest", "RequestId"]);
  });

  it("a direction union that is neither an anyOf nor a $ref: an error at the union, naming the core file", () => {
    const e = error(() => mergeExtension(coreWith({ ClientRequest: { type: "object" } }), "x", extension({}), X));
    expect(e.location).toEqual({ file: core.file, pointer: "/$defs/ClientRequest" });
    expect(e.message).toBe('expected ClientRequest to be an anyOf of message types or a single "$ref" to add x/do to');
  });
});
