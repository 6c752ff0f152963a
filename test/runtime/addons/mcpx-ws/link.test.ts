/**
 * The MCPx link (addons/mcpx-ws/link.ts) when the gateway closes its socket because its token
 * expired (4401 token_expired; issue 41): with a token function it reconnects with a fresh token
 * and is welcomed again; with a fixed token, which the gateway would refuse, it closes instead of
 * retrying. A real in-process gateway on 127.0.0.1
 * whose tokens live 2 s at most (maxLifetimeMs).
 */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { connectMcpxLink, type McpxWsLink } from "../../../../templates/runtime/addons/mcpx-ws/link.js";
import { waitFor } from "../../../helpers/async.js";
import { startInProcessGateway, token, TOPIC, type InProcessGateway } from "./support.js";

let gateway: InProcessGateway;
const links: McpxWsLink[] = [];

beforeAll(async () => {
  gateway = await startInProcessGateway(2000);
});

afterAll(async () => {
  for (const link of links) link.close();
  await gateway.close();
});

it("a link with a token function reconnects after token_expired, with a fresh token; one with a fixed token closes instead of retrying", async () => {
  let asked = 0;
  const renewing = await connectMcpxLink({ url: gateway.url, topic: TOPIC, token: () => (asked++, token("renewing")), initialBackoffMs: 20, maxBackoffMs: 100 });
  let fixedClosed = false;
  const fixed = await connectMcpxLink({ url: gateway.url, topic: TOPIC, token: await token("fixed"), initialBackoffMs: 20, maxBackoffMs: 100 });
  fixed.subscribe(() => undefined, () => (fixedClosed = true));
  links.push(renewing, fixed);
  expect(asked).toBe(1);
  // Within 2 s both tokens end: the gateway closes both sockets (4401).
  await waitFor("both tokens to end", () => (gateway.refusals.filter((r) => r.reason === "token_expired").length >= 2 ? true : undefined), 5000);
  expect(gateway.refusals.map((r) => `${r.reason} ${r.participant}`).sort().slice(0, 2)).toEqual(["token_expired fixed", "token_expired renewing"]);
  // The renewing link asks for a new token and is welcomed again; the fixed one closes.
  await waitFor("a second token", () => (asked >= 2 ? true : undefined), 5000);
  await waitFor("the renewing link back", () => (renewing.connected ? true : undefined), 5000);
  await waitFor("the fixed link closed", () => (fixedClosed ? true : undefined), 5000);
  expect(fixed.connected).toBe(false);
  await new Promise((resolve) => setTimeout(resolve, 300));
  // It never came back with its expired token (that would be an `unauthorized` refusal).
  expect(gateway.refusals.filter((r) => r.reason === "unauthorized")).toEqual([]);
});

it("ignores a frame with a top-level key given twice: a presence that JSON.parse reads as the gateway's is no presence, and reaches no conversation", async () => {
  const fake = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => fake.once("listening", () => resolve()));
  const frame = (body: string) => `{"protocol":"mcpx/v0.1","id":"${Math.random()}",${body}}`;
  fake.on("connection", (socket) => {
    socket.send(frame('"from":"system:gateway","kind":"system/welcome","payload":{"you":{"id":"me","capabilities":["*"]},"participants":[]}'));
    // Once the test listens: the first from is mallory's, the last (what JSON.parse keeps) the gateway's.
    setTimeout(() => {
      socket.send(frame('"from":"mallory","kind":"system/presence","payload":{"event":"join","participant":{"id":"ghost","capabilities":[]}},"from":"system:gateway"'));
      socket.send(frame('"from":"system:gateway","kind":"system/presence","payload":{"event":"join","participant":{"id":"real","capabilities":[]}}'));
    }, 100);
  });
  const link = await connectMcpxLink({ url: `ws://127.0.0.1:${(fake.address() as AddressInfo).port}/ws`, topic: TOPIC, token: "any", reconnect: false });
  links.push(link);
  const heard: unknown[] = [];
  link.subscribe((envelope) => heard.push(envelope));
  await waitFor("the real join", () => (link.participants().some((p) => p.id === "real") ? true : undefined));
  expect(link.participants().map((p) => p.id)).toEqual(["real"]);
  expect(heard.map((e) => ((e as { payload: { participant: { id: string } } }).payload.participant.id))).toEqual(["real"]);
  link.close();
  await new Promise<void>((resolve) => fake.close(() => resolve()));
});
