/**
 * features/resource-subscriptions.ts on its own, with a bus of the test's (the SubscriptionBus
 * interface, in process: what two instances share): what comes in from another instance is
 * checked like a peer's (a malformed message is dropped and reported, never applied), this
 * instance's own messages are not applied twice, and the sessions an instance keeps are bounded
 * (MAX_SESSIONS: the one changed longest ago is forgotten). The wire behaviour, over real
 * sessions and Redis: test/runtime/addons/redis/resource-updates.test.ts.
 */
import { describe, expect, it } from "vitest";
import { MAX_SESSIONS, ResourceSubscriptions, type Recipients } from "../../../../templates/runtime/features/resource-subscriptions.js";
import type { BusMessage, SubscriptionBus } from "../../../../templates/runtime/features/subscriptions.js";
import type { Transport } from "../../../../templates/runtime/core/protocol.js";

/** A bus in process: every listener hears every message, its publisher's own included. */
function memoryBus(): SubscriptionBus & { readonly listeners: Set<(message: BusMessage) => void> } {
  const listeners = new Set<(message: BusMessage) => void>();
  return {
    listeners,
    publish: (message) => void [...listeners].forEach((listener) => listener(message)),
    subscribe: (listener) => (listeners.add(listener), () => void listeners.delete(listener)),
  };
}

/** A session's transport, as the session server's: only its id matters here. */
const session = (sessionId: string): Transport => ({ sessionId, start: () => Promise.resolve(), send: () => Promise.resolve(), close: () => Promise.resolve() });

/** Which of `sessions` an update of `uri` delivered here would reach. */
function reached(deliveries: { uri: string; recipients: Recipients }[], uri: string, sessions: readonly string[]): string[] {
  const delivery = deliveries.find((d) => d.uri === uri);
  return delivery === undefined ? [] : sessions.filter((id) => delivery.recipients(session(id)));
}

describe("ResourceSubscriptions on a bus", () => {
  it("applies another instance's subscription changes and updates; drops malformed messages with onError", () => {
    const bus = memoryBus();
    const deliveries: { uri: string; recipients: Recipients }[] = [];
    const errors: Error[] = [];
    new ResourceSubscriptions(bus, (uri, recipients) => void deliveries.push({ uri, recipients }), (error) => void errors.push(error as Error));
    bus.publish({ origin: "other", method: "resources/subscribe", params: { sessionId: "s1", uri: "x://a" } });
    bus.publish({ origin: "other", method: "notifications/resources/updated", params: { uri: "x://a" } });
    expect(reached(deliveries, "x://a", ["s1", "s2"])).toEqual(["s1"]);
    for (const params of [{ uri: 7 }, { uri: "x".repeat(4097) }, { sessionId: "", uri: "x://a" }, { sessionId: "s".repeat(257), uri: "x://a" }]) {
      bus.publish({ origin: "other", method: "resources/subscribe", params });
    }
    bus.publish({ origin: "other", method: "tools/call", params: { sessionId: "s2", uri: "x://a" } });
    expect(errors).toHaveLength(5);
    deliveries.length = 0;
    bus.publish({ origin: "other", method: "notifications/resources/updated", params: { uri: "x://a" } });
    expect(reached(deliveries, "x://a", ["s1", "s2", "s".repeat(257)])).toEqual(["s1"]);
    bus.publish({ origin: "other", method: "resources/unsubscribe", params: { sessionId: "s1", uri: "x://a" } });
    deliveries.length = 0;
    bus.publish({ origin: "other", method: "notifications/resources/updated", params: { uri: "x://a" } });
    expect(reached(deliveries, "x://a", ["s1"])).toEqual([]);
  });

  it("updated() with a bus delivers here as its own message comes back (after the changes published before it), once; without one, at once", () => {
    const bus = memoryBus();
    const deliveries: string[] = [];
    const published: BusMessage[] = [];
    bus.subscribe((message) => void published.push(message));
    const subscriptions = new ResourceSubscriptions(bus, (uri) => void deliveries.push(uri));
    subscriptions.updated("x://a");
    expect(deliveries).toEqual(["x://a"]);
    expect(published).toMatchObject([{ method: "notifications/resources/updated", params: { uri: "x://a" } }]);
    const alone: string[] = [];
    new ResourceSubscriptions(undefined, (uri) => void alone.push(uri)).updated("x://b");
    expect(alone).toEqual(["x://b"]);
  });

  it("a bus that refuses an update: delivered here at once, and the failure reported", async () => {
    const errors: unknown[] = [];
    const deliveries: string[] = [];
    const refusing: SubscriptionBus = { publish: () => Promise.reject(new Error("bus down")), subscribe: () => () => undefined };
    new ResourceSubscriptions(refusing, (uri) => void deliveries.push(uri), (error) => void errors.push(error)).updated("x://a");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(deliveries).toEqual(["x://a"]);
    expect(errors).toMatchObject([{ message: "bus down" }]);
  });

  it(`keeps the subscriptions of at most ${MAX_SESSIONS} sessions: past it, the one changed longest ago is forgotten`, () => {
    const bus = memoryBus();
    const deliveries: { uri: string; recipients: Recipients }[] = [];
    const subscriptions = new ResourceSubscriptions(bus, (uri, recipients) => void deliveries.push({ uri, recipients }));
    for (let i = 0; i <= MAX_SESSIONS; i++) bus.publish({ origin: "other", method: "resources/subscribe", params: { sessionId: `s${i}`, uri: "x://a" } });
    subscriptions.updated("x://a");
    expect(reached(deliveries, "x://a", ["s0", "s1", `s${MAX_SESSIONS}`])).toEqual(["s1", `s${MAX_SESSIONS}`]);
  });
});
