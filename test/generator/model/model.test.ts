import { describe, expect, it } from "vitest";
import { emitTypes } from "../../../generator/emit/emit-types.js";
import { buildModel, checkDirectionUnions, type MethodRecord, type SchemaModel } from "../../../generator/model/model.js";
import { formatTypeExpr, type TypeExpr } from "../../../generator/model/vocabulary.js";
import { DEFAULT_POLICY, policyFor, type RevisionPolicy } from "../../../generator/model/policy.js";
import type { SchemaDocument } from "../../../generator/load/schema-document.js";
import { catchStubgenError, docFrom, loadFixture, request, typecheckInMemory } from "../support.js";

const POLICY = policyFor("2025-11-25");

function model(doc: SchemaDocument, policy: RevisionPolicy = POLICY, resultOverrides: Record<string, string> = {}): SchemaModel {
  return buildModel(doc, { revision: "test-rev", policy, resultOverrides });
}

/** The one record of a method (tests that need both kinds of one method read m.methods). */
function method(m: SchemaModel, name: string): MethodRecord {
  const found = m.methods.filter((r) => r.method === name);
  if (found.length !== 1) throw new Error(`expected one record of ${name}; have ${m.methods.map((r) => r.method).join(", ")}`);
  return found[0]!;
}

const params = (m: SchemaModel, name: string, ns = ""): string | null => {
  const p = method(m, name).params;
  return p && formatTypeExpr(p, ns);
};

const lifecycle = () => model(loadFixture("draft07-lifecycle.json"));
const inline = () => model(loadFixture("2020-12-inline.json"));
const tasks = () => model(loadFixture("2020-12-tasks.json"));

describe("policyFor", () => {
  it("gives initialize as the only uncancellable request and TaskMetadata as the task marker", () => {
    expect(POLICY.uncancellable).toEqual(["initialize"]);
    expect(POLICY.taskMetadataType).toBe("TaskMetadata");
  });

  it("gives the default policy for an unknown revision", () => {
    expect(policyFor("2099-01-01")).toEqual(DEFAULT_POLICY);
  });
});

describe("buildModel", () => {
  describe("the model", () => {
    it("carries the revision, dialect, sha256 and definition names of the document", () => {
      const doc = loadFixture("draft07-lifecycle.json");
      const m = model(doc);
      expect(m.revision).toBe("test-rev");
      expect(m.dialect).toBe("draft-07");
      expect(m.sha256).toBe(doc.sha256);
      expect(m.definitions).toEqual([...doc.defs.keys()]);
    });

    it("is deterministic: the same document gives an equal model", () => {
      const doc = loadFixture("2020-12-tasks.json");
      expect(model(doc)).toEqual(model(doc));
    });

    it("has no methods when the schema has no direction unions", () => {
      expect(model(docFrom({ PingRequest: request("ping") })).methods).toEqual([]);
    });
  });

  describe("direction unions", () => {
    it("reads an anyOf of $refs (draft-07 ClientRequest)", () => {
      const m = lifecycle();
      const clientRequests = m.methods.filter((r) => r.kind === "request" && r.from.includes("client")).map((r) => r.method);
      expect(clientRequests).toEqual(["initialize", "jobs/run", "jobs/run/more", "ping"]);
      expect(method(m, "jobs/run").typeName).toBe("RunJobRequest");
    });

    it("reads a single $ref (ServerRequest → PingRequest)", () => {
      const m = lifecycle();
      const serverRequests = m.methods.filter((r) => r.kind === "request" && r.from.includes("server")).map((r) => r.method);
      expect(serverRequests).toEqual(["ping"]);
      expect(method(m, "ping").typeName).toBe("PingRequest");
    });

    it("reads a oneOf of $refs", () => {
      expect(method(tasks(), "sampling/create")).toMatchObject({ kind: "request", from: ["server"], typeName: "SampleRequest" });
    });

    it("reads an inline message object (ClientNotification of 2026-07-28)", () => {
      const m = inline();
      const cancelled = method(m, "notifications/cancelled");
      expect(cancelled).toMatchObject({ kind: "notification", from: ["client"], paramsRequired: true, results: null });
      expect(cancelled.description).toBe("The client's only notification.");
      expect(params(m, "notifications/cancelled")).toBe('ClientNotification["params"]');
    });

    it("merges an inline ClientNotification with a ServerNotification $ref for the same method", () => {
      const cancelledParams = { $ref: "#/$defs/CancelledNotificationParams" };
      const m = model(
        docFrom({
          CancelledNotificationParams: { type: "object", properties: { requestId: { type: "string" } } },
          CancelledNotification: request("notifications/cancelled", cancelledParams),
          ClientNotification: request("notifications/cancelled", cancelledParams),
          ServerNotification: { anyOf: [{ $ref: "#/$defs/CancelledNotification" }] },
        }),
      );
      expect(m.methods).toHaveLength(1);
      expect(method(m, "notifications/cancelled")).toMatchObject({
        kind: "notification",
        from: ["client", "server"],
        params: { kind: "named", name: "CancelledNotificationParams" },
        paramsRequired: true,
      });
    });

    it("gives a missing union no methods (no ServerRequest)", () => {
      const m = inline();
      expect(m.methods.filter((r) => r.kind === "request").map((r) => r.from)).toEqual([["client"], ["client"]]);
      expect(m.methods.some((r) => r.kind === "request" && r.from.includes("server"))).toBe(false);
    });

    it("reads inline members of an anyOf", () => {
      const m = inline();
      expect(method(m, "things/touch")).toMatchObject({ kind: "request", from: ["client"], typeName: null });
      expect(method(m, "notifications/things/changed")).toMatchObject({ kind: "notification", from: ["server"], typeName: null });
    });

    it("rejects a union that is neither an anyOf, a $ref nor an object, at the union's pointer", () => {
      const err = catchStubgenError(() => model(docFrom({ ClientRequest: { type: "string" } })));
      expect(err.location.pointer).toBe("/$defs/ClientRequest");
      expect(err.message).toContain("ClientRequest");
    });

    it("rejects a union member that is not a schema object, at the member's pointer", () => {
      const err = catchStubgenError(() => model(docFrom({ ServerNotification: { anyOf: [true] } })));
      expect(err.location.pointer).toBe("/$defs/ServerNotification/anyOf/0");
      expect(err.message).toBe("expected a schema object in ServerNotification");
      expect(catchStubgenError(() => model(docFrom({ ServerNotification: { oneOf: [false] } }))).location.pointer).toBe("/$defs/ServerNotification/oneOf/0");
    });
  });

  describe("methods", () => {
    it("sorts by method, then kind (a notification and a request of one name), keeps descriptions, and has no extensions key without extensions", () => {
      const m = model(
        docFrom({
          Result: { type: "object" },
          Z: request("z/last"),
          Y: request("same", undefined, { description: "The request." }),
          X: request("same"),
          W: request("a/first"),
          ClientRequest: { anyOf: [{ $ref: "#/$defs/Z" }, { $ref: "#/$defs/Y" }, { $ref: "#/$defs/W" }] },
          ClientNotification: { anyOf: [{ $ref: "#/$defs/X" }] },
        }),
      );
      expect(m.methods.map((r) => [r.method, r.kind, r.description])).toEqual([
        ["a/first", "request", null],
        ["same", "notification", null],
        ["same", "request", "The request."],
        ["z/last", "request", null],
      ]);
      expect(Object.keys(m)).not.toContain("extensions");
      expect(m.methods.some((r) => "extension" in r)).toBe(false);
    });

    it("gives a method in both ClientRequest and ServerRequest from [client, server]", () => {
      expect(method(lifecycle(), "ping").from).toEqual(["client", "server"]);
    });

    it("lists from as client before server whatever the order it was found in", () => {
      const m = model(
        docFrom({
          Result: { type: "object" },
          PingRequest: request("ping"),
          ServerRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }] },
          ClientRequest: { $ref: "#/$defs/PingRequest" },
        }),
      );
      expect(m.methods).toHaveLength(1);
      expect(method(m, "ping").from).toEqual(["client", "server"]);
    });

    it("gives a notification in both notification unions from [client, server]", () => {
      expect(method(lifecycle(), "notifications/cancelled").from).toEqual(["client", "server"]);
      expect(method(lifecycle(), "notifications/initialized").from).toEqual(["client"]);
    });

    it("keeps a request and a notification with the same method apart", () => {
      const m = model(
        docFrom({
          Result: { type: "object" },
          ClientRequest: { anyOf: [request("sync")] },
          ClientNotification: { anyOf: [request("sync")] },
        }),
      );
      expect(m.methods.map((r) => [r.method, r.kind])).toEqual([
        ["sync", "notification"],
        ["sync", "request"],
      ]);
    });

    it("sorts methods by method string", () => {
      const names = lifecycle().methods.map((r) => r.method);
      expect(names).toEqual(["initialize", "jobs/run", "jobs/run/more", "notifications/cancelled", "notifications/initialized", "ping"]);
      const reversed = model(
        docFrom({
          Result: { type: "object" },
          ClientRequest: { anyOf: [request("z/last"), request("m/mid"), request("a/first")] },
          ServerNotification: { anyOf: [request("b/note")] },
        }),
      );
      expect(reversed.methods.map((r) => r.method)).toEqual(["a/first", "b/note", "m/mid", "z/last"]);
    });

    it("rejects a member without a method const, pointing at that member's definition", () => {
      const err = catchStubgenError(() => model(loadFixture("member-without-method.json")));
      expect(err.location.pointer).toBe("/definitions/BadRequest/properties/method");
      expect(err.location.file).toMatch(/member-without-method\.json$/);
      expect(err.message).toContain("ClientRequest member (at /definitions/ClientRequest/anyOf/1)");
      expect(err.message).toContain("properties.method.const");
    });

    it("rejects an inline member without a method const, pointing into the union", () => {
      const err = catchStubgenError(() =>
        model(docFrom({ ClientRequest: { anyOf: [{ type: "object", properties: { params: { type: "object" } } }] } })),
      );
      expect(err.location.pointer).toBe("/$defs/ClientRequest/anyOf/0/properties/method");
    });

    it("rejects a method const that is not a string", () => {
      const err = catchStubgenError(() =>
        model(docFrom({ N: { type: "object", properties: { method: { const: 3 } } }, ClientNotification: { $ref: "#/$defs/N" } })),
      );
      expect(err.location.pointer).toBe("/$defs/N/properties/method");
    });
  });

  describe("params", () => {
    it("names the params definition when params is a $ref", () => {
      const m = lifecycle();
      expect(method(m, "jobs/run").params).toEqual({ kind: "named", name: "RunJobParams" });
      expect(params(m, "jobs/run", "T.")).toBe("T.RunJobParams");
      expect(method(m, "jobs/run").paramsRequired).toBe(true);
    });

    it("takes required inline params as the message's params property", () => {
      const m = lifecycle();
      expect(method(m, "initialize").params).toEqual({ kind: "paramsOf", owner: { kind: "named", name: "InitializeRequest" }, optional: false });
      expect(params(m, "initialize")).toBe('InitializeRequest["params"]');
      expect(method(m, "initialize").paramsRequired).toBe(true);
    });

    it("wraps optional inline params in NonNullable", () => {
      const m = lifecycle();
      expect(params(m, "ping")).toBe('NonNullable<PingRequest["params"]>');
      expect(params(m, "ping", "T.")).toBe('NonNullable<T.PingRequest["params"]>');
      expect(method(m, "ping").paramsRequired).toBe(false);
      expect(params(inline(), "things/list")).toBe('NonNullable<ListThingsRequest["params"]>');
    });

    it("extracts the params of an inline union member by method", () => {
      expect(params(inline(), "things/touch", "T.")).toBe('Extract<T.ClientRequest, { method: "things/touch" }>["params"]');
    });

    it("is null when the message has no params", () => {
      const m = lifecycle();
      expect(method(m, "notifications/initialized")).toMatchObject({ params: null, paramsRequired: false });
      expect(method(m, "jobs/run/more")).toMatchObject({ params: null, paramsRequired: false });
    });

    it("marks params holding only _meta (or none) as paramsMetaOnly", () => {
      const m = lifecycle();
      expect(method(m, "ping").paramsMetaOnly).toBe(true);
      expect(method(m, "notifications/initialized").paramsMetaOnly).toBe(true);
      expect(method(m, "initialize").paramsMetaOnly).toBe(false);
      expect(method(m, "jobs/run").paramsMetaOnly).toBe(false);
    });

    it("reads paramsMetaOnly through $ref and allOf, and counts a union of params as more than _meta", () => {
      const META = { type: "object", properties: { _meta: { type: "object" } } };
      const m = model(
        docFrom({
          Result: { type: "object" },
          MetaParams: META,
          a: request("a/ref", { $ref: "#/$defs/MetaParams" }),
          b: request("b/allof", { allOf: [{ $ref: "#/$defs/MetaParams" }, { type: "object", properties: { _meta: { type: "object" } } }] }),
          c: request("c/allof-more", { allOf: [{ $ref: "#/$defs/MetaParams" }, { type: "object", properties: { x: { type: "string" } } }] }),
          d: request("d/union", { anyOf: [META, META] }),
          e: request("e/oneof", { oneOf: [META] }),
          f: request("f/empty", { type: "object" }),
          ClientRequest: { anyOf: ["a", "b", "c", "d", "e", "f"].map((n) => ({ $ref: `#/$defs/${n}` })) },
        }),
      );
      expect(m.methods.map((r) => [r.method, r.paramsMetaOnly])).toEqual([
        ["a/ref", true],
        ["b/allof", true],
        ["c/allof-more", false],
        ["d/union", false],
        ["e/oneof", false],
        ["f/empty", true],
      ]);
    });
  });

  describe("cancellable", () => {
    it("is false for initialize only", () => {
      const m = lifecycle();
      const requests = m.methods.filter((r) => r.kind === "request");
      expect(requests.filter((r) => !r.cancellable).map((r) => r.method)).toEqual(["initialize"]);
      expect(requests.length).toBeGreaterThan(1);
    });

    it("is false for notifications", () => {
      const notifications = lifecycle().methods.filter((r) => r.kind === "notification");
      expect(notifications.length).toBe(2);
      expect(notifications.every((r) => !r.cancellable)).toBe(true);
    });

    it("follows the policy's uncancellable list", () => {
      const m = model(loadFixture("draft07-lifecycle.json"), { ...POLICY, uncancellable: ["jobs/run"] });
      expect(method(m, "jobs/run").cancellable).toBe(false);
      expect(method(m, "initialize").cancellable).toBe(true);
    });
  });

  describe("taskAugmentable", () => {
    it("is true when the params $ref has a task property that is a $ref to TaskMetadata", () => {
      expect(method(tasks(), "tools/call").taskAugmentable).toBe(true);
    });

    it("is true through $ref and allOf", () => {
      expect(method(tasks(), "sampling/create").taskAugmentable).toBe(true);
    });

    it("is true through anyOf", () => {
      expect(method(tasks(), "elicit").taskAugmentable).toBe(true);
    });

    it("is false when task is an inline object", () => {
      expect(method(tasks(), "echo").taskAugmentable).toBe(false);
    });

    it("is false when task is a $ref to another definition", () => {
      expect(method(tasks(), "other").taskAugmentable).toBe(false);
    });

    it("is false for notifications, even with a task property", () => {
      expect(method(tasks(), "notifications/task")).toMatchObject({ kind: "notification", taskAugmentable: false });
    });

    it("is false without params or without a task property", () => {
      expect(lifecycle().methods.some((r) => r.taskAugmentable)).toBe(false);
    });

    it("uses the policy's task metadata type", () => {
      const m = model(loadFixture("2020-12-tasks.json"), { ...POLICY, taskMetadataType: "OtherMetadata" });
      expect(method(m, "other").taskAugmentable).toBe(true);
      expect(method(m, "tools/call").taskAugmentable).toBe(false);
    });
  });

  describe("results", () => {
    it("derives each request's result and leaves notifications without one", () => {
      const m = lifecycle();
      expect(m.methods.map((r) => [r.method, r.results, r.resultRule])).toEqual([
        ["initialize", ["InitializeResult"], "name"],
        ["jobs/run", ["JobOutcomeResult"], "description"],
        ["jobs/run/more", ["MoreOutcomeResult"], "description"],
        ["notifications/cancelled", null, null],
        ["notifications/initialized", null, null],
        ["ping", ["EmptyResult"], "default"],
      ]);
    });

    it("passes result overrides on", () => {
      const m = model(loadFixture("draft07-lifecycle.json"), POLICY, { ping: "InitializeResult" });
      expect(method(m, "ping")).toMatchObject({ results: ["InitializeResult"], resultRule: "override" });
    });

    it("refuses an override for a method that is not a request of the schema, listing the requests", () => {
      const err = catchStubgenError(() => model(loadFixture("draft07-lifecycle.json"), POLICY, { "notifications/initialized": "EmptyResult" }));
      expect(err.message).toBe('result override for "notifications/initialized": expected a request method of this schema (initialize, jobs/run, jobs/run/more, ping)');
      expect(err.location).toMatchObject({ pointer: "/definitions" });
    });
  });
});

describe("formatTypeExpr", () => {
  const named: TypeExpr = { kind: "named", name: "PingRequest" };

  it("formats a named type with an optional namespace", () => {
    expect(formatTypeExpr(named)).toBe("PingRequest");
    expect(formatTypeExpr(named, "T.")).toBe("T.PingRequest");
  });

  it("formats the params of a type, NonNullable when optional", () => {
    expect(formatTypeExpr({ kind: "paramsOf", owner: named, optional: false })).toBe('PingRequest["params"]');
    expect(formatTypeExpr({ kind: "paramsOf", owner: named, optional: true }, "T.")).toBe('NonNullable<T.PingRequest["params"]>');
  });

  it("formats a union member by method, with the method JSON-quoted", () => {
    const member: TypeExpr = { kind: "memberOf", union: "ClientRequest", method: 'say/"hi"' };
    expect(formatTypeExpr(member, "T.")).toBe('Extract<T.ClientRequest, { method: "say/\\"hi\\"" }>');
  });
});

describe("params type expressions against the emitted types", () => {
  it("name real, non-never types, without undefined when NonNullable", async () => {
    const lines = [
      'import type * as T from "./types.js";',
      "type IsNever<X> = [X] extends [never] ? true : false;",
      "type HasUndefined<X> = undefined extends X ? true : false;",
    ];
    const files: Record<string, string> = {};
    for (const [name, fixture] of [
      ["lifecycle", "draft07-lifecycle.json"],
      ["inline", "2020-12-inline.json"],
      ["tasks", "2020-12-tasks.json"],
    ] as const) {
      const doc = loadFixture(fixture);
      const m = model(doc);
      files[`/${name}/types.ts`] = await emitTypes(doc, "test-rev");
      const body = [...lines];
      m.methods.forEach((r, i) => {
        if (!r.params) return;
        body.push(`export type P${i} = ${formatTypeExpr(r.params, "T.")}; // ${r.method}`);
        body.push(`export const notNever${i}: IsNever<P${i}> = false;`);
        body.push(`export const defined${i}: HasUndefined<P${i}> = false;`);
      });
      files[`/${name}/check.ts`] = body.join("\n") + "\n";
    }
    expect(typecheckInMemory(files)).toEqual([]);
  });

  it("(control) the same check rejects an expression that names no params", async () => {
    const doc = loadFixture("2020-12-inline.json");
    const wrong = formatTypeExpr({ kind: "paramsOf", owner: { kind: "memberOf", union: "ClientRequest", method: "things/nope" }, optional: false }, "T.");
    const diagnostics = typecheckInMemory({
      "/types.ts": await emitTypes(doc, "test-rev"),
      "/check.ts": [
        'import type * as T from "./types.js";',
        "type IsNever<X> = [X] extends [never] ? true : false;",
        `export const notNever: IsNever<${wrong}> = false;`,
      ].join("\n"),
    });
    expect(diagnostics.map((d) => d.file)).toEqual(["/check.ts"]);
  });
});

describe("checkDirectionUnions", () => {
  it("accepts a schema with any one of the four unions (2026-07-28 has no ServerRequest)", () => {
    for (const union of ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"]) {
      expect(() => checkDirectionUnions(docFrom({ PingRequest: request("ping"), [union]: { $ref: "#/$defs/PingRequest" } }))).not.toThrow();
    }
    expect(() => checkDirectionUnions(loadFixture("draft07-lifecycle.json"))).not.toThrow();
  });

  it("refuses a schema with none, naming the file, the definitions pointer and what was expected", () => {
    const err = catchStubgenError(() => checkDirectionUnions(docFrom({ PingRequest: request("ping") }, { file: "frag.json" })));
    expect(err.location).toEqual({ file: "frag.json", pointer: "/$defs" });
    expect(err.format()).toBe(
      'frag.json#/$defs: expected at least one of the MCP direction unions ClientRequest, ServerRequest, ClientNotification, ServerNotification under "$defs"; ' +
        'found none, so the client and server would have no methods (for a schema fragment, pass --fragment or set "fragment": true in the config)',
    );
    expect(catchStubgenError(() => checkDirectionUnions(docFrom({ A: { type: "string" } }, { key: "definitions" }))).location.pointer).toBe(
      "/definitions",
    );
  });
});
