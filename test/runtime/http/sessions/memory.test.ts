/**
 * What an idle session costs, on both faces of the handler: sessions opened and left idle grow
 * the heap by a bounded amount each (generous: measured with process.memoryUsage, no forced GC),
 * and ended sessions give it back to the table (sessionCount), so the bound is on the sessions
 * open.
 */
import { afterEach, expect, it } from "vitest";
import { deleteSession, open, serve, type Served, describeFaces } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describeFaces("idle sessions", (face) => {
  it("cost a bounded amount of heap each, and DELETE takes them off the table", async () => {
    served = await serve(face);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await open(served.url)).sessionId); // warm up
    const before = process.memoryUsage().heapUsed;
    const n = 300;
    for (let i = 0; i < n; i++) ids.push((await open(served.url)).sessionId);
    const perSession = (process.memoryUsage().heapUsed - before) / n;
    expect(served.handler.sessionCount).toBe(n + 20);
    // A session is a connection, a Headers copy and a few maps: far below 256 KiB, even with garbage not yet collected.
    expect(perSession).toBeLessThan(256 * 1024);
    for (const id of ids) await deleteSession(served.url, id);
    expect(served.handler.sessionCount).toBe(0);
  });
});
