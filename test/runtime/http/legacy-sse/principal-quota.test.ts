/**
 * HTTP+SSE sessions per principal (issue 41, finding 1; maxSessionsPerPrincipal of
 * createLegacySseHandler, the table's bound in templates/runtime/http/server/session-table.ts):
 * one principal used to fill every session (maxSessions is global) and the next one got 503. Now
 * a principal at its quota (default 64) gets the 503 naming maxSessionsPerPrincipal while another
 * principal still opens a session; sessions without a principal are each their own.
 *
 * Figures (the scaled down): maxSessions 80, alice asks for 80 streams: 64 open, 16 get 503
 * naming maxSessionsPerPrincipal, bob then gets his (aa78207: alice's 80 opened, bob got 503).
 */
import { afterEach, expect, it } from "vitest";
import { closeAll, R, serve, describeFaces } from "./support.js";

afterEach(closeAll);

const bearer: R.Authenticate = (request) => {
  const user = /^Bearer (\w+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
  return user === undefined ? new Response(null, { status: 401 }) : { id: user };
};

/** GET of the SSE endpoint: its status, and its body's text when refused (an opened stream is left open). */
async function openSession(origin: string, user?: string): Promise<{ status: number; text: string | undefined }> {
  const response = await fetch(`${origin}/sse`, { headers: { accept: "text/event-stream", ...(user === undefined ? {} : { authorization: `Bearer ${user}` }) } });
  return { status: response.status, text: response.status === 200 ? undefined : await response.text() };
}

describeFaces("HTTP+SSE: sessions per principal", (face) => {
  it("a principal at its quota (default 64) gets 503 naming maxSessionsPerPrincipal; the next principal still gets a session", async () => {
    const served = await serve(face, {}, { authenticate: bearer, maxSessions: 80 });
    const answers = [];
    for (let i = 0; i < 80; i++) answers.push(await openSession(served.origin, "alice"));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(64);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => a.status)).toEqual(Array(16).fill(503));
    expect(JSON.parse(refused[0]!.text!)).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Service Unavailable: 64 sessions of this principal are open (maxSessionsPerPrincipal)" } });
    expect((await openSession(served.origin, "bob")).status).toBe(200);
  });

  it("without authenticate each session is its own: maxSessionsPerPrincipal 2 does not bound anonymous sessions, maxSessions does", async () => {
    const served = await serve(face, {}, { maxSessions: 4, maxSessionsPerPrincipal: 2 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await openSession(served.origin)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 503]);
  });

  it("maxSessionsPerPrincipal is checked where it is read", () => {
    const server = new R.McpServer({ logger: null });
    expect(() => R.createLegacySseHandler(server, { maxSessionsPerPrincipal: 0 })).toThrow("maxSessionsPerPrincipal must be an integer ≥ 1 or Infinity (no bound), got 0");
    expect(() => R.createLegacySseHandler(server, { maxSessionsPerPrincipal: Number.NaN })).toThrow(RangeError);
    expect(() => R.createLegacySseHandler(server, { maxSessionsPerPrincipal: Infinity })).not.toThrow();
  });
});
