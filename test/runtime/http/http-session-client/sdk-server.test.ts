/**
 * The generated 2025-11-25 McpClient over the session HTTP client transport against the official
 * SDK 1.x server (McpServer + StreamableHTTPServerTransport with sessions, on node:http,
 * 127.0.0.1:0). What our side sends is recorded by a fetch wrapper (every HTTP request and its
 * JSON body); what the SDK handler saw is recorded on its side.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import * as R from "../../../generated/2025-11-25/index.js";
import { waitFor, within, type Call } from "./support.js";

const TEXT = (text: string) => ({ type: "text" as const, text });
const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "session-sdk-test", version: "1.0.0" } };

interface SdkSide {
  readonly url: string;
  /** The abort reason seen by the slow handler's signal, once it fired. */
  slowAborted: { reason: unknown } | undefined;
  slowStarted: boolean;
  /** The elicitation result the ask tool got. */
  elicited: unknown;
  close(): Promise<void>;
}

const servers: SdkSide[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** One SDK server with sessions on loopback: echo, ask (elicitation over the call's stream), slow (waits for its signal). */
async function startSdk(): Promise<SdkSide> {
  const mcp = new McpServer({ name: "sdk-session-server", version: "1.0.0" });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  const side: SdkSide = { url: "", slowAborted: undefined, slowStarted: false, elicited: undefined, close: async () => {} };
  mcp.registerTool("echo", { description: "answers at once" }, () => ({ content: [TEXT("echo from the SDK")] }));
  mcp.registerTool("ask", { description: "asks the user" }, async (extra) => {
    side.elicited = await extra.sendRequest(
      { method: "elicitation/create", params: { message: "Proceed?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } },
      ElicitResultSchema,
    );
    return { content: [TEXT(`elicited ${JSON.stringify(side.elicited)}`)] };
  });
  mcp.registerTool("slow", { description: "waits for its cancellation" }, async (extra) => {
    side.slowStarted = true;
    await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
    side.slowAborted = { reason: extra.signal.reason };
    return { content: [TEXT("too late")] };
  });
  await mcp.connect(transport);
  const http: Server = createServer((req, res) => {
    transport.handleRequest(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const result: SdkSide = Object.assign(side, {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await mcp.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  });
  servers.push(result);
  return result;
}

/** The global fetch, recording each HTTP request (method, lower-case headers, JSON body). */
function recordingFetch(): { fetch: R.FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const wrapped: R.FetchLike = (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const body = typeof init.body === "string" ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    calls.push({ method: init.method ?? "GET", headers, body, signal: init.signal ?? undefined });
    return fetch(input, init);
  };
  return { fetch: wrapped, calls };
}

async function connect(url: string, options: R.McpClientOptions = {}) {
  const { fetch, calls } = recordingFetch();
  const errors: Error[] = [];
  const events: R.CancellationEvent[] = [];
  const transport = R.createSessionHttpClientTransport({ url, fetch });
  const client = new R.McpClient({ logger: null, onError: (e) => errors.push(e), onCancellation: (e) => events.push(e), defaultTimeoutMs: 10_000, ...options });
  await client.connect(transport, { initialize: false });
  const initialized = await within("initialize", client.initialize(INITIALIZE));
  await within("initialized", client.notify("notifications/initialized"));
  return { client, transport, calls, errors, events, initialized };
}

describe("generated McpClient over the session HTTP transport ↔ SDK 1.x StreamableHTTPServerTransport", () => {
  it("initializes (a session), lists tools and calls one; session id and version on every later request; DELETE on close", async () => {
    const sdk = await startSdk();
    const { client, transport, calls, errors, initialized } = await connect(sdk.url);
    expect(initialized).toMatchObject({ protocolVersion: "2025-11-25", serverInfo: { name: "sdk-session-server" } });
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await within("tools/list", client.listTools());
    expect(tools.map((t) => t.name)).toEqual(["echo", "ask", "slow"]);
    expect(await within("tools/call", client.callTool({ name: "echo" }))).toEqual({ content: [TEXT("echo from the SDK")] });
    await within("close", client.close());

    expect(calls[0]!.headers["mcp-session-id"]).toBeUndefined();
    expect(calls[0]!.headers["mcp-protocol-version"]).toBeUndefined();
    for (const call of calls.slice(1)) {
      expect(call.headers, `${call.method} ${String(call.body?.["method"])}`).toMatchObject({ "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" });
    }
    expect(calls.map((c) => [c.method, c.body?.["method"]])).toEqual([
      ["POST", "initialize"],
      ["POST", "notifications/initialized"],
      ["GET", undefined],
      ["POST", "tools/list"],
      ["POST", "tools/call"],
      ["DELETE", undefined],
    ]);
    expect(errors).toEqual([]);
  });

  it("an elicitation/create on the call's SSE stream is answered by our handler, POSTed back, and the call completes", async () => {
    const sdk = await startSdk();
    const seen: unknown[] = [];
    const { client, calls, errors } = await connect(sdk.url, {
      handlers: {
        "elicitation/create": (params) => {
          seen.push(params);
          return { action: "accept", content: { ok: true } };
        },
      },
    });
    const result = await within("the ask call", client.callTool({ name: "ask" }));
    expect(result).toEqual({ content: [TEXT('elicited {"action":"accept","content":{"ok":true}}')] });
    expect(seen).toEqual([{ message: "Proceed?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } }]);
    const answer = calls.find((c) => c.body !== undefined && "result" in c.body);
    expect(answer?.body).toMatchObject({ jsonrpc: "2.0", result: { action: "accept", content: { ok: true } } });
    expect(sdk.elicited).toEqual({ action: "accept", content: { ok: true } });
    expect(errors).toEqual([]);
    await client.close();
  });

  it("cancel of a slow tools/call: exactly one notifications/cancelled on the wire, the SDK handler's signal aborts", async () => {
    const sdk = await startSdk();
    const { client, calls, events } = await connect(sdk.url);
    const controller = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the SDK handler to start", () => (sdk.slowStarted ? true : undefined));
    let cancelsAtDrop: number | undefined;
    calls.find((c) => c.body?.["method"] === "tools/call")!.signal!.addEventListener("abort", () => {
      cancelsAtDrop = calls.filter((c) => c.body?.["method"] === "notifications/cancelled").length;
    });
    controller.abort("user pressed stop");
    expect(await within("the call to reject", call)).toBeInstanceOf(R.RequestCancelledError);
    const aborted = await waitFor("the SDK handler's signal", () => sdk.slowAborted);
    expect(aborted.reason).toBe("user pressed stop");
    const posted = calls.find((c) => c.body?.["method"] === "tools/call")!;
    const cancels = calls.filter((c) => c.body?.["method"] === "notifications/cancelled").map((c) => c.body);
    expect(cancels).toEqual([{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: posted.body!["id"], reason: "user pressed stop" } }]);
    // The disconnect is not the cancel: the call's own fetch is aborted (its stream dropped, issue 28)
    // only once notifications/cancelled went out.
    expect(await waitFor("the call's stream to be dropped", () => cancelsAtDrop)).toBe(1);
    expect(posted.signal!.aborted).toBe(true);
    expect(events.filter((e) => e.type === "sent")).toHaveLength(1);
    await client.close();
  });
});
