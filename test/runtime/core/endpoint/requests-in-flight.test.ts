/**
 * maxRequestsInFlight (core/endpoint-contract.ts, core/endpoint.ts #begin): a peer cannot grow a
 * connection without bound by sending requests whose handlers wait. At the wire, over a real stdio
 * child process and in memory: past the bound a request is answered -32603 naming the option and
 * nothing of it runs; ping is still answered; a cancel frees a place; a batch's requests are
 * counted one by one. The server's tools (core/batch/child.ts): "slow" answers only when
 * cancelled (never: a cancelled request gets no response), "echo" answers its text.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../../../generator/project.js";
import * as R0326 from "../../../generated/2025-03-26/index.js";
import { batchServerOptions, call, cancel, INITIALIZE, memoryPeer, notification, request, stdioPeer, type Peer } from "../batch/support.js";

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

const full = (id: number, max: number) => JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: `${max} requests are in flight on this connection (maxRequestsInFlight)` } });
const echoed = (id: number, text: string) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } });

async function initialized(p: Peer): Promise<Peer> {
  p.send(INITIALIZE);
  expect(JSON.parse(await p.next())).toMatchObject({ id: 0, result: { protocolVersion: "2025-03-26" } });
  p.send(notification("notifications/initialized"));
  return p;
}

describe.each([
  ["a stdio child process", stdioPeer],
  ["in memory", memoryPeer],
] as const)("maxRequestsInFlight (default 1024), %s", (_face, open) => {
  it("1024 waiting calls fill the connection: the next call is refused with -32603 naming the option, ping is answered, a cancel frees a place", async () => {
    const p = await initialized((peer = await open("2025-03-26")));
    for (let id = 1; id <= 1024; id++) p.send(call(id, "slow"));
    p.send(call(2000, "echo", "refused"));
    expect(await p.next()).toBe(full(2000, 1024));
    p.send(request(2001, "ping"));
    expect(await p.next()).toBe(JSON.stringify({ jsonrpc: "2.0", id: 2001, result: {} }));
    // A cancelled call leaves at once and sends nothing; its place is free for the next one.
    p.send(cancel(1));
    p.send(call(2002, "echo", "served"));
    expect(await p.next()).toBe(echoed(2002, "served"));
    // Full again (2002 answered, so 1023 + this one): and refused again past it.
    p.send(call(2003, "slow"));
    p.send(call(2004, "echo", "refused"));
    expect(await p.next()).toBe(full(2004, 1024));
  });
});

describe("maxRequestsInFlight set on the server, in memory", () => {
  it("a batch's requests count one by one: those past the bound are refused inside the batch's answer, the others run", async () => {
    const R = R0326;
    const [mine, theirs] = R.createInMemoryTransportPair();
    const server = new R.McpServer({ ...(batchServerOptions() as object), maxRequestsInFlight: 2 } as never);
    await server.connect(theirs);
    const wire: string[] = [];
    mine.onmessage = (message) => wire.push(JSON.stringify(message));
    await mine.start();
    await mine.send(INITIALIZE as never);
    await mine.send(notification("notifications/initialized") as never);
    await new Promise((resolve) => setTimeout(resolve, 10));
    wire.length = 0;
    await mine.send([call(1, "slow"), call(2, "slow"), call(3, "echo", "third"), request(4, "ping")] as never);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The batch waits for its two slow calls; cancelling them releases the rest of its answer.
    expect(wire).toEqual([]);
    await mine.send(cancel(1) as never);
    await mine.send(cancel(2) as never);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(wire).toEqual([JSON.stringify([JSON.parse(full(3, 2)), { jsonrpc: "2.0", id: 4, result: {} }])]);
    await server.close();
  });

  it("is checked where it is read: 0, a fraction or a negative number is a RangeError naming it; Infinity is no bound", () => {
    for (const bad of [0, 1.5, -1, Number.NaN]) {
      expect(() => new R0326.McpServer({ logger: null, maxRequestsInFlight: bad })).toThrow(/^maxRequestsInFlight must be/);
    }
    expect(() => new R0326.McpServer({ logger: null, maxRequestsInFlight: Number.POSITIVE_INFINITY })).not.toThrow();
  });
});

describe("maxRequestsInFlight against a flood from a peer that stops reading (a real stdio child)", () => {
  it("1024 waiting calls, then 100,000 more while nothing is read: every one refused, the answers held within maxQueuedBytes, the child alive and answering once read again", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", join(PACKAGE_ROOT, "test", "runtime", "core", "batch", "child.ts"), "2025-03-26"], { cwd: PACKAGE_ROOT, stdio: ["pipe", "pipe", "pipe"] });
    const rssMiB = (): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1]) / 1024;
    const write = (text: string): Promise<unknown> => new Promise((resolve) => child.stdin.write(text, resolve));
    const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
    try {
      child.stdout.pause(); // the peer reads nothing until the flood is over
      await write(line(INITIALIZE) + line(notification("notifications/initialized")));
      let waiting = "";
      for (let id = 1; id <= 1024; id++) waiting += line(call(id, "slow"));
      await write(waiting);
      for (let round = 0; round < 5; round++) {
        let flood = "";
        for (let i = 0; i < 20_000; i++) flood += line(call(10_000 + round * 20_000 + i, "echo", "x"));
        await write(flood);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(child.exitCode).toBeNull();
      expect(rssMiB()).toBeLessThan(512);
      // Read again: what waited is bounded by the transport's maxQueuedBytes (8 MiB) and the pipe; then a ping is answered.
      let text = "";
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => (text += chunk));
      child.stdout.resume();
      await write(line(request("alive", "ping")));
      await expect.poll(() => text.includes(JSON.stringify({ jsonrpc: "2.0", id: "alive", result: {} })), { timeout: 10_000 }).toBe(true);
      const answers = text.split("\n").filter((l) => l !== "");
      expect(Buffer.byteLength(text)).toBeLessThan(8 * 1024 * 1024 + 1024 * 1024);
      // Nothing but refusals (and the initialize result, and the ping): no echo ran.
      expect(answers.filter((l) => l.includes('"result":{"content"'))).toEqual([]);
      expect(answers.filter((l) => l.includes("(maxRequestsInFlight)")).length).toBeGreaterThan(10_000);
    } finally {
      child.kill();
      if (child.exitCode === null) await once(child, "exit");
    }
  }, 60_000);
});
