/**
 * The MCP server the host pages proxy the apps' tool calls to: a generated server of every era
 * (out/every-era, the output the examples use, so the example app registers on it as on the
 * everything-server; the official client in the page opens a 2025-11-25 session, our generated
 * client speaks 2026-07-28), served over real HTTP by the native node:http face at /mcp of the
 * host's origin. It records what its handlers saw, for the tests to assert on:
 *
 * - `add` answers a + b (text and structuredContent);
 * - `wait` answers only when its ctx.signal aborts, the proof that a cancel in the app reached
 *   the server's handler;
 * - the example app (examples/apps/dice): `roll_dice` and its UI resource, as the
 *   everything-server registers them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toNodeListener } from "../../../out/2026-07-28/index.js";
import { McpServers } from "../../../out/every-era/index.js";
import { registerDiceApp } from "../../../examples/apps/dice/server.js";

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

export interface AppsTestServer {
  /** The node:http listener of /mcp. */
  readonly listener: Listener;
  /** Every `add` call's arguments, in order. */
  readonly adds: Array<{ a: number; b: number }>;
  /** Resolves when the next `wait` call has started (call before triggering it). */
  nextWait(): { started: Promise<void>; aborted: Promise<string> };
  close(): Promise<void>;
}

const ADD_INPUT = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } },
  required: ["a", "b"],
} as const;

/** A new server (one per test file; its records start empty). */
export function startAppsTestServer(): AppsTestServer {
  const servers = new McpServers({ serverInfo: { name: "apps-browser-test", version: "1.0.0" } });
  const adds: Array<{ a: number; b: number }> = [];
  const waits: Array<{ started: () => void; aborted: (reason: string) => void }> = [];
  servers.registerTool("add", { description: "a + b", inputSchema: ADD_INPUT }, ({ a, b }) => {
    adds.push({ a, b });
    return { content: [{ type: "text", text: String(a + b) }] };
  });
  servers.registerTool("wait", { description: "answers when cancelled" }, (_args, ctx) => {
    const waiter = waits.shift();
    waiter?.started();
    return new Promise((resolve) => {
      ctx.signal.addEventListener("abort", () => {
        waiter?.aborted(String(ctx.signal.reason));
        resolve({ content: [{ type: "text", text: "cancelled" }], isError: true });
      });
    });
  });
  registerDiceApp(servers);
  const handler = servers.createHttpHandler({ path: "/mcp" });
  return {
    listener: toNodeListener(handler) as unknown as Listener,
    adds,
    nextWait() {
      let started!: () => void;
      let aborted!: (reason: string) => void;
      const result = { started: new Promise<void>((resolve) => (started = resolve)), aborted: new Promise<string>((resolve) => (aborted = resolve)) };
      waits.push({ started, aborted });
      return result;
    },
    async close() {
      await handler.close();
      await servers.close();
    },
  };
}
