/**
 * `diffRevisions` on the published schemas (from the test cache): facts checked by reading the
 * schemas, not a snapshot of the whole diff.
 */
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { diffRevisions } from "../../../generator/diff/diff.js";
import type { RevisionDiff } from "../../../generator/diff/types.js";
import { modelRevision } from "../../../generator/model/revision.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";

async function diffPublished(from: string, to: string): Promise<RevisionDiff> {
  const load = (revision: string) => modelRevision(revision, { cacheDir: TEST_CACHE_DIR });
  return diffRevisions(await load(from), await load(to));
}

const methodsIn = (list: RevisionDiff["methods"]["added"], direction: string) =>
  list.filter((m) => m.direction === direction).map((m) => m.method);

describe("2025-06-18 → 2025-11-25", () => {
  let diff: RevisionDiff;
  setUpPerTest(async () => {
    diff = await diffPublished("2025-06-18", "2025-11-25");
  });

  it("adds the tasks/* requests in both directions and the task and elicitation notifications; removes no method", () => {
    const tasks = ["tasks/cancel", "tasks/get", "tasks/list", "tasks/result"];
    expect(methodsIn(diff.methods.added, "ClientRequest")).toEqual(tasks);
    expect(methodsIn(diff.methods.added, "ServerRequest")).toEqual(tasks);
    expect(methodsIn(diff.methods.added, "ClientNotification")).toEqual(["notifications/tasks/status"]);
    expect(methodsIn(diff.methods.added, "ServerNotification")).toEqual(["notifications/elicitation/complete", "notifications/tasks/status"]);
    expect(diff.methods.added.every((m) => !m.breaking)).toBe(true);
    expect(diff.methods.removed).toEqual([]);
  });

  it("makes tools/call, sampling/createMessage and elicitation/create task-augmentable (not breaking)", () => {
    const flips = diff.methods.changed.filter((c) => c.change === "taskAugmentable");
    expect(flips).toEqual(
      ["elicitation/create", "sampling/createMessage", "tools/call"].map((method) => ({
        method,
        kind: "request",
        change: "taskAugmentable",
        before: false,
        after: true,
        breaking: false,
      })),
    );
  });

  it("moves inline params into named definitions without calling it breaking", () => {
    expect(diff.methods.changed).toContainEqual({
      method: "tools/call",
      kind: "request",
      change: "params",
      before: 'CallToolRequest["params"]',
      after: "CallToolRequestParams",
      breaking: false,
    });
    expect(diff.definitions.changed).toContainEqual({
      definition: "CallToolRequest",
      change: "property-type",
      property: "params",
      before: "{ arguments?: { [key: string]: unknown }; name: string }",
      after: "CallToolRequestParams",
      breaking: false,
    });
  });

  it("definitions: JSONRPCError removed, the task types added, Implementation gains optional icons, ElicitResult.content widened", () => {
    expect(diff.definitions.removed).toEqual([{ definition: "JSONRPCError", breaking: true }]);
    const added = diff.definitions.added.map((d) => d.definition);
    for (const name of ["Task", "TaskMetadata", "CreateTaskResult", "GetTaskRequest", "Icon"]) expect(added).toContain(name);
    expect(diff.definitions.changed).toContainEqual({
      definition: "Implementation",
      change: "property-added",
      property: "icons",
      required: false,
      type: "Icon[]",
      breaking: false,
    });
    expect(diff.definitions.changed).toContainEqual({
      definition: "ElicitResult",
      change: "property-type",
      property: "content",
      before: "{ [key: string]: boolean | integer | string }",
      after: "{ [key: string]: boolean | integer | string | string[] }",
      breaking: false,
    });
  });

  it("leaves the cancellation rules as they were", () => {
    expect(diff.cancellation.methods).toEqual([]);
  });
});

describe("2025-11-25 → 2026-07-28", () => {
  let diff: RevisionDiff;
  setUpPerTest(async () => {
    diff = await diffPublished("2025-11-25", "2026-07-28");
  });

  it("removes initialize and adds server/discover and subscriptions/listen to the client's requests", () => {
    expect(methodsIn(diff.methods.added, "ClientRequest")).toEqual(["server/discover", "subscriptions/listen"]);
    expect(diff.methods.removed).toContainEqual({ direction: "ClientRequest", method: "initialize", breaking: true });
    expect(methodsIn(diff.methods.added, "ServerNotification")).toEqual(["notifications/subscriptions/acknowledged"]);
  });

  it("drops every server → client request (there is no ServerRequest union any more)", () => {
    expect(methodsIn(diff.methods.removed, "ServerRequest")).toEqual([
      "elicitation/create",
      "ping",
      "roots/list",
      "sampling/createMessage",
      "tasks/cancel",
      "tasks/get",
      "tasks/list",
      "tasks/result",
    ]);
    expect(diff.definitions.removed).toContainEqual({ definition: "ServerRequest", breaking: true });
  });

  it("tools/call is no longer task-augmentable and tools/list needs params: both breaking", () => {
    expect(diff.methods.changed).toContainEqual({
      method: "tools/call",
      kind: "request",
      change: "taskAugmentable",
      before: true,
      after: false,
      breaking: true,
    });
    expect(diff.methods.changed).toContainEqual({
      method: "tools/list",
      kind: "request",
      change: "paramsRequired",
      before: false,
      after: true,
      breaking: true,
    });
  });

  it("property facts: Result.resultType and ListToolsResult.cacheScope newly required, CallToolRequestParams.task removed", () => {
    const changed = diff.definitions.changed;
    expect(changed).toContainEqual({ definition: "Result", change: "property-added", property: "resultType", required: true, type: "string", breaking: true });
    expect(changed).toContainEqual({
      definition: "ListToolsResult",
      change: "property-added",
      property: "cacheScope",
      required: true,
      type: '"private" | "public"',
      breaking: true,
    });
    expect(changed).toContainEqual({ definition: "ListToolsRequest", change: "property-required", property: "params", breaking: true });
    expect(changed).toContainEqual({ definition: "CallToolRequestParams", change: "property-removed", property: "task", type: "TaskMetadata", breaking: true });
    const removed = diff.definitions.removed.map((d) => d.definition);
    for (const name of ["InitializeRequest", "TaskMetadata", "PingRequest"]) expect(removed).toContain(name);
    const added = diff.definitions.added.map((d) => d.definition);
    for (const name of ["DiscoverRequest", "DiscoverResult", "SubscriptionsListenRequest"]) expect(added).toContain(name);
  });

  it("reports exactly the policy keys whose values differ: the STATELESS entries of generator/model/policy.ts", () => {
    // 2025-11-25 has the default policy; 2026-07-28 overrides these ten keys (read from the
    // policy table, written out here by hand), sorted by key.
    const entry = (key: string, before: unknown, after: unknown, added: unknown[] = [], removed: unknown[] = []) => ({
      key,
      before,
      after,
      added,
      removed,
      breaking: false,
    });
    expect(diff.cancellation.policy).toEqual([
      entry("cancelByClosingStream", false, true),
      entry("cancellers", ["client", "server"], ["client"], [], ["server"]),
      entry("defaultMaxTotalTimeoutMs", null, 600_000),
      entry("defaultTimeoutMs", null, 60_000),
      entry("endableByReceiver", [], ["subscriptions/listen"], ["subscriptions/listen"]),
      entry("era", "session", "stateless"),
      entry("longLived", [], ["subscriptions/listen"], ["subscriptions/listen"]),
      entry("requestMeta", null, {
        type: "RequestMetaObject",
        protocolVersion: "io.modelcontextprotocol/protocolVersion",
        clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
        clientInfo: "io.modelcontextprotocol/clientInfo",
      }),
      entry("resourceNotFoundCode", -32002, -32602),
      entry("sessionHttp", "streamable", null),
    ]);
  });

  it("no request present in both changes its cancellable flag (initialize, the uncancellable one, is gone)", () => {
    expect(diff.cancellation.methods).toEqual([]);
  });

  it("removes exactly these methods (union members of both schemas compared by hand), all breaking", () => {
    const removed = (direction: string, methods: string[]) => methods.map((method) => ({ direction, method, breaking: true }));
    const tasks = ["tasks/cancel", "tasks/get", "tasks/list", "tasks/result"];
    expect(diff.methods.removed).toEqual([
      ...removed("ClientRequest", ["initialize", "logging/setLevel", "ping", "resources/subscribe", "resources/unsubscribe", ...tasks]),
      ...removed("ServerRequest", ["elicitation/create", "ping", "roots/list", "sampling/createMessage", ...tasks]),
      // notifications/cancelled stays: ClientNotification is CancelledNotification itself in 2026-07-28.
      ...removed("ClientNotification", [
        "notifications/initialized",
        "notifications/progress",
        "notifications/roots/list_changed",
        "notifications/tasks/status",
      ]),
      ...removed("ServerNotification", ["notifications/elicitation/complete", "notifications/tasks/status"]),
    ]);
    expect(diff.methods.added).toEqual([
      { direction: "ClientRequest", method: "server/discover", breaking: false },
      { direction: "ClientRequest", method: "subscriptions/listen", breaking: false },
      { direction: "ServerNotification", method: "notifications/subscriptions/acknowledged", breaking: false },
    ]);
  });

  it("changes exactly these methods present in both: four list requests now need params, tools/call loses tasks, three results widen", () => {
    const needsParams = (method: string) => ({ method, kind: "request", change: "paramsRequired", before: false, after: true, breaking: true });
    // 2026-07-28's CallToolResultResponse, GetPromptResultResponse and ReadResourceResultResponse
    // allow InputRequiredResult beside the result (MRTR): the caller must now handle it.
    const widened = (method: string, result: string) => ({
      method,
      kind: "request",
      change: "result",
      before: result,
      after: `${result} | InputRequiredResult`,
      widened: true,
      narrowed: false,
      breaking: true,
    });
    expect(diff.methods.changed).toEqual([
      widened("prompts/get", "GetPromptResult"),
      needsParams("prompts/list"),
      needsParams("resources/list"),
      widened("resources/read", "ReadResourceResult"),
      needsParams("resources/templates/list"),
      widened("tools/call", "CallToolResult"),
      { method: "tools/call", kind: "request", change: "taskAugmentable", before: true, after: false, breaking: true },
      needsParams("tools/list"),
    ]);
  });

  it("counts them in the summary: exact numbers", () => {
    // Methods: 3 added, 23 removed, 7 changed in 8 entries (above). Definitions: 42 names only in
    // 2026-07-28, 32 only in 2025-11-25 (key sets of $defs compared by hand). The
    // changed-definition count and the breaking total (23 removed methods + 8 method changes + 32
    // removed definitions + 75 breaking definition changes) are pinned from the reviewed output.
    // Definitions open in the spec's TypeScript (inherited index signatures, spec-typing.ts) are
    // open here too: `_meta: { [key: string]: unknown }` → `MetaObject` / `ResultMetaObject` /
    // `NotificationMetaObject` is no longer narrowing (was 30 of the 168 breaking), while
    // CreateMessageResult, ElicitResult and ListRootsResult, no longer Results in 2026-07-28,
    // lose Result's index signature (3 more changes, breaking).
    expect(diff.summary).toEqual({
      methodsAdded: 3,
      methodsRemoved: 23,
      methodsChanged: 7,
      definitionsAdded: 42,
      definitionsRemoved: 32,
      definitionsChanged: 59,
      policyKeysChanged: 10,
      cancellableChanged: 0,
      changes: 238,
      breaking: 138,
    });
    expect(diff.definitions.added.filter((d) => d.breaking)).toEqual([]);
    expect(diff.definitions.removed.filter((d) => d.breaking)).toHaveLength(32);
    expect(diff.definitions.changed.filter((d) => d.breaking)).toHaveLength(75);
  });
});
