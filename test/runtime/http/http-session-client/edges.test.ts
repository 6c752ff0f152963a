/**
 * Edges of the session revisions' Streamable HTTP client transport (templates/runtime/
 * http-session-client.ts) that the main transport tests pass by: what a DELETE's status means,
 * the GET stream opened once, the session id taken from the initialize response only, an error
 * body without an id or for another id, and a request answered with no response at all.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { accepted, handshake, INITIALIZE, json, openTransport, scriptedFetch, sessionScript, SESSION, within } from "./support.js";

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list" } as const;
const ERROR = { code: -32602, message: "bad params" };

describe("SessionHttpClientTransport: edges", () => {
  it("DELETE on close: 404 (the session is gone already) and 405 are no error; 500 is reported", async () => {
    for (const [status, reported] of [[404, false], [405, false], [500, true]] as const) {
      const { fetch } = scriptedFetch(sessionScript((call) => (call.method === "DELETE" ? new Response("x", { status }) : accepted())));
      const { transport, errors } = openTransport(fetch);
      await handshake(transport);
      await within("close", transport.close());
      expect(errors.map((e) => [e.name, (e as R.HttpStatusError).status]), String(status)).toEqual(reported ? [["HttpStatusError", 500]] : []);
    }
  });

  it("the GET stream opens once, after notifications/initialized, only when listening", async () => {
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? new Response(null, { status: 405 }) : accepted())));
    const { transport } = openTransport(fetch, { listen: true });
    await transport.send(INITIALIZE as unknown as R.JsonRpcMessage);
    await transport.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(0);
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls.filter((c) => c.method === "GET")).toHaveLength(1);
    await transport.close();
  });

  it("takes the session id from a successful initialize only; a later Mcp-Session-Id changes nothing", async () => {
    const { fetch, calls } = scriptedFetch(sessionScript((call) => json({ jsonrpc: "2.0", id: call.body?.["id"], result: { tools: [] } }, 200, "another-session")));
    const { transport } = openTransport(fetch);
    await handshake(transport);
    await within("tools/list", transport.send(LIST));
    expect(transport.sessionId).toBe(SESSION);
    await within("again", transport.send({ ...LIST, id: 2 }));
    expect(calls.at(-1)?.headers["mcp-session-id"]).toBe(SESSION);
    await transport.close();
    const refused = scriptedFetch(() => json({ jsonrpc: "2.0", id: 0, error: ERROR }, 400, "never-used"));
    const second = openTransport(refused.fetch);
    await within("initialize", second.transport.send(INITIALIZE as unknown as R.JsonRpcMessage));
    expect(second.transport.sessionId).toBeUndefined();
    await second.transport.close();
  });

  it("an error body with a null or missing id answers the request; one for another id, or a 202, rejects it", async () => {
    for (const id of [null, undefined, 1]) {
      const { fetch } = scriptedFetch(sessionScript(() => json({ jsonrpc: "2.0", ...(id === undefined ? {} : { id }), error: ERROR }, 400)));
      const { transport, received } = openTransport(fetch);
      await handshake(transport);
      await within("tools/list", transport.send(LIST));
      expect(received.at(-1), String(id)).toEqual({ jsonrpc: "2.0", id: 1, error: ERROR });
      await transport.close();
    }
    const other = scriptedFetch(sessionScript(() => json({ jsonrpc: "2.0", id: 9, error: ERROR }, 400)));
    const a = openTransport(other.fetch);
    await handshake(a.transport);
    const wrong = await within("tools/list", a.transport.send(LIST).catch((e: unknown) => e));
    expect([(wrong as R.HttpStatusError).name, (wrong as R.HttpStatusError).status]).toEqual(["HttpStatusError", 400]);
    await a.transport.close();
    const empty = scriptedFetch(sessionScript(() => accepted()));
    const b = openTransport(empty.fetch);
    await handshake(b.transport);
    const none = await within("tools/list", b.transport.send(LIST).catch((e: unknown) => e));
    expect(none).toBeInstanceOf(R.RequestStreamBrokenError);
    expect((none as Error).message).toContain("HTTP 202 without a response");
    await b.transport.close();
  });
});
