/**
 * A handler's ctx (endpoint.ts #context, #run) at the wire: sendProgress sends exactly the
 * fields given, with a string or number token only, and nothing once the request is over
 * (answered, cancelled, even when the peer reuses the id); ctx.request does not hand the
 * handler's signal to a task-augmented request (which notifications/cancelled may not cancel);
 * a handler's result that is not an object is answered as `{}`.
 */
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../../generated/2025-11-25/index.js";
import { aborted, cancelled, deferred, serverWithRawPeer, settle } from "../../../helpers/harness.js";

const call = (id: string | number, extra: object = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", ...extra } });
const progressSent = (sent: JsonRpcMessage[]) => sent.filter((m) => "method" in m && m.method === "notifications/progress");

describe("ctx.sendProgress", () => {
  it("with a number token sends only the fields it is given", async () => {
    const { server, wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": async (_params, ctx) => {
          await ctx.sendProgress(1);
          await ctx.sendProgress(2, undefined, "two");
          await ctx.sendProgress(3, 4);
          return { content: [] };
        },
      },
    });
    await peer.send(call(1, { _meta: { progressToken: 5 } }));
    await settle();
    const progress = progressSent(wire.sent).map((m) => ("params" in m ? m.params : undefined));
    // Key for key: an absent total or message is no key at all, not one set to undefined.
    expect(progress.map((p) => Object.keys(p ?? {}))).toEqual([
      ["progressToken", "progress"],
      ["progressToken", "progress", "message"],
      ["progressToken", "progress", "total"],
    ]);
    expect(progress).toEqual([
      { progressToken: 5, progress: 1 },
      { progressToken: 5, progress: 2, message: "two" },
      { progressToken: 5, progress: 3, total: 4 },
    ]);
    expect(wire.responsesTo(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [] } }]);
    await server.close();
  });

  it.each([
    ["true", true],
    ["an object", { id: 5 }],
    ["null", null],
  ])("is a no-op when the token is %s (with validation off: the schema's ProgressToken is a string or an integer)", async (_name, progressToken) => {
    const { server, wire, peer } = await serverWithRawPeer({
      validate: false,
      handlers: {
        "tools/call": async (_params, ctx) => {
          await ctx.sendProgress(1, 2, "half");
          return { content: [] };
        },
      },
    });
    await peer.send(call(1, { _meta: { progressToken } }));
    await settle();
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [] } }]);
    await server.close();
  });

  it("a token that is not a string or an integer never reaches a handler: -32602 naming the pointer (validation on)", async () => {
    let ran = false;
    const { server, wire, peer } = await serverWithRawPeer({ handlers: { "tools/call": () => ((ran = true), { content: [] }) } });
    await peer.send(call(1, { _meta: { progressToken: true } }));
    await settle();
    expect(ran).toBe(false);
    expect(wire.sent).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        error: {
          code: -32602,
          message: "Invalid params: tools/call params /_meta/progressToken: expected a string or an integer, got true",
          data: { pointer: "/_meta/progressToken", expected: "a string or an integer" },
        },
      },
    ]);
    await server.close();
  });

  it("sends nothing once the request is answered", async () => {
    let kept: { sendProgress(progress: number, total?: number): Promise<void> } | undefined;
    const { server, wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": (_params, ctx) => {
          kept = ctx;
          return { content: [] };
        },
      },
    });
    await peer.send(call(1, { _meta: { progressToken: "tok" } }));
    await settle();
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [] } }]);
    await expect(kept?.sendProgress(1, 2)).resolves.toBeUndefined();
    await settle();
    expect(wire.sent).toHaveLength(1);
    await server.close();
  });

  it("sends nothing from a cancelled handler, even when the peer has reused its id for a new request", async () => {
    const first = deferred<AbortSignal>();
    const late = deferred();
    const reported = deferred<unknown>();
    const { server, wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": async (params, ctx) => {
          if (params.name === "old") {
            first.resolve(ctx.signal);
            await aborted(ctx.signal);
            await late.promise;
            reported.resolve(await ctx.sendProgress(1, 2, "old"));
            return { content: [] };
          }
          await late.promise;
          return { content: [{ type: "text", text: "new" }] };
        },
      },
    });
    await peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "old", _meta: { progressToken: "old" } } });
    await first.promise;
    await peer.send(cancelled(7, "stop"));
    await settle();
    // The peer reuses id 7 (allowed once the first one is over); the old handler tries to report.
    await peer.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "new", _meta: { progressToken: "new" } } });
    await settle();
    late.resolve();
    expect(await reported.promise).toBeUndefined();
    await settle();
    expect(progressSent(wire.sent)).toEqual([]);
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", id: 7, result: { content: [{ type: "text", text: "new" }] } }]);
    await server.close();
  });
});

describe("ctx.request", () => {
  it("does not give a task-augmented request the handler's signal: it goes out and its result comes back", async () => {
    const { server, wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": async (_params, ctx) => {
          const created = await ctx.request(
            "sampling/createMessage",
            // The typed ctx.request leaves `task` out (tasks have their own API); the endpoint beneath takes it.
            { messages: [], maxTokens: 1, task: { ttl: 60_000 } } as never,
            { timeoutMs: 10_000 },
          );
          return { content: [{ type: "text", text: JSON.stringify(created) }] };
        },
      },
    });
    await peer.send(call(1));
    await settle();
    const sampling = peer.requests("sampling/createMessage");
    expect(sampling).toEqual([{ jsonrpc: "2.0", id: 1, method: "sampling/createMessage", params: { messages: [], maxTokens: 1, task: { ttl: 60_000 } } }]);
    const task = { taskId: "t1", status: "working", createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: 60_000 };
    await peer.send({ jsonrpc: "2.0", id: 1, result: { task } });
    await settle();
    expect(wire.responsesTo(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: JSON.stringify({ task }) }] } }]);
    await server.close();
  });
  it("a request given its own signal keeps it: cancelling the handler does not cancel that request", async () => {
    const own = new AbortController();
    const nested = deferred<unknown>();
    const { server, wire, peer } = await serverWithRawPeer({
      handlers: {
        "tools/call": async (_params, ctx) => {
          nested.resolve(await ctx.request("roots/list", undefined, { signal: own.signal, timeoutMs: 10_000 }).catch((e: unknown) => e));
          return { content: [] };
        },
      },
    });
    await peer.send(call(1));
    await settle();
    expect(peer.requests("roots/list")).toEqual([{ jsonrpc: "2.0", id: 1, method: "roots/list" }]);
    await peer.send(cancelled(1, "stop"));
    await settle();
    expect(wire.cancels()).toEqual([]);
    await peer.send({ jsonrpc: "2.0", id: 1, result: { roots: [] } });
    expect(await nested.promise).toEqual({ roots: [] });
    await server.close();
  });
});

describe("a handler's result", () => {
  it.each([
    ["undefined", undefined],
    ["a string", "done"],
    ["an array", [1, 2]],
    ["null", null],
  ])("that is %s is answered as an empty result", async (_name, value) => {
    const { server, wire, peer } = await serverWithRawPeer({
      handlers: { "tools/call": () => value as never },
    });
    await peer.send(call(1));
    await settle();
    expect(wire.sent).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    await server.close();
  });
});
