/**
 * The official SDK v2 client (`@modelcontextprotocol/client` 2.4.0: Client pinned to 2026-07-28
 * over its StreamableHTTPClientTransport) against our generated 2026-07-28 McpServer behind
 * createHttpHandler on 127.0.0.1, on both faces of the handler (test/helpers/faces.ts), over real
 * HTTP:
 *   - a mid-stream abort: the SDK aborts its call after the first progress notification of our
 *     SSE stream; our handler's ctx.signal aborts, and nothing is written to that response after
 *     the client closed it (the handler still tries a progress notification and returns);
 *   - one MRTR round trip: our handler answers InputRequiredResult with an elicitation, the SDK
 *     client answers it through its elicitation/create handler and retries with inputResponses.
 * What our side wrote is recorded at the node:http response (each non-empty write, and whether
 * the connection had closed by then).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../generated/2026-07-28/index.js";
import { aborted as abortOf, deferred } from "../helpers/async.js";
import { describeFaces, listen, type Face } from "../helpers/faces.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const BOUND_MS = 10_000;
function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no outcome within ${BOUND_MS} ms`)), BOUND_MS)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Exchange {
  readonly method: string | undefined;
  readonly name: string | undefined;
  /** The response's non-empty writes: text, and whether the client had closed the connection. */
  readonly writes: { text: string; afterClose: boolean }[];
  closed: boolean;
}

/** Our 2026-07-28 server on loopback; every POST and what was written back, recorded. */
async function ourServer(face: Face, handlers: R.McpServerOptions["handlers"]): Promise<{ url: string; exchanges: Exchange[]; events: R.CancellationEvent[] }> {
  const events: R.CancellationEvent[] = [];
  const server = new R.McpServer({ serverInfo: { name: "ours", version: "1.0.0" }, logger: null, onCancellation: (e) => events.push(e), handlers });
  const exchanges: Exchange[] = [];
  const wrap = (listener: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => {
    const exchange: Exchange = { method: header(req.headers["mcp-method"]), name: header(req.headers["mcp-name"]), writes: [], closed: false };
    exchanges.push(exchange);
    res.on("close", () => (exchange.closed = true));
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
    const record = (chunk: unknown) => {
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : "";
      if (text !== "") exchange.writes.push({ text, afterClose: exchange.closed });
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => (record(chunk), write(chunk, ...rest))) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => (typeof chunk === "function" ? undefined : record(chunk), end(chunk, ...rest))) as typeof res.end;
    listener(req, res);
  };
  const served = await listen(face, R.createHttpHandler(server), { wrap });
  closers.push(() => served.close());
  return { url: served.url, exchanges, events };
}

const header = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

async function sdkClient(url: string, withElicitation = false): Promise<Client> {
  const client = new Client(
    { name: "sdk-v2-client", version: "2.4.0" },
    { capabilities: withElicitation ? { elicitation: {} } : {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  if (withElicitation) {
    client.setRequestHandler("elicitation/create", async (request) => ({
      action: "accept",
      content: { name: request.params.message === "Name?" ? "Ada" : "?" },
    }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  closers.push(() => client.close());
  return client;
}

describeFaces("SDK v2 client ↔ our 2026-07-28 HTTP server", (face) => {
  it("a mid-stream abort: our handler's signal aborts, nothing is written after the stream closed", async () => {
    const started = deferred<AbortSignal>();
    const after = deferred<void>();
    const { url, exchanges, events } = await ourServer(face, {
      "tools/call": async (_params, ctx) => {
        await ctx.sendProgress(1, 2, "half way");
        started.resolve(ctx.signal);
        await abortOf(ctx.signal);
        // Too late: the runtime drops both, the client's stream being closed.
        await ctx.sendProgress(2, 2, "after the abort").catch(() => {});
        after.resolve();
        return { resultType: "complete", content: [{ type: "text", text: "too late" }] };
      },
    });
    const client = await sdkClient(url);
    const stop = new AbortController();
    const call = client
      .callTool({ name: "slow", arguments: {} }, { signal: stop.signal, onprogress: () => stop.abort("user pressed stop") })
      .then(
        () => "resolved",
        (e: unknown) => e,
      );
    const signal = await bounded(started.promise, "the handler");
    const outcome = await bounded(call, "the SDK call");
    expect(outcome).not.toBe("resolved");
    await bounded(abortOf(signal), "the handler's signal");
    await bounded(after.promise, "the handler's return");
    const slow = exchanges.find((e) => e.method === "tools/call" && e.name === "slow");
    expect(slow).toBeDefined();
    // The progress notification went out on the SSE stream; nothing after the close, no result.
    expect(slow!.writes.some((w) => w.text.includes('"half way"'))).toBe(true);
    expect(slow!.writes.filter((w) => w.afterClose)).toEqual([]);
    expect(slow!.writes.some((w) => w.text.includes("too late") || w.text.includes("after the abort"))).toBe(false);
    expect(events).toContainEqual(expect.objectContaining({ type: "received", method: "tools/call" }));
    // The SDK's cancel is the closed stream too: no notifications/cancelled POSTed.
    expect(exchanges.map((e) => e.method)).toEqual(["server/discover", "tools/call"]);
  });

  it("one MRTR round trip: our InputRequiredResult answered by the SDK client's elicitation handler", async () => {
    const retries: unknown[] = [];
    const { url, exchanges } = await ourServer(face, {
      "tools/call": (params, ctx) => {
        const who = { who: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } } satisfies R.InputRequests;
        const answers = ctx.input.responses(who);
        if (answers === undefined) return ctx.input.required(who, { state: { round: 1 } });
        retries.push({ state: ctx.input.state(), answer: answers.who });
        return { resultType: "complete", content: [{ type: "text", text: `hello ${String(answers.who.content?.["name"])} (${params.name})` }] };
      },
    });
    const client = await sdkClient(url, true);
    const result = await bounded(client.callTool({ name: "greet", arguments: {} }), "the SDK call");
    expect(result.content).toEqual([{ type: "text", text: "hello Ada (greet)" }]);
    expect(retries).toEqual([{ state: { round: 1 }, answer: { action: "accept", content: { name: "Ada" } } }]);
    expect(exchanges.filter((e) => e.method === "tools/call").map((e) => e.name)).toEqual(["greet", "greet"]);
  });
});
