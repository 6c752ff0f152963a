/**
 * The everything-server over real Streamable HTTP: requests whose method is a name of
 * Object.prototype get -32601, exactly like any unknown method (the handler tables use own
 * properties only), and the session keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEverythingServer, type RunningEverythingServer } from "../helpers/everything-server.js";

let server: RunningEverythingServer | undefined;
let url = "";

beforeAll(async () => {
  server = await startEverythingServer();
  url = server.url;
});

afterAll(async () => {
  await server?.stop();
});

/** POSTs one JSON-RPC message; returns the session id and the JSON-RPC message of the answer. */
async function post(body: object, sessionId?: string): Promise<{ sessionId: string | null; message: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // JSON, or an SSE stream whose (non-empty) data line carries the message.
  const data = text.trimStart().startsWith("{") ? text : ([...text.matchAll(/^data: (.+)$/gm)].at(-1)?.[1] ?? "null");
  return { sessionId: response.headers.get("mcp-session-id"), message: JSON.parse(data) };
}

describe("everything-server over Streamable HTTP", () => {
  it("answers methods named after Object.prototype members with -32601 and keeps serving", async () => {
    const init = await post({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const sessionId = init.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionId!);
    let id = 2;
    for (const method of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const { message } = await post({ jsonrpc: "2.0", id, method, params: {} }, sessionId!);
      expect(message).toEqual({ jsonrpc: "2.0", id, error: { code: -32601, message: `Method not found: ${method}` } });
      id++;
    }
    const { message } = await post({ jsonrpc: "2.0", id, method: "ping" }, sessionId!);
    expect(message).toEqual({ jsonrpc: "2.0", id, result: {} });
  });
});
