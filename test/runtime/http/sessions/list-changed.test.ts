/**
 * Registrations announce list changes to every session of the session server (2025-11-25,
 * server/tools, List Changed Notification), at the wire on both faces of the handler: two real
 * sessions on a real node:http server each hear notifications/tools/list_changed on their GET stream (a notification outside
 * any request goes there, basic/transports, Listening for Messages from the Server); a session
 * that ended hears nothing and leaves the server's set of connections.
 */
import { afterEach, expect, it } from "vitest";
import { deleteSession, getStream, open, rpc, serve, waitFor, type Served, type Stream, describeFaces } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** The next JSON-RPC message on a stream (priming events, which carry no data, skipped); null at its end. */
async function nextMessage(stream: Stream): Promise<Record<string, unknown> | null> {
  for (let event = await stream.next(); event !== null; event = await stream.next()) {
    if (event.data !== "") return JSON.parse(event.data) as Record<string, unknown>;
  }
  return null;
}

const EMPTY = { type: "object", properties: {} } as const;

describeFaces("session server: registrations announce to every session", (face) => {
  it("a tool registered after two sessions initialized is announced on both GET streams", async () => {
    served = await serve(face);
    const a = await open(served.url);
    const b = await open(served.url);
    const streamA = await getStream(served.url, a.sessionId);
    const streamB = await getStream(served.url, b.sessionId);
    expect([streamA.status, streamB.status]).toEqual([200, 200]);
    expect(served.server.openConnections).toBe(2);

    served.server.registerTool("late", { inputSchema: EMPTY }, () => ({ content: [] }));
    expect(await nextMessage(streamA)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(await nextMessage(streamB)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    // And the list both now get has it.
    const listed = await rpc(served.url, b.sessionId, 1, "tools/list");
    expect(JSON.stringify(listed.json)).toContain('"late"');
    streamA.abort();
    streamB.abort();
  });

  it("a session that ended hears nothing and leaves the set; the live one still hears every change", async () => {
    served = await serve(face);
    served.server.registerTool("first", { inputSchema: EMPTY }, () => ({ content: [] }));
    const a = await open(served.url);
    const b = await open(served.url);
    const streamA = await getStream(served.url, a.sessionId);
    const streamB = await getStream(served.url, b.sessionId);
    expect(served.server.openConnections).toBe(2);

    expect((await deleteSession(served.url, a.sessionId)).status).toBe(200);
    await waitFor("the ended session to leave the set", () => (served!.server.openConnections === 1 ? true : undefined));
    // The ended session's stream ends without a message.
    expect(await nextMessage(streamA)).toBeNull();

    const second = served.server.registerTool("second", { inputSchema: EMPTY }, () => ({ content: [] }));
    expect(await nextMessage(streamB)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    second.remove();
    expect(await nextMessage(streamB)).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(served.server.openConnections).toBe(1);
    expect(served.errors).toEqual([]);
    streamB.abort();
  });

  it("registrations.announce still overrides: nothing goes to the sessions", async () => {
    const announced: string[] = [];
    served = await serve(face, { registrations: { announce: (method) => announced.push(method) } });
    const a = await open(served.url);
    const streamA = await getStream(served.url, a.sessionId);
    served.server.registerTool("late", { inputSchema: EMPTY }, () => ({ content: [] }));
    await waitFor("the announcer", () => (announced.length === 1 ? true : undefined));
    expect(announced).toEqual(["notifications/tools/list_changed"]);
    // End the session: its GET stream ends having carried nothing.
    expect((await deleteSession(served.url, a.sessionId)).status).toBe(200);
    expect(await nextMessage(streamA)).toBeNull();
  });
});
