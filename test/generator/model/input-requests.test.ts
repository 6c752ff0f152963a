/**
 * The generator's multi round-trip facts (generator/model/input-requests.ts) and the catalog
 * block they render: on the published 2026-07-28 schema, on the small fixture
 * test/fixtures/mrtr-inputs.json, and on schemas that disagree with the pattern.
 */
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { catalogView, renderRevision } from "../../../generator/emit/render.js";
import type { SchemaDocument } from "../../../generator/load/schema-document.js";
import { inputRequestsModel, type InputRequestsModel } from "../../../generator/model/input-requests.js";
import { buildModel, type SchemaModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { finishModel, modelRevision } from "../../../generator/model/revision.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { catchStubgenError, docFrom, loadFixture, typecheckInMemory } from "../support.js";

const clientRequests = (model: SchemaModel) => model.methods.filter((m) => m.kind === "request" && m.from.includes("client"));
const factsOf = (doc: SchemaDocument, model: SchemaModel) => inputRequestsModel(doc, clientRequests(model));
/** A thunk computing the facts of a schema built from `defs` (for catchStubgenError or a direct call). */
const factsFromDefs = (defs: Record<string, unknown>) => {
  const doc = docFrom(defs);
  return () => factsOf(doc, buildModel(doc, { revision: "x", policy: policyFor("x") }));
};

describe("2026-07-28", () => {
  let facts: InputRequestsModel;
  setUpPerTest(async () => {
    const { doc, model } = await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR });
    facts = factsOf(doc, model)!;
  });

  it("has the three members of InputRequest, with params and results found as for any request", () => {
    expect(facts.inputs.map(({ method, typeName, params, paramsRequired, result, resultRule }) => ({ method, typeName, params, paramsRequired, result, resultRule }))).toEqual([
      { method: "elicitation/create", typeName: "ElicitRequest", params: { kind: "named", name: "ElicitRequestParams" }, paramsRequired: true, result: "ElicitResult", resultRule: "name" },
      {
        method: "roots/list",
        typeName: "ListRootsRequest",
        params: { kind: "paramsOf", owner: { kind: "named", name: "ListRootsRequest" }, optional: true },
        paramsRequired: false,
        result: "ListRootsResult",
        resultRule: "name",
      },
      {
        method: "sampling/createMessage",
        typeName: "CreateMessageRequest",
        params: { kind: "named", name: "CreateMessageRequestParams" },
        paramsRequired: true,
        result: "CreateMessageResult",
        resultRule: "name",
      },
    ]);
  });

  it("names the client capability of each, with the sub-capabilities of the client pages", () => {
    expect(facts.inputs.map((i) => [i.method, i.capability, i.subCapabilities.map((s) => s.sub)])).toEqual([
      ["elicitation/create", "elicitation", ["url", "form"]],
      ["roots/list", "roots", []],
      ["sampling/createMessage", "sampling", ["tools", "context"]],
    ]);
  });

  it("lets prompts/get, resources/read and tools/call answer InputRequiredResult (Supported Requests), nothing else", () => {
    expect(facts.methods).toEqual(["prompts/get", "resources/read", "tools/call"]);
  });

  it("reads -32021 from MissingRequiredClientCapabilityError", () => {
    expect(facts.missingCapabilityCode).toBe(-32021);
  });

  it("has no MRTR facts before 2026-07-28, and the same ones in the draft", async () => {
    const old = await modelRevision("2025-11-25", { cacheDir: TEST_CACHE_DIR });
    expect(factsOf(old.doc, old.model)).toBeNull();
    const draft = await modelRevision("draft", { cacheDir: TEST_CACHE_DIR });
    expect(factsOf(draft.doc, draft.model)?.methods).toEqual(["prompts/get", "resources/read", "tools/call"]);
  });

  it("renders InputRequestMap, InputRequiredMethod and INPUT_REQUIRED in the catalog, and ctx.input in the server only", async () => {
    const files = await renderRevision(finishModel(await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR })), { layout: "inline" });
    const catalog = files.get("catalog.ts")!;
    expect(catalog).toContain('import type { InputRequiredRules } from "./features/mrtr-rules.js";');
    expect(catalog).toContain('  "elicitation/create": { params: T.ElicitRequestParams; paramsRequired: true; result: T.ElicitResult };');
    expect(catalog).toContain('  "roots/list": { params: NonNullable<T.ListRootsRequest["params"]>; paramsRequired: false; result: T.ListRootsResult };');
    expect(catalog).toContain('export type InputRequiredMethod = "prompts/get" | "resources/read" | "tools/call";');
    expect(catalog).toContain('  capabilitiesMetaKey: "io.modelcontextprotocol/clientCapabilities",');
    expect(catalog).toContain("  missingCapabilityCode: -32021,");
    // The server's descriptor hands INPUT_REQUIRED to the runtime (facade/server.ts), which gives
    // the handlers ctx.input (createInputRequired) with the `requestState` option.
    expect(files.get("server.ts")).toContain("  inputRequired: { rules: INPUT_REQUIRED, create: createInputRequired },\n  resultDefaults: {");
    expect(files.get("server.ts")).toContain("requestState?: RequestStateOptions | undefined;");
    // Handler results: what HandlerResultMap allows (result defaults, issue 30), and what ctx.input.required() makes.
    expect(files.get("server.ts")).toContain("ReceiverEndableMethod, InputRequestMap, InputRequiredMethod, HandlerResultMap>");
    // The client answers input requests through its handlers (facade/client.ts, with mrtr.ts createAnswerInput as the
    // endpoint's send-path hook), not ctx.input.
    expect(files.get("client.ts")).toContain("handlers?: RequestHandlers<ServerRequestMap & InputRequestSpecs,");
    expect(files.get("client.ts")).toContain("  inputRequired: { rules: INPUT_REQUIRED, create: createAnswerInput },\n  tasks: null,\n");
    // The client half of MRTR lives in mrtr.ts too (issue 27): the client imports that hook and nothing of the server's half.
    expect(files.get("client.ts")).toContain('import { createAnswerInput } from "./features/mrtr-client.js";');
    expect(files.get("client.ts")).not.toMatch(/createInputRequired|RequestStateOptions|ctx\.input/);
    // Who answers input rounds types the results (issue 30): the client is generic on returnInputRequired.
    expect(files.get("client.ts")).toContain("export class McpClient<Manual extends boolean = false> {");
    expect(files.get("client.ts")).toContain(
      "  callTool<R extends boolean = Manual>(params: MetaFilled<T.CallToolRequestParams>, options?: RequestOptions & { returnInputRequired?: R | undefined }): Promise<InputAnswered<R, T.CallToolResult, T.InputRequiredResult>> {",
    );
    expect(files.get("client.ts")).toContain('export interface InputResults {\n  "prompts/get": T.GetPromptResult;\n  "resources/read": T.ReadResourceResult;\n  "tools/call": T.CallToolResult;\n}');
    expect(files.get("client.ts")).toContain("  listTools(params?: MetaFilled<T.PaginatedRequestParams>, options?: RequestOptions): Promise<T.ListToolsResult> {");
  });

  it("renders nothing of it for 2025-11-25", async () => {
    const files = await renderRevision(finishModel(await modelRevision("2025-11-25", { cacheDir: TEST_CACHE_DIR })), { layout: "inline" });
    for (const name of ["catalog.ts", "server.ts", "client.ts"]) {
      expect(files.get(name)).not.toMatch(/InputRequest(Map|Method)|InputRequiredMethod|INPUT_REQUIRED|mrtr-[a-z-]+\.js|requestState|InputAnswered|HandlerResultMap|resultDefaults\?/);
    }
    // Nothing selects its results: the client is not generic, the server fills nothing.
    expect(files.get("client.ts")).toContain("export class McpClient {");
    expect(files.get("server.ts")).toContain("  resultDefaults: null,\n  validators: VALIDATORS,\n} satisfies ServerDescriptor;");
    expect(files.has("features/mrtr-server.ts")).toBe(true); // the runtime is revision-independent
  });
});

describe("the fixture mrtr-inputs.json", () => {
  const doc = loadFixture("mrtr-inputs.json");
  // In setUpPerTest, not in the describe body, so mutation testing sees it (test/helpers/per-test.ts).
  let model: SchemaModel;
  let facts: NonNullable<ReturnType<typeof factsOf>>;
  setUpPerTest(() => {
    model = buildModel(doc, { revision: "test-rev", policy: policyFor("test-rev") });
    facts = factsOf(doc, model)!;
  });

  it("finds results by name and by description", () => {
    expect(facts.inputs.map((i) => [i.method, i.result, i.resultRule])).toEqual([
      ["ask/question", "AskResult", "name"],
      ["elicitation/create", "ElicitResult", "name"],
      ["peek/list", "PeekingResult", "description"],
    ]);
  });

  it("gives inline params as the member's params property, optional where the member does not require them", () => {
    expect(facts.inputs.find((i) => i.method === "peek/list")).toMatchObject({
      params: { kind: "paramsOf", owner: { kind: "named", name: "PeekRequest" }, optional: true },
      paramsRequired: false,
    });
  });

  it("takes a capability only where ClientCapabilities names the method's namespace, and sub-capabilities only where declared", () => {
    expect(facts.inputs.map((i) => [i.method, i.capability, i.subCapabilities.map((s) => s.sub)])).toEqual([
      ["ask/question", "ask", []],
      ["elicitation/create", "elicitation", ["form"]],
      ["peek/list", null, []],
    ]);
  });

  it("counts only requests whose params reference InputResponses (through allOf too), and reads the error code", () => {
    expect(facts.methods).toEqual(["jobs/run"]);
    expect(facts.missingCapabilityCode).toBe(-32099);
  });

  it("renders a catalog and server that type-check under the strictest options", async () => {
    const policy = policyFor("test-rev");
    const files = await renderRevision(finishModel({ doc, model, policy }), { layout: "inline" });
    expect(files.get("catalog.ts")).toContain('export type InputRequiredMethod = "jobs/run";');
    expect(files.get("catalog.ts")).toContain('  "peek/list": { params: NonNullable<T.PeekRequest["params"]>; paramsRequired: false; result: T.PeekingResult };');
    const sources: Record<string, string> = {};
    for (const [name, text] of files) if (name !== "stdio.ts" && !name.endsWith("stdio-spawn.ts")) sources[`/out/mrtr/${name}`] = text;
    expect(typecheckInMemory(sources)).toEqual([]);
  });

  it("gives catalogView no block without the facts", () => {
    const finished = finishModel({ doc, model, policy: policyFor("test-rev") });
    expect(finished.inputRequests).toEqual(facts);
    expect(catalogView({ ...finished, inputRequests: null }).inputRequired).toBeNull();
    expect(catalogView(finished).inputRequired?.methodType).toBe('"jobs/run"');
  });
});

describe("schemas that disagree with the pattern", () => {
  const base = {
    ClientRequest: { anyOf: [{ $ref: "#/$defs/GoRequest" }] },
    GoRequest: { type: "object", properties: { method: { const: "go" }, params: { $ref: "#/$defs/GoParams" } }, required: ["method", "params"] },
    GoParams: { type: "object", properties: { inputResponses: { $ref: "#/$defs/InputResponses" }, requestState: { type: "string" } } },
    GoResult: { type: "object" },
    InputResponses: { type: "object" },
    InputRequest: { anyOf: [{ $ref: "#/$defs/AskRequest" }] },
    AskRequest: { type: "object", properties: { method: { const: "ask" } }, required: ["method"] },
    AskResult: { type: "object" },
    InputRequiredResult: { type: "object", properties: { resultType: { type: "string" }, inputRequests: { type: "object" }, requestState: { type: "string" } } },
  };
  const facts = factsFromDefs;

  it("accepts the base schema", () => {
    expect(facts(base)()?.methods).toEqual(["go"]);
    expect(facts(base)()?.missingCapabilityCode).toBeNull();
  });

  it("refuses an InputRequest union without InputRequiredResult", () => {
    const { InputRequiredResult: _, ...defs } = base;
    expect(catchStubgenError(facts(defs)).message).toMatch(/expected a definition InputRequiredResult beside InputRequest/);
  });

  it("refuses an InputRequiredResult without requestState", () => {
    const defs = { ...base, InputRequiredResult: { type: "object", properties: { resultType: {}, inputRequests: {} } } };
    expect(catchStubgenError(facts(defs)).message).toMatch(/expected InputRequiredResult to declare "requestState"/);
  });

  it("refuses params that take inputResponses without requestState", () => {
    const defs = { ...base, GoParams: { type: "object", properties: { inputResponses: { $ref: "#/$defs/InputResponses" } } } };
    expect(catchStubgenError(facts(defs)).message).toMatch(/expected GoParams to declare "requestState"/);
  });

  it("refuses a member without a method const", () => {
    const defs = { ...base, AskRequest: { type: "object", properties: {} } };
    expect(catchStubgenError(facts(defs)).message).toMatch(/properties\.method\.const/);
  });
});

describe("schemas that disagree with the pattern: where the error points, and the shapes still accepted", () => {
  const base = {
    ClientRequest: { anyOf: [{ $ref: "#/$defs/GoRequest" }, { $ref: "#/$defs/StayRequest" }] },
    GoRequest: { type: "object", properties: { method: { const: "go" }, params: { $ref: "#/$defs/GoParams" } }, required: ["method", "params"] },
    GoParams: { type: "object", properties: { inputResponses: { $ref: "#/$defs/InputResponses" }, requestState: { type: "string" } } },
    GoResult: { type: "object" },
    // A request with params that take no input responses is not a multi round-trip request.
    StayRequest: { type: "object", properties: { method: { const: "stay" }, params: { type: "object", properties: { where: { type: "string" } } } } },
    StayResult: { type: "object" },
    InputResponses: { type: "object" },
    InputRequest: { anyOf: [{ $ref: "#/$defs/TellRequest" }, { $ref: "#/$defs/AskRequest" }] },
    AskRequest: { type: "object", properties: { method: { const: "ask" } }, required: ["method"] },
    AskResult: { type: "object" },
    TellRequest: { type: "object", properties: { method: { const: "tell" } }, required: ["method"] },
    TellResult: { type: "object" },
    InputRequiredResult: { type: "object", properties: { resultType: { type: "string" }, inputRequests: { type: "object" }, requestState: { type: "string" } } },
  };
  const run = factsFromDefs;
  const failure = (defs: Record<string, unknown>) => {
    const e = catchStubgenError(run(defs));
    return { message: e.message, pointer: e.location.pointer };
  };

  it("the base: input requests sorted by method, only requests whose params take InputResponses", () => {
    const facts = run(base)()!;
    expect(facts.inputs.map((i) => i.method)).toEqual(["ask", "tell"]);
    expect(facts.methods).toEqual(["go"]);
  });

  it("InputRequest as a oneOf, or as a single $ref, is read the same", () => {
    expect(run({ ...base, InputRequest: { oneOf: [{ $ref: "#/$defs/AskRequest" }] } })()!.inputs.map((i) => i.method)).toEqual(["ask"]);
    expect(run({ ...base, InputRequest: { $ref: "#/$defs/TellRequest" } })()!.inputs.map((i) => i.method)).toEqual(["tell"]);
  });

  it("fields declared through allOf (and an allOf that refers back to itself) count", () => {
    const defs = {
      ...base,
      InputRequiredResult: { allOf: [{ properties: { resultType: {}, inputRequests: {} } }, { $ref: "#/$defs/StateHolder" }] },
      StateHolder: { allOf: [{ $ref: "#/$defs/StateHolder" }], properties: { requestState: { type: "string" } } },
      GoParams: { allOf: [{ properties: { inputResponses: { $ref: "#/$defs/InputResponses" } } }, { properties: { requestState: { type: "string" } } }] },
    };
    expect(run(defs)()!.methods).toEqual(["go"]);
  });

  it("inline params that take InputResponses are checked as the params of their request", () => {
    const inline = { type: "object", properties: { inputResponses: { $ref: "#/$defs/InputResponses" } } };
    const defs = { ...base, GoRequest: { ...base.GoRequest, properties: { method: { const: "go" }, params: inline } } };
    expect(failure(defs)).toEqual({ message: 'expected the params to declare "requestState" (multi round-trip requests)', pointer: "/$defs/GoRequest/properties/params" });
    const complete = { ...inline, properties: { ...inline.properties, requestState: { type: "string" } } };
    expect(run({ ...base, GoRequest: { ...base.GoRequest, properties: { method: { const: "go" }, params: complete } } })()!.methods).toEqual(["go"]);
  });

  it("errors point at the definition or member at fault", () => {
    const { InputRequiredResult: _, ...noResult } = base;
    expect(failure(noResult)).toEqual({ message: "expected a definition InputRequiredResult beside InputRequest", pointer: "/$defs" });
    expect(failure({ ...base, AskRequest: { type: "object", properties: {} } })).toEqual({ message: 'expected each InputRequest member to have "properties.method.const"', pointer: "/$defs/AskRequest" });
    expect(failure({ ...base, InputRequest: { anyOf: [{ type: "object", properties: { method: { const: "ask" } } }] } })).toEqual({
      message: 'expected each InputRequest member to be a "$ref" to a definition',
      pointer: "/$defs/InputRequest/anyOf/0",
    });
    expect(failure({ ...base, InputRequest: { type: "object" } })).toEqual({ message: 'expected InputRequest to be an anyOf of request types or a single "$ref"', pointer: "/$defs/InputRequest" });
    const { AskResult: __, ...noAskResult } = base;
    expect(failure(noAskResult).message).toContain("cannot tell the result of ask");
    // Answered by a union (the schema's …ResultResponse link): an input response carries one result.
    const twoResults = {
      ...base,
      AskResultResponse: { type: "object", properties: { id: {}, jsonrpc: {}, result: { anyOf: [{ $ref: "#/$defs/AskResult" }, { $ref: "#/$defs/TellResult" }] } } },
    };
    expect(failure(twoResults)).toEqual({ message: "expected ask (InputRequest) to have one result, found AskResult | TellResult", pointer: "/$defs/AskRequest" });
  });

  it("reads the capability error's code only where it is an integer const", () => {
    const withCode = (code: unknown) => ({ ...base, MissingRequiredClientCapabilityError: { properties: { error: { allOf: [{ properties: { code: { const: code } } }] } } } });
    expect(run(withCode(-32021))()!.missingCapabilityCode).toBe(-32021);
    expect(run(withCode(1.5))()!.missingCapabilityCode).toBeNull();
    expect(run(withCode("-32021"))()!.missingCapabilityCode).toBeNull();
  });
});

