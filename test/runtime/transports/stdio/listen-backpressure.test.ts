/**
 * stdio already waits for its reader (issue 28, item 1, verified): a subscriptions/listen stream
 * served over StdioTransport to a real child process that never reads its stdin. The pipe
 * fills, sends wait for "drain", and the hub coalesces what is published meanwhile, so 200,000
 * publishes grow the heap by a few MiB at most. A bound on growth, never a time.
 */
import { spawn } from "node:child_process";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { StdioTransport } from "../../../generated/2026-07-28/stdio.js";
import { TOOLS_AND_RESOURCES } from "../../../subscriptions/support.js";
import { MiB, retained } from "../../retained.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

describe("a listen stream over stdio whose reader never reads", () => {
  it("waits for the pipe: the hub coalesces 200,000 publishes and the heap stays bounded", async () => {
    // A peer that keeps its stdin open and never reads it.
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: ["pipe", "ignore", "ignore"] });
    cleanup.push(() => child.kill());
    child.stdin.on("error", () => undefined);
    const ends: R.SubscriptionEndEvent[] = [];
    const hub = new R.Subscriptions({ onEnd: (event) => ends.push(event) });
    const server = new R.McpServer({ logger: null, handlers: TOOLS_AND_RESOURCES, subscriptions: hub });
    const input = new PassThrough();
    await server.connect(new StdioTransport({ input, output: child.stdin }));
    cleanup.push(() => void server.close());
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { _meta: META, notifications: { toolsListChanged: true } } })}\n`);
    while (hub.size === 0) await turn();
    for (let i = 0; i < 20_000; i++) {
      hub.publish("notifications/tools/list_changed");
      await turn();
    }
    const before = retained();
    for (let i = 0; i < 200_000; i++) {
      hub.publish("notifications/tools/list_changed");
      await turn();
    }
    expect(retained() - before).toBeLessThan(4 * MiB);
    expect(hub.queued).toBe(1);
    expect(ends).toEqual([]);
  });
});
