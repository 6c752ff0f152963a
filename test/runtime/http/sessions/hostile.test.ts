/**
 * A hostile client of the session server, on both faces of the handler: whatever it POSTs or
 * GETs, the server answers with a status, keeps serving other requests, and reports nothing of
 * its own as failed.
 */
import { afterEach, expect, it } from "vitest";
import { getStream, open, post, rpc, send, serve, sessionHeaders, text, type Served, describeFaces } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describeFaces("hostile input", (face) => {
  it("garbage bodies, ids and headers get 4xx answers; the session serves on and nothing is reported as the server's failure", async () => {
    served = await serve(face, { handlers: { "tools/call": (params) => text(params.name) } });
    const { sessionId } = await open(served.url);
    const h = sessionHeaders(sessionId);
    const bodies: unknown[] = [
      "", "null", "42", '"x"', "[[]]", "{", "\u0000", "[1,2,3]",
      { jsonrpc: "1.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: { x: 1 }, method: "ping" },
      { jsonrpc: "2.0", id: 1.5, method: "ping" },
      { jsonrpc: "2.0", id: null, method: "ping" },
      { jsonrpc: "2.0", id: 1, method: 7 },
      { jsonrpc: "2.0", id: 1, method: "ping", params: [1] },
      { jsonrpc: "2.0", id: 1 },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: { deep: [[[]]] } } },
      { jsonrpc: "2.0", id: 77, result: { unasked: true } },
      { jsonrpc: "2.0", id: 78, error: "not an object" },
      { jsonrpc: "2.0", id: 2, method: "no/such/method" },
    ];
    for (const body of bodies) {
      const answer = await post(served.url, typeof body === "string" ? body : JSON.stringify(body), h);
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(200);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
    }
    expect((await getStream(served.url, sessionId, "x".repeat(8000))).status).toBe(400); // an event id of nothing held: 400, the session lives on
    expect((await send(served.url, { method: "GET", headers: { accept: "text/event-stream", "mcp-session-id": "\u00ff".repeat(3) } })).status).toBe(404);
    expect((await rpc(served.url, sessionId, 3, "tools/call", { name: "still here" })).json).toEqual({ jsonrpc: "2.0", id: 3, result: text("still here") });
    expect(served.errors).toEqual([]);
  });
});
