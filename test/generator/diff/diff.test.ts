/**
 * `diffRevisions` on the small schema pairs of test/fixtures/diff/<case>/{before,after}.json,
 * one pair per kind of change: the exact entries and their breaking flags. Each diff is computed
 * in `setUpPerTest`, not in the describe body, so mutation testing sees it (test/helpers/per-test.ts).
 */
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { diffRevisions, hasBreakingChanges } from "../../../generator/diff/diff.js";
import { diffPolicy } from "../../../generator/diff/policy.js";
import type { RevisionDiff, RevisionInput } from "../../../generator/diff/types.js";
import { buildModel } from "../../../generator/model/model.js";
import { DEFAULT_POLICY, type RevisionPolicy } from "../../../generator/model/policy.js";
import { createCoverage } from "../../../generator/diff/covers.js";
import { diffDefinition } from "../../../generator/diff/definitions.js";
import { shapeOf } from "../../../generator/diff/shape.js";
import { docFrom, loadFixture, request } from "../support.js";

function side(pair: string, which: "before" | "after", policy: RevisionPolicy = DEFAULT_POLICY): RevisionInput {
  const doc = loadFixture(`diff/${pair}/${which}.json`);
  return { doc, model: buildModel(doc, { revision: which, policy }), policy };
}

function diffPair(pair: string, policies: { before?: RevisionPolicy; after?: RevisionPolicy } = {}): RevisionDiff {
  return diffRevisions(side(pair, "before", policies.before), side(pair, "after", policies.after));
}

describe("methods per direction (methods/)", () => {
  let diff: RevisionDiff;
  setUpPerTest(() => {
    diff = diffPair("methods");
  });

  it("lists methods added to each direction, none breaking, sorted by direction then method", () => {
    expect(diff.methods.added).toEqual([
      { direction: "ClientRequest", method: "new/add", breaking: false },
      { direction: "ServerRequest", method: "server/new", breaking: false },
      { direction: "ClientNotification", method: "notifications/client-new", breaking: false },
      // Sent by the server only before, by both sides after: new in the client's direction.
      { direction: "ClientNotification", method: "notifications/kept", breaking: false },
    ]);
  });

  it("lists methods removed from each direction as breaking, including a method one side no longer sends", () => {
    expect(diff.methods.removed).toEqual([
      { direction: "ClientRequest", method: "old/remove", breaking: true },
      { direction: "ServerRequest", method: "ping", breaking: true },
      { direction: "ServerRequest", method: "server/old", breaking: true },
      { direction: "ClientNotification", method: "notifications/client-old", breaking: true },
      { direction: "ServerNotification", method: "notifications/server-old", breaking: true },
    ]);
    expect(diff.methods.changed).toEqual([]);
  });

  it("counts them in the summary", () => {
    expect(diff.summary).toMatchObject({ methodsAdded: 4, methodsRemoved: 5, methodsChanged: 0 });
    expect(hasBreakingChanges(diff)).toBe(true);
  });
});

describe("params, result and flags of methods present in both (method-types/)", () => {
  it("reports each change once, sorted by method, with its breaking flag", () => {
    expect(diffPair("method-types").methods.changed).toEqual([
      // Only the NonNullable<> changes with required params: no params entry, one flip.
      { method: "items/list", kind: "request", change: "paramsRequired", before: false, after: true, breaking: true },
      { method: "plain", kind: "request", change: "params", before: null, after: 'NonNullable<PlainRequest["params"]>', breaking: false },
      // FindParams has SearchParams' properties and one more optional: a widening.
      { method: "search", kind: "request", change: "params", before: "SearchParams", after: "FindParams", breaking: false },
      // FindResult lost `total`: a narrowing (an old result with `total` no longer fits) and a
      // widening (a new result without `total` is not an old one).
      { method: "search", kind: "request", change: "result", before: "SearchResult", after: "FindResult", widened: true, narrowed: true, breaking: true },
      { method: "tools/call", kind: "request", change: "taskAugmentable", before: true, after: false, breaking: true },
    ]);
  });

  it("reports the definitions behind them as well", () => {
    const diff = diffPair("method-types");
    expect(diff.definitions.removed.map((d) => d.definition)).toEqual(["SearchParams", "SearchRequest", "SearchResult"]);
    expect(diff.definitions.changed).toContainEqual({
      definition: "CallToolRequestParams",
      change: "property-removed",
      property: "task",
      type: "TaskMetadata",
      breaking: true,
    });
    // The union swapped SearchRequest for a FindRequest that accepts everything it did.
    expect(diff.definitions.changed.find((c) => c.definition === "ClientRequest")).toMatchObject({ change: "type", breaking: false });
  });
});

describe("results from …ResultResponse unions (result-union/)", () => {
  let diff: RevisionDiff;
  setUpPerTest(() => {
    diff = diffPair("result-union");
  });

  it("reports a result that became a union as widened and breaking, one that lost a member as narrowed, a renamed twin as neither", () => {
    expect(diff.methods.changed).toEqual([
      // EchoedResult → EchoResult: the same shape under another name.
      { method: "jobs/echo", kind: "request", change: "result", before: "EchoedResult", after: "EchoResult", widened: false, narrowed: false, breaking: false },
      // jobs/peek: the same members in another order is no change.
      // Callers of jobs/run must now handle InputRequiredResult.
      {
        method: "jobs/run",
        kind: "request",
        change: "result",
        before: "RunJobResult",
        after: "RunJobResult | InputRequiredResult",
        widened: true,
        narrowed: false,
        breaking: true,
      },
      // A jobs/stop handler that answered InputRequiredResult no longer fits.
      {
        method: "jobs/stop",
        kind: "request",
        change: "result",
        before: "StopJobResult | InputRequiredResult",
        after: "StopJobResult",
        widened: false,
        narrowed: true,
        breaking: true,
      },
    ]);
    expect(diff.summary).toMatchObject({ methodsChanged: 3 });
  });
});

describe("params that were absent and are now required (params-appear/)", () => {
  let diff: RevisionDiff;
  setUpPerTest(() => {
    diff = diffPair("params-appear");
  });

  it("reports the new params and the paramsRequired flip, each breaking, for named and inline params", () => {
    expect(diff.methods.changed).toEqual([
      { method: "jobs/start", kind: "request", change: "params", before: null, after: "StartParams", breaking: true },
      { method: "jobs/start", kind: "request", change: "paramsRequired", before: false, after: true, breaking: true },
      { method: "jobs/stop", kind: "request", change: "params", before: null, after: 'StopRequest["params"]', breaking: true },
      { method: "jobs/stop", kind: "request", change: "paramsRequired", before: false, after: true, breaking: true },
    ]);
    expect(diff.methods.added).toEqual([]);
    expect(diff.methods.removed).toEqual([]);
  });

  it("counts them as breaking in the summary", () => {
    // 4 method entries + 2 property-added (params, required) are breaking; StartParams added is not.
    expect(diff.summary).toMatchObject({ methodsChanged: 2, definitionsAdded: 1, definitionsChanged: 2, changes: 7, breaking: 6 });
    expect(hasBreakingChanges(diff)).toBe(true);
  });
});

describe("params moved into a union member without a name (inline-members/)", () => {
  let diff: RevisionDiff;
  setUpPerTest(() => {
    diff = diffPair("inline-members");
  });

  it("compares the member's params with the named ones they replace: widened is not breaking, narrowed is", () => {
    const member = (method: string) => `Extract<ClientRequest, { method: "${method}" }>["params"]`;
    expect(diff.methods.changed).toEqual([
      // An optional property added: every old params value is still accepted.
      { method: "jobs/run", kind: "request", change: "params", before: "RunParams", after: member("jobs/run"), breaking: false },
      // job: string | integer → string.
      { method: "jobs/stop", kind: "request", change: "params", before: "StopParams", after: member("jobs/stop"), breaking: true },
    ]);
  });
});

describe("a few rules on small schemas of the test's own", () => {
  it("a result union that keeps its size but changes a member is a change", () => {
    const doc = docFrom({ ClientRequest: { anyOf: [{ $ref: "#/$defs/FooRequest" }] }, FooRequest: request("foo"), A: { type: "object" }, B: { type: "object" }, C: { type: "object" } });
    const sideWith = (result: string, revision: string): RevisionInput => ({
      doc,
      model: buildModel(doc, { revision, policy: DEFAULT_POLICY, resultOverrides: { foo: result } }),
      policy: DEFAULT_POLICY,
    });
    expect(diffRevisions(sideWith("A | B", "x"), sideWith("B | A", "y")).methods.changed).toEqual([]);
    expect(diffRevisions(sideWith("A | B", "x"), sideWith("A | C", "y")).methods.changed).toMatchObject([{ method: "foo", change: "result", before: "A | B", after: "A | C" }]);
  });

  it("an index signature that accepts more is not breaking; one that accepts less is", () => {
    const doc = docFrom({});
    const coverage = createCoverage(doc, doc);
    const bag = (additionalProperties: unknown) => shapeOf(doc, { type: "object", additionalProperties });
    expect(diffDefinition("Bag", bag({ type: "string" }), bag({}), coverage)).toEqual([
      { definition: "Bag", change: "additional-properties", before: "string", after: "unknown", breaking: false },
    ]);
    expect(diffDefinition("Bag", bag({}), bag({ type: "string" }), coverage)).toEqual([
      { definition: "Bag", change: "additional-properties", before: "unknown", after: "string", breaking: true },
    ]);
  });
});

describe("cancellation: the policy key by key, and the cancellable flags it decides", () => {
  const before: RevisionPolicy = { ...DEFAULT_POLICY, uncancellable: ["initialize"] };
  const after: RevisionPolicy = { ...DEFAULT_POLICY, uncancellable: ["tools/call"] };

  it("reports a policy array's added and removed entries, and each request whose flag flipped", () => {
    const diff = diffPair("method-types", { before, after });
    expect(diff.cancellation.policy).toEqual([
      { key: "uncancellable", before: ["initialize"], after: ["tools/call"], added: ["tools/call"], removed: ["initialize"], breaking: false },
    ]);
    expect(diff.cancellation.methods).toEqual([
      { method: "initialize", before: false, after: true, breaking: false },
      { method: "tools/call", before: true, after: false, breaking: true },
    ]);
    expect(diff.summary).toMatchObject({ policyKeysChanged: 1, cancellableChanged: 2 });
  });

  it("compares whatever keys the policy has, by JSON value (key order inside objects does not matter)", () => {
    const base = { ...DEFAULT_POLICY, nested: { b: 1, a: [1, 2] }, gone: "x" };
    const next = { ...DEFAULT_POLICY, nested: { a: [1, 2], b: 1 }, limit: 5, flags: ["p"] };
    expect(diffPolicy(base, next)).toEqual([
      { key: "flags", before: null, after: ["p"], added: [], removed: [], breaking: false },
      { key: "gone", before: "x", after: null, added: [], removed: [], breaking: false },
      { key: "limit", before: null, after: 5, added: [], removed: [], breaking: false },
    ]);
    const withList = { ...base, list: [{ id: 1 }, { id: 2 }] };
    const withOtherList = { ...base, list: [{ id: 2 }, { id: 3 }] };
    expect(diffPolicy(withList, withOtherList)).toEqual([
      { key: "list", before: [{ id: 1 }, { id: 2 }], after: [{ id: 2 }, { id: 3 }], added: [{ id: 3 }], removed: [{ id: 1 }], breaking: false },
    ]);
  });

  it("the same policy on both sides: no policy changes", () => {
    expect(diffPolicy(DEFAULT_POLICY, { ...DEFAULT_POLICY })).toEqual([]);
  });
});

describe("properties of object definitions (properties/)", () => {
  let diff: RevisionDiff;
  setUpPerTest(() => {
    diff = diffPair("properties");
  });

  it("added, removed, made required, made optional and type changed, sorted by property", () => {
    expect(diff.definitions.changed.filter((c) => c.definition === "Widget")).toEqual([
      { definition: "Widget", change: "property-type", property: "count", before: "integer", after: "number", breaking: false },
      { definition: "Widget", change: "property-type", property: "label", before: "string", after: "number", breaking: true },
      { definition: "Widget", change: "property-removed", property: "legacy", type: "boolean", breaking: true },
      { definition: "Widget", change: "property-type", property: "meta", before: "{ a?: string }", after: "{ a?: string; b?: string }", breaking: false },
      { definition: "Widget", change: "property-required", property: "name", breaking: true },
      { definition: "Widget", change: "property-added", property: "note", required: false, type: "string", breaking: false },
      { definition: "Widget", change: "property-added", property: "owner", required: true, type: "string", breaking: true },
      { definition: "Widget", change: "property-optional", property: "size", breaking: false },
      { definition: "Widget", change: "property-type", property: "tags", before: "string[]", after: "(integer | string)[]", breaking: false },
    ]);
  });

  it("ignores descriptions, formats and the order of properties and of `required`", () => {
    const properties = diff.definitions.changed.flatMap((c) => ("property" in c ? [c.property] : []));
    expect(properties).not.toContain("id");
    expect(properties).not.toContain("kind");
  });

  it("reports an index signature lost (breaking) or gained (not)", () => {
    expect(diff.definitions.changed.filter((c) => c.definition !== "Widget")).toEqual([
      { definition: "Bag", change: "additional-properties", before: "string", after: null, breaking: true },
      { definition: "Open", change: "additional-properties", before: null, after: "unknown", breaking: false },
    ]);
    expect(diff.summary).toMatchObject({ definitionsChanged: 3, changes: 11, breaking: 5 });
  });
});

describe("enums and unions", () => {
  it("narrowed (enum-narrowed/): members lost are breaking", () => {
    const diff = diffPair("enum-narrowed");
    expect(diff.definitions.changed).toEqual([
      { definition: "Content", change: "type", before: "Image | Text", after: "Text", breaking: true },
      { definition: "Id", change: "type", before: "integer | string", after: "string", breaking: true },
      { definition: "Level", change: "type", before: '"debug" | "info" | "warning"', after: '"debug" | "info"', breaking: true },
      { definition: "Settings", change: "property-type", property: "mode", before: '"fast" | "safe"', after: '"safe"', breaking: true },
    ]);
    expect(diff.summary.breaking).toBe(4);
  });

  it("widened (enum-widened/): members gained, or an enum opened to its type, are not breaking", () => {
    const diff = diffPair("enum-widened");
    expect(diff.definitions.changed).toEqual([
      { definition: "Content", change: "type", before: "Text", after: "Image | Text", breaking: false },
      { definition: "Id", change: "type", before: "string", after: "integer | string", breaking: false },
      { definition: "Level", change: "type", before: '"debug" | "info"', after: '"debug" | "error" | "info" | "warning"', breaking: false },
      { definition: "Settings", change: "property-type", property: "mode", before: '"fast" | "safe"', after: "string", breaking: false },
    ]);
    expect(hasBreakingChanges(diff)).toBe(false);
  });
});

describe("definitions added, removed and changed (definitions/)", () => {
  let diff: RevisionDiff;
  setUpPerTest(() => {
    diff = diffPair("definitions");
  });

  it("lists added (not breaking) and removed (breaking) definitions, sorted by name", () => {
    expect(diff.definitions.added).toEqual([
      { definition: "Fresh", breaking: false },
      { definition: "New", breaking: false },
    ]);
    expect(diff.definitions.removed).toEqual([{ definition: "Old", breaking: true }]);
  });

  it("follows $refs to compare a definition moved or renamed, and merges allOf objects", () => {
    expect(diff.definitions.changed).toEqual([
      { definition: "Alias", change: "type", before: "Shared", after: "Fresh", breaking: false },
      { definition: "Holder", change: "property-type", property: "payload", before: "{ x: string }", after: "Shared", breaking: false },
      { definition: "Pair", change: "type", before: "Shared & { y: number }", after: "{ x: string; y: number; z?: boolean }", breaking: false },
      { definition: "Token", change: "type", before: "string", after: "{ [key: string]: unknown }", breaking: true },
    ]);
  });
});

describe("the diff as data", () => {
  it("is deterministic: the same inputs give the same JSON text", () => {
    expect(JSON.stringify(diffPair("method-types"))).toBe(JSON.stringify(diffPair("method-types")));
  });

  it("has a fixed top-level key order and a summary that counts every entry", () => {
    const diff = diffPair("methods");
    expect(Object.keys(diff)).toEqual(["from", "to", "summary", "methods", "definitions", "cancellation"]);
    const entries = [
      ...diff.methods.added,
      ...diff.methods.removed,
      ...diff.methods.changed,
      ...diff.definitions.added,
      ...diff.definitions.removed,
      ...diff.definitions.changed,
      ...diff.cancellation.policy,
      ...diff.cancellation.methods,
    ];
    expect(diff.summary.changes).toBe(entries.length);
    expect(diff.summary.breaking).toBe(entries.filter((e) => e.breaking).length);
  });

  it("a schema against itself: no changes at all", () => {
    const same = side("method-types", "after");
    const diff = diffRevisions(same, same);
    expect(diff.summary.changes).toBe(0);
    expect(hasBreakingChanges(diff)).toBe(false);
  });
});
