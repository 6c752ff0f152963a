/**
 * Multi round-trip requests on the wire (2026-07-28 basic/patterns/mrtr), over the in-memory
 * transport with a raw JSON-RPC client: each input-required-result conformance scenario's
 * exchange as exact JSON, the retry rules (missing, extra and malformed answers), and the
 * requests the runtime refuses before or after a handler.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { ALL_CAPS, askString, meta, RawClient, scenarioServer } from "./support.js";

const STATE = /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;
const state = () => expect.stringMatching(STATE);
const elicit = (content: Record<string, unknown>) => ({ action: "accept", content });
const sampled = (text: string) => ({ role: "assistant", content: { type: "text", text }, model: "test-model", stopReason: "endTurn" });
const roots = { roots: [{ uri: "file:///test/root", name: "Test Root" }] };
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, arguments: {}, ...extra });
const complete = (id: number, text: string) => ({ jsonrpc: "2.0", id, result: { resultType: "complete", content: [{ type: "text", text }] } });
const resultOf = (r: R.JsonRpcMessage | { result?: unknown }) => (r as { result: { requestState?: string; [k: string]: unknown } }).result;

const NAME_FORM = {
  method: "elicitation/create",
  params: { message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
};

describe("the scenarios' exchanges", () => {
  it("basic elicitation: asks for user_name without state, completes on the retry", async () => {
    const c = await RawClient.connect(scenarioServer());
    expect(await c.call("tools/call", tool("test_input_required_result_elicitation"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "input_required", inputRequests: { user_name: NAME_FORM } },
    });
    const retry = await c.call("tools/call", tool("test_input_required_result_elicitation", { inputResponses: { user_name: elicit({ name: "Alice" }) } }));
    expect(retry).toEqual(complete(2, "Hello, Alice!"));
  });

  it("basic sampling and basic roots/list", async () => {
    const c = await RawClient.connect(scenarioServer());
    expect(await c.call("tools/call", tool("test_input_required_result_sampling"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "input_required",
        inputRequests: {
          capital_question: {
            method: "sampling/createMessage",
            params: { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 },
          },
        },
      },
    });
    const answer = await c.call("tools/call", tool("test_input_required_result_sampling", { inputResponses: { capital_question: sampled("Paris.") } }));
    expect(answer).toEqual(complete(2, "Sampling response: Paris."));
    expect(await c.call("tools/call", tool("test_input_required_result_list_roots"))).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: { resultType: "input_required", inputRequests: { client_roots: { method: "roots/list", params: {} } } },
    });
    expect(await c.call("tools/call", tool("test_input_required_result_list_roots", { inputResponses: { client_roots: roots } }))).toEqual(
      complete(4, "Roots: file:///test/root"),
    );
  });

  it("request state: a signed requestState beside the request, verified on the retry", async () => {
    const c = await RawClient.connect(scenarioServer());
    const r1 = await c.call("tools/call", tool("test_input_required_result_request_state"));
    expect(r1).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "input_required",
        inputRequests: {
          confirm: {
            method: "elicitation/create",
            params: { message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
          },
        },
        requestState: state(),
      },
    });
    const retry = { inputResponses: { confirm: elicit({ ok: true }) }, requestState: resultOf(r1).requestState };
    expect(await c.call("tools/call", tool("test_input_required_result_request_state", retry))).toEqual(complete(2, "state-ok"));
  });

  it("multiple inputs: one round asks all three kinds; all answers complete it, some of them ask again", async () => {
    const c = await RawClient.connect(scenarioServer());
    const r1 = await c.call("tools/call", tool("test_input_required_result_multiple_inputs"));
    expect(Object.keys(resultOf(r1)["inputRequests"] as object)).toEqual(["user_name", "greeting", "client_roots"]);
    expect(resultOf(r1).requestState).toMatch(STATE);
    const all = { user_name: elicit({ name: "Alice" }), greeting: sampled("Hello there!"), client_roots: roots };
    const { client_roots: _, ...some } = all;
    const partial = await c.call("tools/call", tool("test_input_required_result_multiple_inputs", { inputResponses: some, requestState: resultOf(r1).requestState }));
    expect(resultOf(partial)).toEqual({ ...resultOf(r1), requestState: state() });
    const done = await c.call("tools/call", tool("test_input_required_result_multiple_inputs", { inputResponses: all, requestState: resultOf(r1).requestState }));
    expect(done).toEqual(complete(3, "Alice: 1 root(s), model test-model"));
  });

  it("multi round: two rounds of input, each with its own state, then a result", async () => {
    const c = await RawClient.connect(scenarioServer());
    const name = "test_input_required_result_multi_round";
    const r1 = await c.call("tools/call", tool(name));
    expect(Object.keys(resultOf(r1)["inputRequests"] as object)).toEqual(["step1"]);
    const r2 = await c.call("tools/call", tool(name, { inputResponses: { step1: elicit({ name: "Alice" }) }, requestState: resultOf(r1).requestState }));
    expect(resultOf(r2)).toEqual({
      resultType: "input_required",
      inputRequests: {
        step2: {
          method: "elicitation/create",
          params: { message: "Step 2: What is your favorite color?", requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] } },
        },
      },
      requestState: state(),
    });
    expect(resultOf(r2).requestState).not.toBe(resultOf(r1).requestState);
    const r3 = await c.call("tools/call", tool(name, { inputResponses: { step2: elicit({ color: "blue" }) }, requestState: resultOf(r2).requestState }));
    expect(r3).toEqual(complete(3, "Alice likes blue"));
  });

  it("a prompt (prompts/get) asks too, and renders on the retry", async () => {
    const c = await RawClient.connect(scenarioServer());
    const r1 = await c.call("prompts/get", { name: "test_input_required_result_prompt" });
    expect(resultOf(r1)).toEqual({ resultType: "input_required", inputRequests: { user_context: expect.objectContaining({ method: "elicitation/create" }) } });
    const r2 = await c.call("prompts/get", { name: "test_input_required_result_prompt", inputResponses: { user_context: elicit({ context: "test context" }) } });
    expect(r2).toEqual({ jsonrpc: "2.0", id: 2, result: { resultType: "complete", messages: [{ role: "user", content: { type: "text", text: "test context" } }] } });
  });

  it("missing answer: a retry that answers another key is asked again (a result, not an error)", async () => {
    const c = await RawClient.connect(scenarioServer());
    const r = await c.call("tools/call", tool("test_input_required_result_elicitation", { inputResponses: { wrong_key: elicit({ data: "wrong" }) } }));
    expect(r).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "input_required", inputRequests: { user_name: NAME_FORM } } });
  });

  it("extra answers are ignored, even malformed ones (they are not read: InputResponses' values are checked by what was asked, not at the wire)", async () => {
    const c = await RawClient.connect(scenarioServer());
    const inputResponses = { user_name: elicit({ name: "Alice" }), unknown_extra_key: elicit({ foo: "bar" }), another_unexpected: 7, __proto__x: null };
    expect(await c.call("tools/call", tool("test_input_required_result_elicitation", { inputResponses }))).toEqual(complete(1, "Hello, Alice!"));
  });

  it("capabilities: only what the request's clientCapabilities declare is asked", async () => {
    const c = await RawClient.connect(scenarioServer());
    const r = await c.call("tools/call", { ...tool("test_input_required_result_capabilities"), _meta: meta({ sampling: {} }) }, { raw: true });
    expect(resultOf(r)).toEqual({
      resultType: "input_required",
      inputRequests: {
        greeting: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 50 } },
      },
    });
  });

  it("tools/list and prompts/list answer as ever (no input_required), whatever MRTR fields they carry", async () => {
    const c = await RawClient.connect(scenarioServer());
    expect(await c.call("tools/list", { requestState: "junk", inputResponses: null })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { resultType: "complete", tools: [], cacheScope: "public", ttlMs: 0 },
    });
    expect(resultOf(await c.call("prompts/list", {}))["resultType"]).toBe("complete");
  });
});

describe("malformed retries: JSON-RPC errors", () => {
  const call = async (extra: Record<string, unknown>) => {
    const c = await RawClient.connect(scenarioServer());
    return c.call("tools/call", tool("test_input_required_result_elicitation", extra));
  };

  it("an answer that is not an object", async () => {
    expect(await call({ inputResponses: { user_name: 12345 } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32602,
        message: "Invalid params: inputResponses/user_name: expected an object, got 12345 (the answer to elicitation/create, ElicitResult)",
        data: { pointer: "/inputResponses/user_name", expected: "an object" },
      },
    });
  });

  it("an answer of the wrong shape for its method, with the pointer of the problem (checked against the result of the method asked)", async () => {
    expect((await call({ inputResponses: { user_name: { action: "maybe" } } })).error).toEqual({
      code: -32602,
      message: 'Invalid params: inputResponses/user_name/action: expected one of "accept", "cancel", "decline", got "maybe" (the answer to elicitation/create, ElicitResult)',
      data: { pointer: "/inputResponses/user_name/action", expected: 'one of "accept", "cancel", "decline"' },
    });
    expect((await call({ inputResponses: { user_name: { action: "accept", content: { name: { nested: 1 } } } } })).error).toMatchObject({
      code: -32602,
      data: { pointer: "/inputResponses/user_name/content/name" },
    });
    // A valid ListRootsResult where an ElicitResult was asked.
    expect((await call({ inputResponses: { user_name: roots } })).error).toEqual({
      code: -32602,
      message: 'Invalid params: inputResponses/user_name/action: expected one of "accept", "cancel", "decline" (required), got nothing (the answer to elicitation/create, ElicitResult)',
      data: { pointer: "/inputResponses/user_name/action", expected: 'one of "accept", "cancel", "decline" (required)' },
    });
  });

  it("inputResponses that is null, an array or a string; requestState that is not a string: the schema's, at the wire", async () => {
    expect(await call({ inputResponses: null })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Invalid params: tools/call params /inputResponses: expected an object, got null", data: { pointer: "/inputResponses", expected: "an object" } },
    });
    expect((await call({ inputResponses: [] })).error?.message).toBe("Invalid params: tools/call params /inputResponses: expected an object, got an array");
    expect((await call({ inputResponses: "x" })).error?.message).toBe('Invalid params: tools/call params /inputResponses: expected an object, got "x"');
    expect((await call({ requestState: 42 })).error?.message).toBe("Invalid params: tools/call params /requestState: expected a string, got 42");
  });

  it("with params validation off, the multi round-trip checks still hold (mrtr.ts's own)", async () => {
    const c = await RawClient.connect(scenarioServer({ validate: { params: false } }));
    const retry = (extra: Record<string, unknown>) => c.call("tools/call", tool("test_input_required_result_elicitation", extra));
    expect((await retry({ inputResponses: null })).error?.message).toBe("Invalid params: inputResponses must be an object, got null");
    expect((await retry({ requestState: 42 })).error?.message).toBe("Invalid params: requestState must be a string, got 42");
    expect((await retry({ inputResponses: { user_name: 12345 } })).error?.message).toBe(
      "Invalid params: inputResponses/user_name: expected an object, got 12345 (the answer to elicitation/create, ElicitResult)",
    );
  });

  it("answers to roots/list and sampling are checked against their results too", async () => {
    const c = await RawClient.connect(scenarioServer());
    const badRoots = await c.call("tools/call", tool("test_input_required_result_list_roots", { inputResponses: { client_roots: { roots: [{ name: "no uri" }] } } }));
    expect(badRoots.error?.message).toBe("Invalid params: inputResponses/client_roots/roots/0/uri: expected a string (required), got nothing (the answer to roots/list, ListRootsResult)");
    const badSample = await c.call("tools/call", tool("test_input_required_result_sampling", { inputResponses: { capital_question: { ...sampled("x"), role: "system" } } }));
    expect(badSample.error?.message).toBe('Invalid params: inputResponses/capital_question/role: expected one of "assistant", "user", got "system" (the answer to sampling/createMessage, CreateMessageResult)');
  });
});

describe("requestState refused before the handler runs", () => {
  /** A server counting its handler's runs, and a first round's state. */
  const setup = async (options: R.McpServerOptions = {}) => {
    const runs = { count: 0 };
    const server = scenarioServer({
      ...options,
      handlers: {
        "tools/call": async (params, ctx) => {
          runs.count++;
          const ask = { confirm: askString("Please confirm", "ok") };
          const got = ctx.input.responses(ask);
          if (got === undefined || ctx.input.state() === undefined) return ctx.input.required(ask, { state: { tool: params.name } });
          return { resultType: "complete", content: [{ type: "text", text: `ok ${JSON.stringify(ctx.input.state())}` }] };
        },
      },
    });
    const c = await RawClient.connect(server);
    const r1 = await c.call("tools/call", tool("a"));
    const issued = resultOf(r1).requestState!;
    runs.count = 0;
    const retry = (requestState: unknown, name = "a", extra: Record<string, unknown> = {}) =>
      c.call("tools/call", { name, arguments: {}, inputResponses: { confirm: elicit({ ok: "yes" }) }, requestState, ...extra });
    return { c, issued, runs, retry };
  };
  const refused = (id: number, reason: string, message: string) => ({ jsonrpc: "2.0", id, error: { code: -32602, message, data: { reason } } });
  const INVALID = "Invalid requestState: it failed integrity verification";

  it("accepts the state as issued (the control)", async () => {
    const { issued, runs, retry } = await setup();
    expect(await retry(issued)).toEqual(complete(2, 'ok {"tool":"a"}'));
    expect(runs.count).toBe(1);
  });

  it("tampered: appended to, a payload character changed, the MAC changed, cut, empty", async () => {
    const { issued, runs, retry } = await setup();
    const [prefix, body, mac] = issued.split(".") as [string, string, string];
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const forged = [
      `${issued}-TAMPERED`,
      `${prefix}.${flip(body, 5)}.${mac}`,
      `${prefix}.${body}.${flip(mac, 10)}`,
      `${prefix}.${body}`,
      "",
      `v2.${body}.${mac}`,
    ];
    let id = 2;
    for (const text of forged) expect(await retry(text)).toEqual(refused(id++, "invalid", INVALID));
    expect(runs.count).toBe(0);
  });

  it("a payload re-signed under another key (a foreign or forged state) is invalid", async () => {
    const { issued, runs, retry } = await setup({ requestState: { key: "another key, also thirty-two bytes long" } });
    const other = await setup({ requestState: { key: "yet another key of thirty-two bytes!" } });
    expect(await retry(other.issued)).toEqual(refused(2, "invalid", INVALID));
    expect(await other.retry(issued)).toEqual(refused(2, "invalid", INVALID));
    expect(runs.count + other.runs.count).toBe(0);
  });

  it("replayed on another tool, with other arguments, or on another method: a mismatch", async () => {
    const { issued, runs, retry, c } = await setup();
    const mismatch = "Invalid requestState: it was issued for a different request";
    expect(await retry(issued, "b")).toEqual(refused(2, "mismatch", mismatch));
    expect(await retry(issued, "a", { arguments: { x: 1 } })).toEqual(refused(3, "mismatch", mismatch));
    expect(await c.call("prompts/get", { name: "a", requestState: issued })).toEqual(refused(4, "mismatch", mismatch));
    expect(runs.count).toBe(0);
    // Key order and _meta are not part of what the state is bound to.
    expect(await retry(issued, "a", { _meta: { ...meta(), "io.modelcontextprotocol/clientInfo": { name: "other", version: "2" } } })).toEqual(complete(5, 'ok {"tool":"a"}'));
  });

  it("bound to arguments whatever their key order", async () => {
    const server = scenarioServer({
      handlers: {
        "tools/call": async (_params, ctx) =>
          ctx.input.state() === undefined ? ctx.input.required({}, { state: 1 }) : { resultType: "complete", content: [] },
      },
    });
    const c = await RawClient.connect(server);
    const r1 = await c.call("tools/call", { name: "t", arguments: { a: 1, b: { c: 2, d: [3] } } });
    expect(resultOf(r1)).toEqual({ resultType: "input_required", requestState: state() });
    const r2 = await c.call("tools/call", { arguments: { b: { d: [3], c: 2 }, a: 1 }, name: "t", requestState: resultOf(r1).requestState });
    expect(r2).toEqual({ jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: [] } });
  });

  it("expired: refused once its ttl has passed on the server's clock", async () => {
    let now = 1_000_000;
    const { issued, runs, retry } = await setup({ requestState: { key: "a test key of thirty-two bytes or more!", ttlMs: 1000, now: () => now } });
    now += 999;
    expect(await retry(issued)).toEqual(complete(2, 'ok {"tool":"a"}'));
    now += 1;
    expect(await retry(issued)).toEqual(refused(3, "expired", "Invalid requestState: it has expired"));
    expect(runs.count).toBe(1);
  });

  it("bound to the principal when the server names one: another principal's state is refused as a forged one is", async () => {
    let principal = "alice";
    const { issued, runs, retry } = await setup({ requestState: { key: "a test key of thirty-two bytes or more!", principal: () => principal } });
    principal = "mallory";
    expect(await retry(issued)).toEqual(refused(2, "invalid", INVALID));
    principal = "alice";
    expect(await retry(issued)).toEqual(complete(3, 'ok {"tool":"a"}'));
    expect(runs.count).toBe(1);
  });

  it("a principal function that throws refuses the request (-32603): no state is issued or accepted without it", async () => {
    const c = await RawClient.connect(
      scenarioServer({
        requestState: {
          principal: () => {
            throw new Error("no session");
          },
        },
      }),
    );
    expect(await c.call("tools/call", tool("test_input_required_result_request_state"))).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "requestState.principal threw: no session" },
    });
    const forged = await c.call("tools/call", tool("test_input_required_result_request_state", { requestState: `v1.e30.${"A".repeat(43)}` }));
    expect(forged.error).toEqual({ code: -32602, message: "Invalid requestState: it failed integrity verification", data: { reason: "invalid" } });
  });

  it("an oversized requestState is refused unread", async () => {
    const { retry, runs } = await setup();
    expect(await retry(`v1.${"A".repeat(70_000)}.${"A".repeat(43)}`)).toEqual(refused(2, "invalid", INVALID));
    expect(runs.count).toBe(0);
  });

  it("is not single-use: the same state verifies twice (the spec's warning; one-time use is the server's to enforce)", async () => {
    const { issued, retry } = await setup();
    expect((await retry(issued)).result).toBeDefined();
    expect((await retry(issued)).result).toBeDefined();
  });

  it("the default key is one per process: two servers without a key accept each other's state", async () => {
    const one = await setup({ requestState: {} });
    const two = await setup({ requestState: {} });
    expect(await two.retry(one.issued)).toEqual(complete(2, 'ok {"tool":"a"}'));
  });
});

describe("client capabilities (-32021 MissingRequiredClientCapabilityError)", () => {
  /** A server whose tool asks for what the test gives, on a request declaring `capabilities`. */
  const ask = async (requests: Record<string, unknown>, capabilities: object, handBuilt = false) => {
    const server = scenarioServer({
      handlers: {
        "tools/call": async (_params, ctx) => {
          if (handBuilt) return { resultType: "input_required", inputRequests: requests } as unknown as R.CallToolResult;
          return ctx.input.required(requests as R.InputRequests);
        },
      },
    });
    const c = await RawClient.connect(server);
    return c.call("tools/call", { name: "t", _meta: meta(capabilities) }, { raw: true });
  };
  const missing = (message: string, requiredCapabilities: object) => ({ jsonrpc: "2.0", id: 1, error: { code: -32021, message, data: { requiredCapabilities } } });
  const url = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/x", elicitationId: "e1" } };
  const tools = { method: "sampling/createMessage", params: { messages: [], maxTokens: 5, tools: [{ name: "x", inputSchema: { type: "object" } }] } };

  it("elicitation without the capability", async () => {
    expect(await ask({ user_name: NAME_FORM }, { sampling: {} })).toEqual(
      missing("Missing required client capability: elicitation (to ask for user_name (elicitation/create))", { elicitation: {} }),
    );
  });

  it("form mode: granted by elicitation {} and elicitation.form, not by elicitation.url alone", async () => {
    expect((await ask({ f: NAME_FORM }, { elicitation: {} })).result).toBeDefined();
    expect((await ask({ f: NAME_FORM }, { elicitation: { form: {} } })).result).toBeDefined();
    expect(await ask({ f: NAME_FORM }, { elicitation: { url: {} } })).toEqual(
      missing("Missing required client capability: elicitation.form (to ask for f (elicitation/create))", { elicitation: { form: {} } }),
    );
  });

  it("url mode needs elicitation.url; tool use needs sampling.tools; several missing are listed together", async () => {
    expect(await ask({ u: url }, { elicitation: {} })).toEqual(
      missing("Missing required client capability: elicitation.url (to ask for u (elicitation/create))", { elicitation: { url: {} } }),
    );
    expect((await ask({ u: url }, { elicitation: { url: {} } })).result).toBeDefined();
    expect(await ask({ u: url, t: tools, r: { method: "roots/list" } }, {})).toEqual(
      missing("Missing required client capability: elicitation.url, sampling.tools, roots (to ask for u (elicitation/create), t (sampling/createMessage), r (roots/list))", {
        elicitation: { url: {} },
        sampling: { tools: {} },
        roots: {},
      }),
    );
    expect((await ask({ t: tools }, { sampling: { tools: {} } })).result).toBeDefined();
  });

  it("a request without clientCapabilities declares none (validation off: the schema requires the request _meta, so it never gets this far otherwise)", async () => {
    const server = scenarioServer({ validate: { params: false } });
    const c = await RawClient.connect(server);
    const r = await c.call("tools/call", { name: "test_input_required_result_list_roots" }, { raw: true });
    expect(r.error).toEqual({ code: -32021, message: "Missing required client capability: roots (to ask for client_roots (roots/list))", data: { requiredCapabilities: { roots: {} } } });
    const checked = await RawClient.connect(scenarioServer());
    expect((await checked.call("tools/call", { name: "test_input_required_result_list_roots" }, { raw: true })).error).toMatchObject({ code: -32602, data: { pointer: "/_meta" } });
  });

  it("a hand-built InputRequiredResult gets the same check after the handler", async () => {
    expect(await ask({ user_name: NAME_FORM }, { sampling: {} }, true)).toEqual(
      missing("Missing required client capability: elicitation (to ask for user_name (elicitation/create))", { elicitation: {} }),
    );
    expect((await ask({ user_name: NAME_FORM }, ALL_CAPS, true)).result).toEqual({ resultType: "input_required", inputRequests: { user_name: NAME_FORM } });
  });
});

describe("what a handler may answer", () => {
  const serve = async (handlers: R.McpServerOptions["handlers"]) => RawClient.connect(scenarioServer({ handlers }));

  it("input_required from a method that may not answer it is refused (-32603), not sent", async () => {
    const c = await serve({
      "tools/list": () => ({ resultType: "input_required", requestState: "x" }) as unknown as R.ListToolsResult,
    });
    expect(await c.call("tools/list", {})).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32603, message: "Internal error: tools/list may not answer input_required (only prompts/get, resources/read, tools/call)" },
    });
  });

  it("even a result made by required() is refused from such a method", async () => {
    let made: unknown;
    const c = await serve({
      "tools/call": async (_params, ctx) => (made = await ctx.input.required({ r: { method: "roots/list" } })) as R.CallToolResult,
      "tools/list": () => made as R.ListToolsResult,
    });
    expect((await c.call("tools/call", { name: "x" })).result).toEqual({ resultType: "input_required", inputRequests: { r: { method: "roots/list" } } });
    expect((await c.call("tools/list", {})).error?.code).toBe(-32603);
  });

  it("a hand-built InputRequiredResult with neither inputRequests nor requestState is refused (-32603)", async () => {
    const c = await serve({ "tools/call": () => ({ resultType: "input_required", inputRequests: {} }) as unknown as R.CallToolResult });
    expect((await c.call("tools/call", { name: "x" })).error).toEqual({ code: -32603, message: "Internal error: an InputRequiredResult needs inputRequests or requestState" });
  });

  it("required() with a state only (load shedding) sends requestState alone; with nothing at all it fails", async () => {
    const c = await serve({
      "tools/call": (params, ctx) => (params.name === "shed" ? ctx.input.required({}, { state: { retry: true } }) : ctx.input.required({})),
    });
    expect(resultOf(await c.call("tools/call", { name: "shed" }))).toEqual({ resultType: "input_required", requestState: state() });
    expect((await c.call("tools/call", { name: "none" })).error).toEqual({ code: -32603, message: "ctx.input.required: give at least one input request or a state" });
  });

  it("a state that is not JSON, an unknown method, a bad ttl: the handler's errors (-32603)", async () => {
    const c = await serve({
      "tools/call": (params, ctx) => {
        if (params.name === "bigint") return ctx.input.required({}, { state: 1n });
        if (params.name === "ttl") return ctx.input.required({}, { state: 1, ttlMs: -1 });
        return ctx.input.required({ x: { method: "tools/call" } } as unknown as R.InputRequests);
      },
    });
    expect((await c.call("tools/call", { name: "bigint" })).error).toEqual({
      code: -32603,
      message: "ctx.input.required: state must be JSON (Do not know how to serialize a BigInt)",
    });
    expect((await c.call("tools/call", { name: "ttl" })).error).toEqual({ code: -32603, message: "ttlMs must be an integer ≥ 1, got -1" });
    expect((await c.call("tools/call", { name: "method" })).error).toEqual({
      code: -32603,
      message: 'input request "x": "tools/call" is not one of elicitation/create, roots/list, sampling/createMessage',
    });
  });

  it("ctx.input is a lazy accessor; its functions work destructured and through a spread ctx", async () => {
    const seen: unknown[] = [];
    const c = await serve({
      "tools/call": (_params, ctx) => {
        seen.push(typeof Object.getOwnPropertyDescriptor(ctx, "input")?.get);
        const { supports, responses, required } = { ...ctx }.input;
        seen.push(supports("roots/list"), responses({ r: { method: "roots/list" } }));
        return required({ r: { method: "roots/list" } });
      },
      "tools/list": (_params, ctx) => {
        seen.push("input" in ctx);
        return { resultType: "complete", tools: [], cacheScope: "public", ttlMs: 0 };
      },
    });
    expect(resultOf(await c.call("tools/call", { name: "x" }))).toEqual({ resultType: "input_required", inputRequests: { r: { method: "roots/list" } } });
    await c.call("tools/list", {});
    expect(seen).toEqual(["function", true, undefined, false]);
  });

  it("a plain request costs no crypto: the clock and the principal are never consulted", async () => {
    let calls = 0;
    const c = await RawClient.connect(
      scenarioServer({
        requestState: {
          now: () => ++calls,
          principal: () => String(++calls),
        },
      }),
    );
    expect(await c.call("tools/call", tool("test_input_required_result_elicitation", { inputResponses: { user_name: elicit({ name: "A" }) } }))).toEqual(
      complete(1, "Hello, A!"),
    );
    await c.call("tools/call", tool("test_input_required_result_elicitation"));
    expect(calls).toBe(0);
  });
});

describe("options", () => {
  it("refuse a key under 32 bytes, a bad ttl and a bad maxLength when the server is made", () => {
    expect(() => scenarioServer({ requestState: { key: "short" } })).toThrow(new RangeError("requestState.key must be at least 32 bytes, got 5"));
    expect(() => scenarioServer({ requestState: { key: new Uint8Array(31) } })).toThrow(RangeError);
    expect(() => new R.McpServer({ requestState: { key: new Uint8Array(32) } })).not.toThrow();
    expect(() => scenarioServer({ requestState: { ttlMs: 0 } })).toThrow(new RangeError("requestState.ttlMs must be an integer ≥ 1, got 0"));
    expect(() => scenarioServer({ requestState: { ttlMs: Infinity } })).toThrow(RangeError);
    expect(() => scenarioServer({ requestState: { maxLength: 10 } })).toThrow(RangeError);
  });

  it("copy a byte key: changing the caller's array later changes nothing", async () => {
    const key = new Uint8Array(32).fill(7);
    const server = scenarioServer({ requestState: { key } });
    const c = await RawClient.connect(server);
    const r1 = await c.call("tools/call", tool("test_input_required_result_request_state"));
    key.fill(0);
    const retry = { inputResponses: { confirm: elicit({ ok: true }) }, requestState: resultOf(r1).requestState };
    expect(await c.call("tools/call", tool("test_input_required_result_request_state", retry))).toEqual(complete(2, "state-ok"));
  });
});
