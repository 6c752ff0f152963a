/**
 * Results from the schema's own links (`…ResultResponse`, 2026-07-28 on), through buildModel:
 * the small fixture test/fixtures/result-responses.json (one request per way a link is made),
 * the published 2026-07-28 and draft schemas (facts read from their `…ResultResponse`
 * definitions: CallToolResultResponse's `result` is `InputRequiredResult | CallToolResult`, …),
 * and the earlier revisions, which have no such link and keep their results.
 */
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { catalogJson } from "../../../generator/model/catalog-data.js";
import { modelRevision } from "../../../generator/model/revision.js";
import { buildModel, type MethodRecord, type SchemaModel } from "../../../generator/model/model.js";
import { formatResult } from "../../../generator/model/vocabulary.js";
import { policyFor } from "../../../generator/model/policy.js";
import { REVISIONS, TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { loadFixture } from "../support.js";

const requests = (model: SchemaModel): Array<[string, MethodRecord["results"], MethodRecord["resultRule"]]> =>
  model.methods.filter((m) => m.kind === "request").map((m) => [m.method, m.results, m.resultRule]);

describe("result-responses.json", () => {
  const doc = loadFixture("result-responses.json");
  // In setUpPerTest, not in the describe body, so mutation testing sees it (test/helpers/per-test.ts).
  let model: SchemaModel;
  setUpPerTest(() => {
    model = buildModel(doc, { revision: "fixture", policy: policyFor("fixture") });
  });

  it("gives each request the result its response allows, and falls back where none answers it", () => {
    expect(requests(model)).toEqual([
      // No response: EchoedResult's description links the request in the flattened form.
      ["jobs/echo", ["EchoedResult"], "description"],
      // ListJobsResultResponse has no description: paired by name; its result (JobPage) wins over ListJobsResult.
      ["jobs/list", ["JobPage"], "response"],
      // `{@link PeekJobRequest | jobs/peek}`: one result.
      ["jobs/peek", ["PeekJobResult"], "response"],
      // `{@link RunJobRequestjobs/run}`, result anyOf [InputRequiredResult, RunJobResult]: own result first.
      ["jobs/run", ["RunJobResult", "InputRequiredResult"], "response"],
      // HaltResultResponse (no name pair) links StopJobRequest; its `result` is declared beside
      // the JSONRPCResultResponse it extends (allOf), as oneOf [StoppedResult, InputRequiredResult].
      ["jobs/stop", ["StoppedResult", "InputRequiredResult"], "response"],
      ["ping", ["EmptyResult"], "default"],
    ]);
  });

  it("prints a union as the catalog's type expression, names joined by \" | \"", () => {
    const byMethod = new Map(catalogJson(model).methods.map((m) => [m.method, m.result]));
    expect(byMethod.get("jobs/run")).toBe("RunJobResult | InputRequiredResult");
    expect(byMethod.get("jobs/peek")).toBe("PeekJobResult");
    expect(formatResult(["RunJobResult", "InputRequiredResult"], "T.")).toBe("T.RunJobResult | T.InputRequiredResult");
    expect(formatResult(null)).toBeNull();
  });

  it("lets an override replace a response's result", () => {
    const overridden = buildModel(doc, { revision: "fixture", policy: policyFor("fixture"), resultOverrides: { "jobs/run": "RunJobResult" } });
    expect(requests(overridden).find(([method]) => method === "jobs/run")).toEqual(["jobs/run", ["RunJobResult"], "override"]);
  });
});

describe.each(["2026-07-28", "draft"] as const)("the published %s schema", (revision) => {
  let model: SchemaModel;
  setUpPerTest(async () => {
    ({ model } = await modelRevision(revision, { cacheDir: TEST_CACHE_DIR }));
  });
  const resultOf = (method: string) => model.methods.find((m) => m.method === method && m.kind === "request");

  it("types tools/call, resources/read and prompts/get as their result or InputRequiredResult", () => {
    expect(resultOf("tools/call")).toMatchObject({ results: ["CallToolResult", "InputRequiredResult"], resultRule: "response" });
    expect(resultOf("resources/read")).toMatchObject({ results: ["ReadResourceResult", "InputRequiredResult"], resultRule: "response" });
    expect(resultOf("prompts/get")).toMatchObject({ results: ["GetPromptResult", "InputRequiredResult"], resultRule: "response" });
  });

  it("keeps one result where the response allows one", () => {
    expect(resultOf("tools/list")).toMatchObject({ results: ["ListToolsResult"], resultRule: "response" });
    expect(resultOf("server/discover")).toMatchObject({ results: ["DiscoverResult"], resultRule: "response" });
    expect(resultOf("completion/complete")).toMatchObject({ results: ["CompleteResult"], resultRule: "response" });
    expect(resultOf("subscriptions/listen")).toMatchObject({ results: ["SubscriptionsListenResult"], resultRule: "response" });
  });

  it("finds a response for every request (every one has its …ResultResponse)", () => {
    expect(requests(model).filter(([, , rule]) => rule !== "response")).toEqual([]);
    expect(requests(model).filter(([, results]) => results!.length > 1).map(([method]) => method)).toEqual(["prompts/get", "resources/read", "tools/call"]);
  });
});

describe.each(REVISIONS.filter((r) => r !== "2026-07-28" && r !== "draft"))("the published %s schema", (revision) => {
  let model: SchemaModel;
  setUpPerTest(async () => {
    ({ model } = await modelRevision(revision, { cacheDir: TEST_CACHE_DIR }));
  });

  it("has no …ResultResponse link: one result per request, by name or the default, as before", () => {
    for (const [method, results, rule] of requests(model)) {
      expect(results, method).toHaveLength(1);
      expect(rule, method).toMatch(/^(name|default)$/);
    }
    const defaults = requests(model).filter(([, , rule]) => rule === "default");
    expect(defaults.map(([method, results]) => [method, results])).toEqual([
      ["logging/setLevel", ["EmptyResult"]],
      ["ping", ["EmptyResult"]],
      ["resources/subscribe", ["EmptyResult"]],
      ["resources/unsubscribe", ["EmptyResult"]],
    ]);
  });
});

describe("the published 2025-11-25 schema, result by result", () => {
  it("is unchanged: every result a single definition, tools/call still CallToolResult", async () => {
    const { model } = await modelRevision("2025-11-25", { cacheDir: TEST_CACHE_DIR });
    expect(Object.fromEntries(catalogJson(model).methods.filter((m) => m.kind === "request").map((m) => [m.method, m.result]))).toEqual({
      "completion/complete": "CompleteResult",
      "elicitation/create": "ElicitResult",
      initialize: "InitializeResult",
      "logging/setLevel": "EmptyResult",
      ping: "EmptyResult",
      "prompts/get": "GetPromptResult",
      "prompts/list": "ListPromptsResult",
      "resources/list": "ListResourcesResult",
      "resources/read": "ReadResourceResult",
      "resources/subscribe": "EmptyResult",
      "resources/templates/list": "ListResourceTemplatesResult",
      "resources/unsubscribe": "EmptyResult",
      "roots/list": "ListRootsResult",
      "sampling/createMessage": "CreateMessageResult",
      "tasks/cancel": "CancelTaskResult",
      "tasks/get": "GetTaskResult",
      "tasks/list": "ListTasksResult",
      "tasks/result": "GetTaskPayloadResult",
      "tools/call": "CallToolResult",
      "tools/list": "ListToolsResult",
    });
  });
});
