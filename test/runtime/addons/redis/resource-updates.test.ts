/**
 * Issue 44, item 4: resources/updated per session, across instances. Two instances of a
 * 2025-11-25 server (each its McpServer and session handler, on both faces) share a
 * RedisSessionRegistry and a RedisSubscriptionBus (channel `resources`, the Registry's
 * `resourceBus`) on one real redis-server, behind a round-robin proxy, so each client's
 * requests, its subscribe and its GET stream land on either instance. Three official SDK (1.32)
 * clients subscribe: `resourceUpdated(uri)` on either instance reaches every session subscribed
 * to that URI, once, and no other; an unsubscribe made on one instance holds on both.
 */
import { afterEach, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { RedisSubscriptionBus } from "../../../../templates/runtime/addons/redis/bus.js";
import { RedisSessionRegistry } from "../../../../templates/runtime/addons/redis/session-registry.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "../../../helpers/round-robin-proxy.js";
import { describeFaces, serve, waitFor, type Face, type Served } from "../../http/sessions/support.js";
import { redisPairs } from "./support.js";

const { pair } = redisPairs("resources");
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

const URIS = ["x://a", "x://b"] as const;

async function instance(face: Face, redis: Awaited<ReturnType<typeof pair>>[number]): Promise<Served> {
  const bus = new RedisSubscriptionBus(redis, { channel: "resources" });
  await bus.ready();
  const served = await serve(face, { registrations: { resourceBus: bus } }, { sessionRegistry: new RedisSessionRegistry(redis) });
  for (const uri of URIS) served.server.registerResource(uri, uri, {}, () => ({ contents: [{ uri, text: uri }] }));
  closers.push(() => served.close(), () => bus.close());
  return served;
}

/** An SDK client through the proxy, with the URIs of the resources/updated it received. */
async function client(proxy: RoundRobinProxy, path: string): Promise<{ client: Client; updates: string[] }> {
  const updates: string[] = [];
  const sdk = new Client({ name: "subscriber", version: "1.0.0" });
  sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updates.push(notification.params.uri));
  await sdk.connect(new StreamableHTTPClientTransport(new URL(`${proxy.origin}${path}`)));
  closers.push(() => sdk.close());
  return { client: sdk, updates };
}

describeFaces("resources/updated across two instances", (face) => {
  it("reaches every session subscribed to its URI on either instance, once, and no other", async () => {
    const [one, two] = await pair();
    const a = await instance(face, one);
    const b = await instance(face, two);
    const proxy = await startRoundRobinProxy([a.url, b.url].map((url) => new URL(url).origin));
    closers.push(() => proxy.close());
    const path = new URL(a.url).pathname;
    const [c1, c2, c3] = [await client(proxy, path), await client(proxy, path), await client(proxy, path)];
    // Every client's GET stream is open (on whichever instance the proxy chose).
    await waitFor("three GET streams", () => (a.getSockets.length + b.getSockets.length >= 3 ? true : undefined));
    await c1.client.subscribeResource({ uri: "x://a" });
    await c2.client.subscribeResource({ uri: "x://a" });
    await c3.client.subscribeResource({ uri: "x://b" });
    // Each subscription went to some instance; both hear of each update.
    expect(new Set(proxy.served)).toEqual(new Set([0, 1]));

    a.server.resourceUpdated("x://a");
    await waitFor("x://a at both subscribers", () => (c1.updates.length > 0 && c2.updates.length > 0 ? true : undefined));
    b.server.resourceUpdated("x://b");
    await waitFor("x://b at its subscriber", () => (c3.updates.length > 0 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200)); // anything more would have come by now
    expect([c1.updates, c2.updates, c3.updates]).toEqual([["x://a"], ["x://a"], ["x://b"]]);

    // Unsubscribed through whichever instance the proxy picks: the other one stops too.
    await c2.client.unsubscribeResource({ uri: "x://a" });
    b.server.resourceUpdated("x://a");
    a.server.resourceUpdated("x://a");
    await waitFor("two more x://a at c1", () => (c1.updates.length === 3 ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([c1.updates, c2.updates, c3.updates]).toEqual([["x://a", "x://a", "x://a"], ["x://a"], ["x://b"]]);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
