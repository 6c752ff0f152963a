/**
 * The MCPx WebSocket gateway in this process (addons/mcpx-ws/gateway.ts), on a node:http server
 * on 127.0.0.1, with real WebSocket participants (issue 41, finding 7):
 * - a token without `exp` is refused (1008) instead of accepted for ever;
 * - a participant's socket is closed (4401 `token_expired`) when its token expires, at its `exp`
 *   or at `iat` + maxLifetimeMs, and the others see it leave; a socket closed earlier leaves no
 *   timer behind (no `token_expired` afterwards);
 * - a frame with a top-level key given twice (`from`, `kind`, any other) is refused as
 *   `invalid_envelope` and reaches nobody, where it used to be forwarded as received.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../../../helpers/async.js";
import { rawParticipant, seconds, startInProcessGateway as start, timed, token, type InProcessGateway as Running, type RawParticipant } from "./support.js";

let plain: Running;
let bounded: Running;
const participants: RawParticipant[] = [];
const join = async (url: string, bearer: string): Promise<RawParticipant> => {
  const p = await rawParticipant(url, bearer);
  participants.push(p);
  return p;
};

beforeAll(async () => {
  [plain, bounded] = await Promise.all([start(), start(2000)]);
});

afterAll(async () => {
  for (const p of participants) p.socket.terminate();
  await Promise.all([plain.close(), bounded.close()]);
});

const leftIds = (p: RawParticipant): string[] =>
  p.frames.filter((f) => f["kind"] === "system/presence" && (f["payload"] as { event: string }).event === "leave").map((f) => (f["payload"] as { participant: { id: string } }).participant.id);

describe("MCPx tokens at the gateway", () => {
  it("a token without exp is refused: the socket closes 1008 unauthorized, and the refusal says why", async () => {
    const forever = await join(plain.url, await timed("forever", { iat: seconds() }));
    expect(await waitFor("the close", () => forever.closed)).toEqual({ code: 1008, reason: "unauthorized" });
    expect(forever.frames).toEqual([]);
    expect(plain.refusals.find((r) => r.reason === "unauthorized")?.detail).toBe('missing required "exp" claim');
  });

  it("closes a participant's socket when its token expires (4401 token_expired, within 500 ms of its exp, not before); the others see it leave; a socket closed earlier leaves no timer behind", async () => {
    const observer = await join(plain.url, await token("watcher", ["chat"]));
    const exp = seconds() + 2;
    const [expiring, early] = await Promise.all([join(plain.url, await timed("expiring", { exp })), join(plain.url, await timed("early", { exp }))]);
    expect(expiring.frames[0]).toMatchObject({ kind: "system/welcome" });
    early.socket.close(1000, "bye");
    await waitFor("early to leave", () => (leftIds(observer).includes("early") ? true : undefined));
    const closed = await waitFor("the expiry", () => (expiring.closed === undefined ? undefined : { ...expiring.closed, at: Date.now() }), 5000);
    expect(closed.code).toBe(4401);
    expect(closed.reason).toBe("token_expired");
    expect(closed.at).toBeGreaterThanOrEqual(exp * 1000 - 20);
    expect(closed.at).toBeLessThan(exp * 1000 + 500);
    await waitFor("the others to see it leave", () => (leftIds(observer).includes("expiring") ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // One token_expired, for the participant still there; none for the one that left before.
    expect(plain.refusals.filter((r) => r.reason === "token_expired").map((r) => r.participant)).toEqual(["expiring"]);
    expect(observer.closed).toBeUndefined();
  });

  it("with maxLifetimeMs (2000), a token of an hour is closed 2 s after its iat, and a token without exp is admitted until then", async () => {
    const iat = seconds();
    const [hour, noExp] = await Promise.all([join(bounded.url, await timed("hour", { iat, exp: iat + 3600 })), join(bounded.url, await timed("no-exp", { iat }))]);
    expect([hour.frames[0]?.["kind"], noExp.frames[0]?.["kind"]]).toEqual(["system/welcome", "system/welcome"]);
    for (const p of [hour, noExp]) {
      const closed = await waitFor("the expiry", () => (p.closed === undefined ? undefined : { ...p.closed, at: Date.now() }), 5000);
      expect(closed).toMatchObject({ code: 4401, reason: "token_expired" });
      expect(closed.at).toBeGreaterThanOrEqual(iat * 1000 + 2000 - 20);
      expect(closed.at).toBeLessThan(iat * 1000 + 2000 + 500);
    }
  });
});

describe("MCPx frames with a top-level key given twice", () => {
  it("are refused as invalid_envelope naming the key, and reach nobody; a key repeated inside the payload is forwarded as received", async () => {
    const observer = await join(plain.url, await token("observer-2", ["chat"]));
    const mallory = await join(plain.url, await token("mallory", ["chat"]));
    const head = '{"protocol":"mcpx/v0.1","id":"%ID%","to":["observer-2"],';
    const frames = [
      // JSON.parse keeps the last from (mallory: passes the gateway's check); a first-wins receiver reads alice.
      `${head}"from":"alice","kind":"chat","payload":{},"from":"mallory"}`,
      // The last kind is one mallory may send; the first is one she may not.
      `${head}"from":"mallory","kind":"mcp/request:tools/call:rm","payload":{},"kind":"chat"}`,
      // The same key written with an escape.
      `${head}"from":"alice","kind":"chat","payload":{},"\\u0066rom":"mallory"}`,
      `${head}"from":"mallory","kind":"chat","payload":{},"id":"again"}`,
    ].map((frame, i) => frame.replace("%ID%", `dup-${i}`));
    for (const frame of frames) mallory.send(frame);
    // Duplicates below the top level are the payload's, which the gateway never reads: forwarded as received.
    const nested = `${head.replace("%ID%", "nested")}"from":"mallory","kind":"chat","payload":{"a":1,"a":2}}`;
    mallory.send(nested);
    await waitFor("the nested frame", () => observer.frames.find((f) => f["id"] === "nested"));
    await waitFor("four refusals", () => (mallory.errors().length === 4 ? true : undefined));
    expect(mallory.frames.filter((f) => f["kind"] === "system/error").map((f) => f["payload"])).toEqual(
      ["from", "kind", "from", "id"].map((name) => ({ error: "invalid_envelope", message: `not an mcpx/v0.1 envelope: the key "${name}" appears twice` })),
    );
    expect(observer.frames.filter((f) => String(f["id"]).startsWith("dup-") || f["id"] === "again")).toEqual([]);
    expect(observer.frames.find((f) => f["id"] === "nested")?.["payload"]).toEqual({ a: 2 });
  });
});
