/**
 * SubscriptionHubOptions.bus (features/subscriptions.ts): fan-out between the hubs of several
 * instances through any SubscriptionBus (here an in-process one; the Redis add-on's on a real
 * Redis: test/runtime/addons/redis/stores.test.ts, test/integration/redis/instances.test.ts). A
 * change published on one hub reaches the streams of the others once each, and its own once; a
 * message that is not one, or a method the hubs do not deliver, goes to onError and nothing else;
 * a bus that fails to publish goes to onError and local delivery goes on; leaveBus stops it.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { ack, connect, note, settle } from "./support.js";

/** A bus in this process: every message to every listener, as pub/sub would. */
function localBus() {
  const listeners = new Set<(message: R.BusMessage) => void>();
  const sent: R.BusMessage[] = [];
  const bus: R.SubscriptionBus = {
    publish: (message) => {
      sent.push(message);
      for (const listener of [...listeners]) listener(structuredClone(message));
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { bus, sent, inject: (message: unknown) => listeners.forEach((l) => l(message as R.BusMessage)) };
}

describe("Subscriptions over a bus", () => {
  it("delivers a change published on one hub to the streams of every hub, once each", async () => {
    const { bus, sent } = localBus();
    const one = new R.Subscriptions({ bus });
    const two = new R.Subscriptions({ bus });
    const a = await connect(one);
    const b = await connect(two);
    await a.listen(1, { toolsListChanged: true, resourceSubscriptions: ["file:///x"] });
    await b.listen(2, { toolsListChanged: true });
    await settle();
    expect(one.publish("notifications/tools/list_changed")).toBe(1);
    one.publish("notifications/resources/updated", { uri: "file:///x" });
    await settle();
    expect(sent.map((m) => m.method)).toEqual(["notifications/tools/list_changed", "notifications/resources/updated"]);
    expect(a.received).toEqual([
      ack(1, { toolsListChanged: true, resourceSubscriptions: ["file:///x"] }),
      note(1, "notifications/tools/list_changed"),
      note(1, "notifications/resources/updated", { uri: "file:///x" }),
    ]);
    expect(b.received).toEqual([ack(2, { toolsListChanged: true }), note(2, "notifications/tools/list_changed")]);
    await Promise.all([a.close(), b.close()]);
  });

  it("drops what is not a message of a delivered method, with onError; a failing publish goes to onError and local delivery goes on", async () => {
    const { bus, inject } = localBus();
    const errors: Error[] = [];
    const hub = new R.Subscriptions({ bus, onError: (e) => errors.push(e) });
    const a = await connect(hub);
    await a.listen(1, { toolsListChanged: true });
    await settle();
    inject({ origin: "elsewhere", method: 42 });
    inject({ origin: "elsewhere", method: "notifications/message", params: { level: "info", data: "x" } });
    inject({ origin: "elsewhere", method: "notifications/resources/updated", params: { uri: 7 } });
    inject(null);
    await settle();
    expect(errors.map((e) => e.message)).toEqual([
      "bus: a message without a method, got 42",
      expect.stringContaining("is not delivered on subscriptions/listen streams"),
      expect.stringContaining("params.uri must be a string"),
    ]);
    expect(a.received).toEqual([ack(1, { toolsListChanged: true })]);

    const failing = new R.Subscriptions({ bus: { publish: () => Promise.reject(new Error("bus down")), subscribe: () => () => undefined }, onError: (e) => errors.push(e) });
    const c = await connect(failing);
    await c.listen(3, { toolsListChanged: true });
    await settle();
    expect(failing.publish("notifications/tools/list_changed")).toBe(1);
    await settle();
    expect(errors.at(-1)?.message).toBe("bus down");
    expect(c.received.at(-1)).toEqual(note(3, "notifications/tools/list_changed"));
    await Promise.all([a.close(), c.close()]);
  });

  it("leaveBus stops delivery from the others; a bus that is not one is a TypeError", async () => {
    const { bus } = localBus();
    const one = new R.Subscriptions({ bus });
    const two = new R.Subscriptions({ bus });
    const b = await connect(two);
    await b.listen(1, { toolsListChanged: true });
    await settle();
    two.leaveBus();
    one.publish("notifications/tools/list_changed");
    await settle();
    expect(b.received).toEqual([ack(1, { toolsListChanged: true })]);
    expect(() => new R.Subscriptions({ bus: {} as R.SubscriptionBus })).toThrow(TypeError);
    await b.close();
  });
});
