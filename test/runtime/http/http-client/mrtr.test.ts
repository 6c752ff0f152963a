/**
 * Multi round-trip requests on the client (2026-07-28, basic/patterns/mrtr, Client Requirements),
 * over HTTP against our own server (createHttpHandler on both faces: native node:http and
 * web-standard, test/helpers/faces.ts): an InputRequiredResult is answered through the client's
 * handlers and the request retried with a new id, inputResponses and the exact requestState;
 * rounds are bounded; aborting stops everything (the handlers' ctx.signal aborts, no retry goes
 * out); the timeout covers all rounds; `returnInputRequired` hands the raw result back.
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { abortOf, deferred, describeFaces, serve, type Face, type Served } from "../stateless/support.js";
import { within } from "../../../interop/support.js";
import { connectClient } from "./support.js";

const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.close();
});

const form = { message: "Name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };
const CAPABILITIES = { elicitation: {}, roots: {} };

/** tools/call "ask": round 1 elicits a name, round 2 lists roots, then answers; "always" asks forever. */
async function mrtrServer(face: Face): Promise<Served> {
  const s = await serve(face, {
    handlers: {
      "tools/call": async (params, ctx) => {
        if (params.name === "always") return ctx.input.required({ again: { method: "roots/list" } });
        const state = ctx.input.state<{ step: number; name?: string }>();
        const where = { where: { method: "roots/list" } } satisfies R.InputRequests;
        if (state?.step === 2) {
          const rooted = ctx.input.responses(where);
          if (rooted === undefined) return ctx.input.required(where, { state });
          return { resultType: "complete", content: [{ type: "text", text: `${state.name} at ${rooted.where.roots.map((r) => r.uri).join(",")}` }] };
        }
        const who = { who: { method: "elicitation/create", params: form } } satisfies R.InputRequests;
        const named = ctx.input.responses(who);
        if (named === undefined) return ctx.input.required(who, { state: { step: 1 } });
        return ctx.input.required(where, { state: { step: 2, name: String(named.who.content?.["name"]) } });
      },
    },
  });
  served.push(s);
  return s;
}

const handlers: NonNullable<R.McpClientOptions["handlers"]> = {
  "elicitation/create": () => ({ action: "accept", content: { name: "Ada" } }),
  "roots/list": () => ({ roots: [{ uri: "file:///work" }] }),
};

describeFaces("McpClient: InputRequiredResult over HTTP", (face) => {
  it("answers each round through its handlers and retries with inputResponses and requestState", async () => {
    const s = await mrtrServer(face);
    const { client, posted, errors } = await connectClient(s.url, { capabilities: CAPABILITIES, handlers });
    const result = await client.callTool({ name: "ask", arguments: { x: 1 } });
    expect(result).toEqual({
      resultType: "complete",
      content: [{ type: "text", text: "Ada at file:///work" }],
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "http-fixture", version: "1.0.0" } },
    });
    const bodies = posted.map((p) => p.body as { id: number; method: string; params: Record<string, unknown> });
    expect(bodies.map((b) => b.method)).toEqual(["tools/call", "tools/call", "tools/call"]);
    expect(new Set(bodies.map((b) => b.id)).size).toBe(3);
    expect(bodies[0]!.params["inputResponses"]).toBeUndefined();
    expect(bodies[0]!.params["requestState"]).toBeUndefined();
    expect(bodies[1]!.params).toMatchObject({ name: "ask", arguments: { x: 1 }, inputResponses: { who: { action: "accept", content: { name: "Ada" } } } });
    expect(bodies[2]!.params).toMatchObject({ name: "ask", arguments: { x: 1 }, inputResponses: { where: { roots: [{ uri: "file:///work" }] } } });
    // Each retry carries only this round's answers, and the state exactly as the server sent it.
    expect(bodies[2]!.params["inputResponses"]).not.toHaveProperty("who");
    expect(typeof bodies[1]!.params["requestState"]).toBe("string");
    expect(bodies[2]!.params["requestState"]).not.toBe(bodies[1]!.params["requestState"]);
    expect(posted.every((p) => p.headers["mcp-name"] === "ask")).toBe(true);
    expect(errors).toEqual([]);
    await client.close();
  });

  it("aborting while an input handler runs aborts its ctx.signal and sends no retry", async () => {
    const s = await mrtrServer(face);
    const asked = deferred<AbortSignal>();
    const { client, posted } = await connectClient(s.url, {
      capabilities: CAPABILITIES,
      handlers: {
        "elicitation/create": async (_params, ctx) => {
          asked.resolve(ctx.signal);
          await abortOf(ctx.signal);
          return { action: "cancel" };
        },
      },
    });
    const stop = new AbortController();
    const call = client.callTool({ name: "ask", arguments: {} }, { signal: stop.signal }).catch((e: unknown) => e);
    const handlerSignal = await asked.promise;
    stop.abort("user closed the dialog");
    const error = await call;
    expect(error).toBeInstanceOf(R.RequestCancelledError);
    expect((error as R.RequestCancelledError).reason).toBe("user closed the dialog");
    expect(await abortOf(handlerSignal)).toBe("user closed the dialog");
    // The call has settled, so no retry can follow; a next request's POST comes right after the
    // first (this server has no tools/list: its -32601 is answer enough).
    await client.listTools({}).catch(() => {});
    expect(posted.map((p) => p.body["method"])).toEqual(["tools/call", "tools/list"]);
    await client.close();
  });

  it("the timeout covers all rounds, the handlers' time included", async () => {
    const s = await mrtrServer(face);
    const asked = deferred<AbortSignal>();
    const { client } = await connectClient(s.url, {
      capabilities: CAPABILITIES,
      handlers: { "elicitation/create": (_p, ctx) => (asked.resolve(ctx.signal), new Promise<never>(() => {})) },
    });
    // Long enough for round 1 to reach the handler on a loaded machine; if it does not, the
    // bounded wait below fails with a message instead of hanging until vitest's timeout.
    const error = await client.callTool({ name: "ask", arguments: {} }, { timeoutMs: 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.RequestTimeoutError);
    expect((error as R.RequestTimeoutError).timeoutMs).toBe(1_000);
    expect((await within("the elicitation handler of round 1", asked.promise, 5_000)).aborted).toBe(true);
    await client.close();
  });

  it("rounds are bounded by maxInputRounds; an input without a handler is refused; returnInputRequired hands the result back", async () => {
    const s = await mrtrServer(face);
    const bounded = await connectClient(s.url, { capabilities: CAPABILITIES, handlers, maxInputRounds: 2 });
    const error = await bounded.client.callTool({ name: "always", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.InputRequiredError);
    expect((error as R.InputRequiredError).why).toBe("rounds");
    expect((error as R.InputRequiredError).result).toMatchObject({ resultType: "input_required", inputRequests: { again: { method: "roots/list" } } });
    expect(bounded.posted).toHaveLength(3);
    await bounded.client.close();

    const none = await connectClient(s.url, { capabilities: CAPABILITIES });
    const refused = await none.client.callTool({ name: "ask", arguments: {} }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(R.InputRequiredError);
    expect((refused as R.InputRequiredError).why).toBe("no-handler");
    await none.client.close();

    const raw = await connectClient(s.url, { capabilities: CAPABILITIES, handlers, returnInputRequired: true });
    await expect(raw.client.callTool({ name: "ask", arguments: {} })).resolves.toMatchObject({ resultType: "input_required", inputRequests: { who: { method: "elicitation/create" } } });
    expect(raw.posted).toHaveLength(1);
    await raw.client.close();
  });

  it("a call's maxInputRounds and returnInputRequired replace the client's, for that call only", async () => {
    const s = await mrtrServer(face);
    const { client, posted } = await connectClient(s.url, { capabilities: CAPABILITIES, handlers, maxInputRounds: 5 });
    // maxInputRounds: 1 on the call: one retry, then InputRequiredError (the client allows 5).
    const error = await client.callTool({ name: "always", arguments: {} }, { maxInputRounds: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.InputRequiredError);
    expect((error as R.InputRequiredError).why).toBe("rounds");
    expect(posted).toHaveLength(2);
    // returnInputRequired: true on the call: the raw result, one POST, no handler asked.
    await expect(client.callTool({ name: "ask", arguments: {} }, { returnInputRequired: true })).resolves.toMatchObject({
      resultType: "input_required",
      inputRequests: { who: { method: "elicitation/create" } },
    });
    expect(posted).toHaveLength(3);
    // The next call without options follows the client's own settings again (two retries).
    await expect(client.callTool({ name: "ask", arguments: {} })).resolves.toMatchObject({ content: [{ type: "text", text: "Ada at file:///work" }] });
    expect(posted).toHaveLength(6);
    // An invalid bound is a usage error: nothing is sent.
    await expect(client.callTool({ name: "ask", arguments: {} }, { maxInputRounds: -1 })).rejects.toBeInstanceOf(RangeError);
    expect(posted).toHaveLength(6);
    await client.close();

    // returnInputRequired: false on the call answers the rounds of a client that returns them.
    const raw = await connectClient(s.url, { capabilities: CAPABILITIES, handlers, returnInputRequired: true });
    await expect(raw.client.callTool({ name: "ask", arguments: {} }, { returnInputRequired: false })).resolves.toMatchObject({
      content: [{ type: "text", text: "Ada at file:///work" }],
    });
    expect(raw.posted.map((p) => p.body["params"] !== undefined && "inputResponses" in (p.body["params"] as object))).toEqual([false, true, true]);
    await raw.client.close();
  });
});
