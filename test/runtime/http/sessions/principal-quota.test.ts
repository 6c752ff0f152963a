/**
 * Sessions per principal on the session server (issue 41, finding 1; the table's
 * maxSessionsPerPrincipal, templates/runtime/http/server/session-table.ts): one authenticated
 * principal used to fill every session (maxSessions is global) and the next principal got 503.
 * Now a principal at its quota (default 64) gets the 503 naming maxSessionsPerPrincipal, with
 * Retry-After, while another principal still opens a session. Sessions without a principal (no
 * `authenticate`) are each their own: only maxSessions bounds them.
 *
 * Figures (the scaled down): maxSessions 80, alice asks for 80 sessions: 64 open, 16 get
 * 503 naming maxSessionsPerPrincipal, and bob then gets a session (aa78207: alice's 80 opened and
 * bob got 503 naming maxSessions).
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { describeFaces, open, post, POST_HEADERS, serve, type Served } from "./support.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const bearer: R.Authenticate = (request) => {
  const user = /^Bearer (\w+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  return user === undefined ? new Response(null, { status: 401 }) : { id: user };
};

const INITIALIZE = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
const initialize = (url: string, user?: string) => post(url, INITIALIZE, { ...POST_HEADERS, ...(user === undefined ? {} : { authorization: `Bearer ${user}` }) });

describeFaces("sessions per principal", (face) => {
  it("a principal at its quota (default 64) gets 503 naming maxSessionsPerPrincipal; the next principal still gets a session", async () => {
    served = await serve(face, {}, { authenticate: bearer, maxSessions: 80 });
    const url = served.url;
    const answers = [];
    for (let i = 0; i < 80; i++) answers.push(await initialize(url, "alice"));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(64);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(16);
    expect(refused.map((a) => [a.status, a.headers.get("retry-after"), a.headers.get("mcp-session-id")])).toEqual(Array(16).fill([503, "1", null]));
    expect(refused[0]!.json).toEqual({ jsonrpc: "2.0", id: 0, error: { code: -32603, message: "Service Unavailable: 64 sessions of this principal are open (maxSessionsPerPrincipal)" } });
    // The next principal is not locked out.
    const bob = await initialize(url, "bob");
    expect([bob.status, bob.headers.get("mcp-session-id")?.length]).toEqual([200, 36]);
    expect(served.handler.sessionCount).toBe(65);
    // One of alice's sessions ends (DELETE): she may open one again.
    const first = answers[0]!.headers.get("mcp-session-id")!;
    expect((await fetch(url, { method: "DELETE", headers: { "mcp-session-id": first, "mcp-protocol-version": "2025-11-25", authorization: "Bearer alice" } })).status).toBe(200);
    expect((await initialize(url, "alice")).status).toBe(200);
  });

  it("maxSessionsPerPrincipal: 2 with maxSessions 4; without authenticate each session is its own (only maxSessions bounds them)", async () => {
    served = await serve(face, {}, { authenticate: bearer, maxSessions: 4, maxSessionsPerPrincipal: 2 });
    expect([(await initialize(served.url, "alice")).status, (await initialize(served.url, "alice")).status, (await initialize(served.url, "alice")).status]).toEqual([200, 200, 503]);
    expect([(await initialize(served.url, "bob")).status, (await initialize(served.url, "carol")).status]).toEqual([200, 200]);
    expect((await initialize(served.url, "dave")).json).toMatchObject({ error: { message: "Service Unavailable: 4 sessions are open (maxSessions)" } });
    await served.close();
    served = await serve(face, {}, { maxSessions: 4, maxSessionsPerPrincipal: 2 });
    for (let i = 0; i < 4; i++) await open(served.url);
    expect(served.handler.sessionCount).toBe(4);
    expect((await initialize(served.url)).json).toMatchObject({ error: { message: "Service Unavailable: 4 sessions are open (maxSessions)" } });
  });

  it("maxSessionsPerPrincipal is checked where it is read: a whole number ≥ 1 or Infinity", () => {
    const server = new R.McpServer({ logger: null });
    for (const bad of [0, 1.5, -1, Number.NaN]) expect(() => R.createSessionHttpHandler(server, { maxSessionsPerPrincipal: bad })).toThrow(RangeError);
    expect(() => R.createSessionHttpHandler(server, { maxSessionsPerPrincipal: 0 })).toThrow("maxSessionsPerPrincipal must be an integer ≥ 1 or Infinity (no bound), got 0");
    expect(() => R.createSessionHttpHandler(server, { maxSessionsPerPrincipal: Infinity })).not.toThrow();
  });
});
