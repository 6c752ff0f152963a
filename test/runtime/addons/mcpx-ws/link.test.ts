/**
 * The MCPx link (addons/mcpx-ws/link.ts) when the gateway closes its socket because its token
 * expired (4401 token_expired; issue 41): with a token function it reconnects with a fresh token
 * and is welcomed again; with a fixed token, which the gateway would refuse, it closes instead of
 * retrying. A real in-process gateway on 127.0.0.1
 * whose tokens live 2 s at most (maxLifetimeMs).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
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
