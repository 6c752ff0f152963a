/**
 * Interop of the session server: the generated 2025-11-25 McpClient over our session client
 * transport (calls, the server's requests, cancellation, a GET stream broken and resumed, a
 * request stream closed early and resumed, DELETE on close), and the official SDK 1.32 client
 * (StreamableHTTPClientTransport), all over node:http on loopback, on both faces of the handler.
 */
import { afterEach, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import * as R from "../../../generated/2025-11-25/index.js";
import { aborted, deferred, serve, text, waitFor, within, type Served, describeFaces } from "./support.js";

let served: Served | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
  await served?.close();
  served = undefined;
});

const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "interop", version: "1.0.0" } };

interface Side {
  started: AbortSignal[];
  gate: ReturnType<typeof deferred<void>>;
  requestIds: R.RequestId[];
}

/** Tools: echo; ask (elicitation on the call's stream); slow (waits for its signal); two-step (logs, waits for the gate, answers). */
function tools(side: Side): R.McpServerOptions {
  return {
    handlers: {
      "tools/list": () => ({ tools: ["echo", "ask", "slow", "two-step"].map((name) => ({ name, inputSchema: { type: "object" as const } })) }),
      "tools/call": async (params, ctx) => {
        side.started.push(ctx.signal);
        side.requestIds.push(ctx.requestId);
        switch (params.name) {
          case "ask": {
            const answer = await ctx.request("elicitation/create", { mode: "form", message: "Proceed?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } });
            return text(`elicited ${JSON.stringify(answer)}`);
          }
          case "slow":
            await aborted(ctx.signal);
            return text("too late");
          case "two-step":
            await ctx.notify("notifications/message", { level: "info", data: "one" });
            await side.gate.promise;
            return text("two-step done");
          default:
            return text(`echo ${JSON.stringify(params.arguments ?? {})}`);
        }
      },
    },
  };
}

async function ourClient(url: string, options: R.McpClientOptions = {}) {
  const errors: Error[] = [];
  const transport = R.createSessionHttpClientTransport({ url, reconnect: { defaultRetryMs: 10, maxAttempts: 5 } });
  const client = new R.McpClient({ logger: null, onError: (e) => errors.push(e), defaultTimeoutMs: 10_000, ...options });
  await client.connect(transport, { initialize: false });
  closers.push(() => client.close());
  await within("initialize", client.initialize(INITIALIZE));
  await within("initialized", client.notify("notifications/initialized"));
  return { client, transport, errors };
}

const newSide = (): Side => ({ started: [], gate: deferred<void>(), requestIds: [] });

describeFaces("our session client ↔ our session server", (face) => {
  it("calls, an elicitation answered over the call's stream, a cancel that aborts the handler, DELETE on close", async () => {
    const side = newSide();
    served = await serve(face, tools(side), { retryMs: 10 });
    const { client, transport, errors } = await ourClient(served.url, {
      handlers: { "elicitation/create": () => ({ action: "accept", content: { ok: true } }) },
    });
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await within("tools/list", client.listTools())).tools.map((t) => t.name)).toEqual(["echo", "ask", "slow", "two-step"]);
    expect(await within("echo", client.callTool({ name: "echo", arguments: { a: 1 } }))).toEqual(text('echo {"a":1}'));
    expect(await within("ask", client.callTool({ name: "ask" }))).toEqual(text('elicited {"action":"accept","content":{"ok":true}}'));
    const controller = new AbortController();
    const slow = client.callTool({ name: "slow" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the slow handler", () => side.started[2]);
    controller.abort("stop");
    expect(await within("the cancelled call", slow)).toBeInstanceOf(R.RequestCancelledError);
    expect(await within("the handler's abort", aborted(side.started[2]!))).toBe("stop");
    expect(served.handler.sessionCount).toBe(1);
    await within("close", client.close());
    await waitFor("DELETE ends the session", () => (served!.handler.sessionCount === 0 ? true : undefined));
    expect(errors).toEqual([]);
  });

  it("a GET stream that breaks is resumed with Last-Event-ID: what the server sent meanwhile arrives, and what it sends after", async () => {
    served = await serve(face, tools(newSide()), { retryMs: 10 });
    const heard: string[] = [];
    const { transport } = await ourClient(served.url, {
      notificationHandlers: {
        "notifications/tools/list_changed": () => void heard.push("tools"),
        "notifications/prompts/list_changed": () => void heard.push("prompts"),
        "notifications/resources/list_changed": () => void heard.push("resources"),
      },
    });
    const sessionId = transport.sessionId!;
    await waitFor("the GET stream opens", () => served!.getSockets[0]);
    // Whether the notification went on the stream or only into the store, it arrives (the test waits for it).
    served.handler.notify(sessionId, "notifications/tools/list_changed");
    await waitFor("the first notification", () => (heard.length === 1 ? true : undefined));
    served.getSockets[0]!.destroy();
    await waitFor("the server sees the stream break", () => (served!.gone.count > 0 ? true : undefined));
    served.handler.notify(sessionId, "notifications/prompts/list_changed");
    await waitFor("the client resumes", () => served!.getSockets[1]);
    await waitFor("the notification sent while it was away", () => (heard.length === 2 ? true : undefined));
    served.handler.notify(sessionId, "notifications/resources/list_changed");
    await waitFor("the one sent after", () => (heard.length === 3 ? true : undefined));
    expect(heard).toEqual(["tools", "prompts", "resources"]);
  });

  it("a request stream the server closes early (polling) is resumed by the client, and the call completes", async () => {
    const side = newSide();
    served = await serve(face, tools(side), { retryMs: 10 });
    const { client, transport } = await ourClient(served.url);
    const call = client.callTool({ name: "two-step" });
    await waitFor("the handler starts", () => side.requestIds[0]);
    await waitFor("the stream is open", () => (served!.handler.closeStream(transport.sessionId!, side.requestIds[0]!) ? true : undefined));
    await waitFor("the client resumes", () => served!.getSockets.find((_s, i) => i > 0));
    side.gate.resolve();
    expect(await within("the call", call)).toEqual(text("two-step done"));
  });
});

describeFaces("SDK 1.32 client ↔ our session server", (face) => {
  it("connects (a session), lists and calls tools, answers an elicitation, hears the GET stream, and terminates the session", async () => {
    served = await serve(face, tools(newSide()), { retryMs: 10 });
    const client = new Client({ name: "sdk-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { ok: true } }));
    const listChanged = deferred<void>();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => listChanged.resolve());
    const transport = new StreamableHTTPClientTransport(new URL(served.url));
    closers.push(() => client.close());
    await within("connect", client.connect(transport));
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerVersion()).toBeDefined();
    expect((await within("listTools", client.listTools())).tools.map((t) => t.name)).toEqual(["echo", "ask", "slow", "two-step"]);
    expect(await within("callTool", client.callTool({ name: "echo", arguments: { b: 2 } }))).toMatchObject(text('echo {"b":2}'));
    expect(await within("ask", client.callTool({ name: "ask" }))).toMatchObject(text('elicited {"action":"accept","content":{"ok":true}}'));
    await waitFor("the SDK's GET stream", () => served!.getSockets[0]);
    served.handler.notify(transport.sessionId!, "notifications/tools/list_changed");
    await within("list_changed on the GET stream", listChanged.promise);
    await within("terminateSession", transport.terminateSession());
    expect(served.handler.sessionCount).toBe(0);
  });
});
