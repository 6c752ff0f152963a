/**
 * Registrations announce list changes to every session of the HTTP+SSE server (2024-11-05,
 * server/tools, List Changed Notification), at the wire on both faces of the handler: two real
 * sessions on a real node:http server each get notifications/tools/list_changed as a message
 * event on their stream; a session whose stream ended gets nothing and leaves the server's set of
 * connections.
 */
import { afterEach, expect, it } from "vitest";
import { waitFor } from "../../../helpers/async.js";
import { closeAll, INITIALIZE, post, serve, session, type Served, describeFaces } from "./support.js";

afterEach(closeAll);

const EMPTY = { type: "object", properties: {} } as const;
const LIST_CHANGED = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

/** A session, initialized (initialize answered on its stream, then notifications/initialized). */
async function initialized(served: Served): Promise<Awaited<ReturnType<typeof session>>> {
  const opened = await session(served);
  expect((await post(opened.endpoint, { jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE })).status).toBe(202);
  expect(await opened.stream.nextMessage()).toMatchObject({ id: 1, result: { protocolVersion: "2024-11-05" } });
  expect((await post(opened.endpoint, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);
  return opened;
}

describeFaces("HTTP+SSE server: registrations announce to every session", (face) => {
  it("a tool registered after two sessions initialized is announced on both streams", async () => {
    const served = await serve(face);
    const a = await initialized(served);
    const b = await initialized(served);
    expect(served.server.openConnections).toBe(2);
    served.server.registerTool("late", { inputSchema: EMPTY }, () => ({ content: [] }));
    expect(await a.stream.nextMessage()).toEqual(LIST_CHANGED);
    expect(await b.stream.nextMessage()).toEqual(LIST_CHANGED);
    a.stream.close();
    b.stream.close();
  });

  it("a session whose stream ended gets nothing and leaves the set; the live one hears every change", async () => {
    const served = await serve(face);
    const tool = served.server.registerTool("first", { inputSchema: EMPTY }, () => ({ content: [] }));
    const a = await initialized(served);
    const b = await initialized(served);
    a.stream.close();
    await waitFor("the ended session to leave the set", () => (served.server.openConnections === 1 ? true : undefined));
    tool.disable();
    expect(await b.stream.nextMessage()).toEqual(LIST_CHANGED);
    tool.update({ description: "changed" });
    expect(await b.stream.nextMessage()).toEqual(LIST_CHANGED);
    expect(served.server.openConnections).toBe(1);
    expect(served.errors).toEqual([]);
    b.stream.close();
  });
});
