/**
 * One memory budget for the event stores of all sessions (http/sessions/event-budget.ts, the
 * session handler's `maxEventStoreBytes`; issue 41, finding 2: a session may keep 4 MiB, so 1,024
 * sessions could keep 4 GiB, and a server with a 512 MiB heap died of out-of-memory after 133).
 *
 * - In a child process with `--max-old-space-size=512`: 1,024 sessions, each holding a 1 MiB
 *   response (scaled from the finding's 3.7 MiB to keep the run to a few seconds; 1 GiB offered
 *   is still twice the heap), stay within the default budget: the bytes held are at most 128 MiB,
 *   the heap grows by at most the budget plus the sessions' own cost, RSS stays under 512 MiB,
 *   and the process lives (the old code dies of out-of-memory in the same run).
 * - On the wire: past the budget the oldest events of all sessions go first, a resumption from
 *   an evicted `Last-Event-ID` is 400 while the session lives on, and an ended session's events
 *   leave the budget.
 * - The budget and the store alone: shared eviction order, the stores' own bounds and `clear`
 *   keep the budget's count exact, an event larger than the budget is not kept, options checked.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { deleteSession, getStream, open, serve, settle, type Event, type Served, type Stream, describeFaces } from "./support.js";

const MIB = 1024 * 1024;

interface ChildReport {
  readonly sessions: number;
  readonly stored: number;
  readonly before: NodeJS.MemoryUsage;
  readonly after: NodeJS.MemoryUsage;
  readonly maxRss: number;
  readonly errors: readonly string[];
}

/** Runs event-budget-child.ts with a 512 MiB heap: its exit code, its report, its stderr's tail. */
function runChild(sessions: number, chars: number): Promise<{ code: number | null; signal: string | null; report: ChildReport | undefined; stderr: string }> {
  const script = fileURLToPath(new URL("./event-budget-child.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", "--max-old-space-size=512", "--expose-gc", script, String(sessions), String(chars)], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve) =>
    child.on("exit", (code, signal) => {
      const line = stdout.trim().split("\n").pop() ?? "";
      resolve({ code, signal, report: line.startsWith("{") ? (JSON.parse(line) as ChildReport) : undefined, stderr });
    }),
  );
}

describe("1,024 sessions holding large responses, in a 512 MiB heap", () => {
  it("keep at most the default 128 MiB of events; the heap grows by at most that plus the sessions, RSS stays under 512 MiB, no out-of-memory", async () => {
    const chars = MIB / 2; // two-byte text: 1 MiB per response, as counted and as held
    const { code, signal, report, stderr } = await runChild(1024, chars);
    expect({ code, signal, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, signal: null, stderr: "" });
    expect(report).toBeDefined();
    const { sessions, stored, before, after, maxRss, errors } = report!;
    expect(errors).toEqual([]);
    expect(sessions).toBe(1024);
    // 1 GiB of responses offered: the default budget holds 128 MiB of them, the newest.
    expect(stored).toBeLessThanOrEqual(128 * MIB);
    expect(stored).toBeGreaterThan(128 * MIB - 2 * MIB);
    // What stays after a GC: the events held, and the 1,024 sessions themselves (far below 32 KiB each).
    expect(after.heapUsed - before.heapUsed).toBeLessThan(128 * MIB + 1024 * 32 * 1024);
    expect(maxRss).toBeLessThan(512 * MIB);
  }, 120_000);
});

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The bytes an event of this notification counts for: its JSON text, UTF-16 × 2. */
const notification = (data: string) => ({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });
const counted = (data: string) => JSON.stringify(notification(data)).length * 2;

/** A session with its GET stream open (its priming event read): notifications go there, each with an id. */
async function withGet(url: string): Promise<{ sessionId: string; get: Stream }> {
  const { sessionId } = await open(url);
  const get = await getStream(url, sessionId);
  await get.next(); // priming
  return { sessionId, get };
}

/** Sends a log notification on a session's GET stream and reads its event back: its id. */
async function logged(session: { sessionId: string; get: Stream }, data: string): Promise<string> {
  served!.handler.notify(session.sessionId, "notifications/message", { level: "info", data });
  const event = (await session.get.next()) as Event;
  expect(JSON.parse(event.data)).toEqual(notification(data));
  return event.id!;
}

describeFaces("maxEventStoreBytes on the wire", (face) => {
  it("evicts the oldest events of all sessions first; a resumption from an evicted Last-Event-ID is 400, the session lives on", async () => {
    const payload = "x".repeat(10_000);
    const size = counted(payload);
    served = await serve(face, {}, { maxEventStoreBytes: 2 * size });
    const a = await withGet(served.url);
    const b = await withGet(served.url);
    const a1 = await logged(a, payload);
    const b1 = await logged(b, payload);
    expect(served.handler.storedEventBytes).toBe(2 * size);
    // B's second event is one too many: the oldest of all goes, A's, not B's own older one.
    const b2 = await logged(b, payload);
    expect(served.handler.storedEventBytes).toBe(2 * size);
    a.get.abort();
    b.get.abort();
    const fromA1 = await getStream(served.url, a.sessionId, a1);
    expect(fromA1.status).toBe(400);
    const fromB1 = await getStream(served.url, b.sessionId, b1);
    expect(fromB1.status).toBe(200);
    expect(((await fromB1.next()) as Event).id).toBe(b2);
    fromB1.abort();
    // A's session is not over (a 404 would tell its client to start a new one): its GET stream opens.
    const again = await getStream(served.url, a.sessionId);
    expect(again.status).toBe(200);
    again.abort();
  });

  it("an ended session's events leave the budget", async () => {
    served = await serve(face);
    const a = await withGet(served.url);
    await logged(a, "y".repeat(50_000));
    expect(served.handler.storedEventBytes).toBe(counted("y".repeat(50_000)));
    a.get.abort();
    expect((await deleteSession(served.url, a.sessionId)).status).toBe(200);
    await settle();
    expect(served.handler.storedEventBytes).toBe(0);
  });
});

describe("EventStoreBudget with InMemoryEventStores", () => {
  it("evicts the oldest events of all its stores first, whichever store adds one", () => {
    const budget = new R.EventStoreBudget({ maxBytes: 40 });
    const a = new R.InMemoryEventStore({ budget });
    const b = new R.InMemoryEventStore({ budget });
    const a1 = a.storeEvent("a/1", "0123456789"); // 20 bytes each
    const b1 = b.storeEvent("b/1", "0123456789");
    const b2 = b.storeEvent("b/1", "0123456789");
    expect(a.replayEventsAfter(a1)).toBeUndefined();
    expect(b.replayEventsAfter(b1)).toEqual({ streamId: "b/1", events: [{ id: b2, data: "0123456789" }] });
    expect([budget.bytes, budget.size, a.bytes, b.bytes]).toEqual([40, 2, 0, 40]);
    const a2 = a.storeEvent("a/1", "01234");
    expect(b.replayEventsAfter(b1)).toBeUndefined();
    expect(a.replayEventsAfter(a2)).toEqual({ streamId: "a/1", events: [] });
    expect([budget.bytes, budget.size]).toEqual([30, 2]);
  });

  it("keeps its count exact when a store's own bounds evict, when a store is cleared, and refuses an event larger than itself", () => {
    const budget = new R.EventStoreBudget({ maxBytes: 1000 });
    const small = new R.InMemoryEventStore({ budget, maxEvents: 2 });
    const other = new R.InMemoryEventStore({ budget });
    for (let i = 0; i < 5; i++) small.storeEvent("s/1", "abcde");
    other.storeEvent("o/1", "abcde");
    expect([budget.bytes, budget.size, small.size]).toEqual([30, 3, 2]);
    small.clear();
    expect([budget.bytes, budget.size, small.size, small.bytes]).toEqual([10, 1, 0, 0]);
    other.storeEvent("o/1", "z".repeat(501)); // 1002 bytes: more than the whole budget
    expect([budget.bytes, budget.size, other.size]).toEqual([0, 0, 0]);
  });

  it("checks its options", () => {
    expect(() => new R.EventStoreBudget({ maxBytes: 0 })).toThrow(RangeError);
    expect(() => new R.EventStoreBudget({ maxBytes: Number.NaN })).toThrow(/maxBytes/);
    expect(() => R.createSessionHttpHandler(new R.McpServer({ logger: null }), { maxEventStoreBytes: 1.5 })).toThrow(/maxEventStoreBytes/);
    expect(() => new R.InMemoryEventStore({ budget: {} as R.EventStoreBudget })).toThrow(TypeError);
    expect(new R.EventStoreBudget().maxBytes).toBe(128 * MIB);
    expect(R.DEFAULT_EVENT_STORE_BYTES).toBe(128 * MIB);
  });
});
