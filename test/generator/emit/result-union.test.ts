/**
 * A result union in the generated code (test/fixtures/result-responses.json: `jobs/run` answers
 * `RunJobResult | InputRequiredResult`): catalog.ts's METHODS and ClientRequestMap, the client's
 * typed method and `request()`, and the handlers the server accepts, checked by compiling a
 * consumer beside the rendered files under the strict options (each `@ts-expect-error` must be
 * an error, or the unused directive is one).
 */
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { renderRevision, renderRuntime, type FileSet } from "../../../generator/emit/render.js";
import { buildModel } from "../../../generator/model/model.js";
import { lifecycleModel } from "../../../generator/model/lifecycle.js";
import { policyFor } from "../../../generator/model/policy.js";
import { finishModel } from "../../../generator/model/revision.js";
import { docFrom, loadFixture, request, typecheckInMemory } from "../support.js";

const policy = policyFor("fixture");

describe("a result union in the generated output (result-responses.json)", () => {
  let files: FileSet;
  setUpPerTest(async () => {
    const doc = loadFixture("result-responses.json");
    files = await renderRevision(finishModel({ doc, model: buildModel(doc, { revision: "fixture", policy }), policy }), { layout: "shared" });
  });

  it("writes the union into METHODS (as text) and ClientRequestMap (as a type)", () => {
    const catalog = files.get("catalog.ts")!;
    expect(catalog).toContain('readonly method: "jobs/run"; readonly kind: "request"; readonly from: readonly ["client"]; readonly params: "RunJobParams"; readonly paramsRequired: true; readonly result: "RunJobResult | InputRequiredResult";');
    expect(catalog).toContain('    result: "RunJobResult | InputRequiredResult",\n');
    expect(catalog).toContain('  "jobs/run": { params: T.RunJobParams; paramsRequired: true; result: T.RunJobResult | T.InputRequiredResult; cancellable: true; taskAugmentable: false };');
    expect(catalog).toContain('  "jobs/peek": { params: T.RunJobParams; paramsRequired: true; result: T.PeekJobResult; cancellable: true; taskAugmentable: false };');
  });

  it("types the client's method with the union", () => {
    expect(files.get("client.ts")!).toContain(
      "runJob(params: T.RunJobParams, options?: RequestOptions): Promise<T.RunJobResult | T.InputRequiredResult> {",
    );
  });

  it("compiles a consumer that must handle the union, and whose handlers may return either member", () => {
    const consumer = `
import type * as T from "./index.js";
import { METHODS, McpClient, McpServer, type ClientRequestMap } from "./index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;

assertType<Equal<ClientRequestMap["jobs/run"]["result"], T.RunJobResult | T.InputRequiredResult>>();
assertType<Equal<ClientRequestMap["jobs/stop"]["result"], T.StoppedResult | T.InputRequiredResult>>();
assertType<Equal<ClientRequestMap["jobs/peek"]["result"], T.PeekJobResult>>();
assertType<Equal<Extract<(typeof METHODS)[number], { method: "jobs/run" }>["result"], "RunJobResult | InputRequiredResult">>();

export async function callers(client: McpClient): Promise<string> {
  const viaMethod = await client.runJob({ name: "a" });
  const viaRequest = await client.request("jobs/run", { name: "a" });
  assertType<Equal<typeof viaMethod, T.RunJobResult | T.InputRequiredResult>>();
  assertType<Equal<typeof viaRequest, T.RunJobResult | T.InputRequiredResult>>();
  // @ts-expect-error the server may answer InputRequiredResult, which has no output
  viaMethod.output;
  if (viaRequest.resultType === "input_required") return viaRequest.requestState ?? "";
  const peek = await client.peekJob({ name: "a" });
  return viaRequest.output + peek.state;
}

export const server = new McpServer({
  handlers: {
    "jobs/run": (params) => (params.name === "later" ? { resultType: "input_required", requestState: "s" } : { resultType: "complete", output: "done" }),
    "jobs/stop": async () => ({ resultType: "input_required" }),
    // @ts-expect-error jobs/peek answers PeekJobResult only: no InputRequiredResult
    "jobs/peek": () => ({ resultType: "input_required" }),
  },
});
`;
    const all: Record<string, string> = { "/out/fixture/consumer.ts": consumer };
    for (const [name, text] of renderRuntime()) if (!name.endsWith("stdio-spawn.ts")) all[`/out/runtime/${name}`] = text;
    for (const [name, text] of files) if (name !== "stdio.ts" && name !== "stdio-spawn.ts") all[`/out/fixture/${name}`] = text;
    expect(typecheckInMemory(all)).toEqual([]);
  });
});

describe("the default server/discover handler when the discover result is a union", () => {
  it("answers with the member that has the fields it fills, not InputRequiredResult", () => {
    const fills = ["resultType", "supportedVersions", "capabilities", "cacheScope", "ttlMs", "instructions", "_meta"];
    const doc = docFrom({
      Result: { type: "object" },
      ServerCapabilities: { type: "object", properties: { tools: { type: "object" } } },
      InputRequiredResult: { type: "object", properties: { resultType: { type: "string" }, requestState: { type: "string" } } },
      // Not named DiscoverResult, so the schema's order stands: InputRequiredResult first.
      DiscoveryInfo: { type: "object", properties: Object.fromEntries(fills.map((name) => [name, {}])) },
      DiscoverRequest: request("server/discover"),
      CallToolRequest: request("tools/call"),
      DiscoverResultResponse: {
        type: "object",
        properties: { result: { anyOf: [{ $ref: "#/$defs/InputRequiredResult" }, { $ref: "#/$defs/DiscoveryInfo" }] } },
      },
      ClientRequest: { anyOf: [{ $ref: "#/$defs/DiscoverRequest" }, { $ref: "#/$defs/CallToolRequest" }] },
    });
    const model = buildModel(doc, { revision: "r", policy: policyFor("r") });
    expect(model.methods.find((m) => m.method === "server/discover")?.results).toEqual(["InputRequiredResult", "DiscoveryInfo"]);
    expect(lifecycleModel(doc, model)).toEqual({
      kind: "discover",
      method: "server/discover",
      result: "DiscoveryInfo",
      capabilities: [{ capability: "tools", methods: ["tools/call"], when: [] }],
    });
  });
});
