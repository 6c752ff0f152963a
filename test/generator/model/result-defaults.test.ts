/**
 * The result fields the generated server fills (model/result-defaults.ts, issue 30): read from each
 * revision's schema, `resultType` where the complete results declare it, the caching hints where
 * they declare both; InputRequiredResult and results whose `resultType` is another const are left
 * as they are. And the params a 2026-07-28 client may leave out (MethodRecord.paramsFieldsOptional).
 */
import { describe, expect, it } from "vitest";
import { finishModel, modelRevision } from "../../../generator/model/revision.js";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { resultDefaultsModel } from "../../../generator/model/result-defaults.js";
import { REVISIONS, TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { docFrom, loadFixture, request } from "../support.js";

const CACHE = ["resultType", "cacheScope", "ttlMs"];

describe("resultDefaultsModel on the published revisions", () => {
  it("2026-07-28: resultType on every client request; the caching hints on the list results, resources/read and server/discover", async () => {
    const model = finishModel(await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR }));
    expect(Object.fromEntries(model.resultDefaults.map((r) => [r.method, r.fields]))).toEqual({
      "completion/complete": ["resultType"],
      "prompts/get": ["resultType"],
      "prompts/list": CACHE,
      "resources/list": CACHE,
      "resources/read": CACHE,
      "resources/templates/list": CACHE,
      "server/discover": CACHE,
      "subscriptions/listen": ["resultType"],
      "tools/call": ["resultType"],
      "tools/list": CACHE,
    });
    // InputRequiredResult is ctx.input.required()'s, not a complete result of tools/call.
    expect(model.resultDefaults.find((r) => r.method === "tools/call")).toEqual({ method: "tools/call", results: ["CallToolResult"], others: [], fields: ["resultType"] });
  });

  it("the Tasks extension: its task handle is typed as it is (resultType \"task\"), its own requests are the extension runtime's", async () => {
    const model = finishModel(await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR, extensions: ["tasks"] }));
    expect(model.resultDefaults.find((r) => r.method === "tools/call")).toEqual({ method: "tools/call", results: ["CallToolResult"], others: ["CreateTaskResult"], fields: ["resultType"] });
    expect(model.resultDefaults.some((r) => r.method.startsWith("tasks/"))).toBe(false);
  });

  it.each(REVISIONS.filter((r) => r < "2026"))("%s: nothing (its results have no resultType)", async (revision) => {
    expect(finishModel(await modelRevision(revision, { cacheDir: TEST_CACHE_DIR })).resultDefaults).toEqual([]);
  });
});

describe("resultDefaultsModel on small schemas", () => {
  it("a result whose resultType is a const other than \"complete\" is not completed; without the MRTR pattern, InputRequiredResult is a result like the others", () => {
    const doc = loadFixture("result-responses.json");
    const model = buildModel(doc, { revision: "fixture", policy: policyFor("fixture") });
    const run = resultDefaultsModel(doc, model).find((r) => r.method === "jobs/run");
    expect(run).toEqual({ method: "jobs/run", results: ["RunJobResult"], others: ["InputRequiredResult"], fields: ["resultType"] });
    expect(resultDefaultsModel(doc, model, ["jobs/run"]).find((r) => r.method === "jobs/run")?.others).toEqual([]);
  });

  it("the caching hints only where every complete result declares both", () => {
    const doc = docFrom({
      HalfResult: { type: "object", properties: { resultType: { type: "string" }, ttlMs: { type: "integer" } } },
      BothResult: { type: "object", properties: { resultType: { type: "string" }, ttlMs: { type: "integer" }, cacheScope: { enum: ["public", "private"] } } },
      PlainResult: { type: "object", properties: { value: { type: "string" } } },
      HalfRequest: request("half/get"),
      BothRequest: request("both/get"),
      PlainRequest: request("plain/get"),
      ClientRequest: { anyOf: [{ $ref: "#/$defs/HalfRequest" }, { $ref: "#/$defs/BothRequest" }, { $ref: "#/$defs/PlainRequest" }] },
    });
    const model = buildModel(doc, { revision: "r", policy: policyFor("r") });
    expect(resultDefaultsModel(doc, model).map((r) => [r.method, r.fields])).toEqual([
      ["both/get", CACHE],
      ["half/get", ["resultType"]],
    ]);
  });
});

describe("paramsFieldsOptional", () => {
  it("2026-07-28: true where only _meta is required (the list requests, server/discover), false where another field is", async () => {
    const model = finishModel(await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR }));
    const optional = model.methods.filter((m) => m.kind === "request" && m.from.includes("client") && m.paramsRequired && m.paramsFieldsOptional).map((m) => m.method);
    expect(optional).toEqual(["prompts/list", "resources/list", "resources/templates/list", "server/discover", "tools/list"]);
    expect(model.methods.find((m) => m.method === "tools/call")?.paramsFieldsOptional).toBe(false);
  });

  it("reads required through $ref and allOf; a union of params counts as something required", () => {
    const doc = docFrom({
      Result: { type: "object" },
      Base: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      Params: { allOf: [{ $ref: "#/$defs/Base" }, { type: "object", properties: { _meta: { type: "object" } }, required: ["_meta"] }] },
      Loose: { type: "object", properties: { _meta: { type: "object" }, cursor: { type: "string" } }, required: ["_meta"] },
      EitherRequest: request("either/get", { anyOf: [{ type: "object" }, { type: "object" }] }),
      NamedRequest: request("named/get", { $ref: "#/$defs/Params" }),
      LooseRequest: request("loose/get", { $ref: "#/$defs/Loose" }),
      BareRequest: request("bare/get"),
      ClientRequest: { anyOf: ["Either", "Named", "Loose", "Bare"].map((n) => ({ $ref: `#/$defs/${n}Request` })) },
    });
    const model = buildModel(doc, { revision: "r", policy: policyFor("r") });
    expect(model.methods.map((m) => [m.method, m.paramsFieldsOptional])).toEqual([
      ["bare/get", true],
      ["either/get", false],
      ["loose/get", true],
      ["named/get", false],
    ]);
  });
});
