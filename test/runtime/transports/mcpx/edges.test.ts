/**
 * MCPx edges the other MCPx tests leave open (issue 17): what counts as an envelope, what the
 * gateway's snapshot keeps (shared sub-objects, a `__proto__` field), duplicate recipients, the
 * life of a link (join, unsubscribe, close), and the transport's default envelope ids and error
 * reports.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import type { McpxEnvelope, McpxLink } from "../../../generated/2025-11-25/index.js";
import { settle, testLink } from "../../../helpers/harness.js";

const envelope = (fields: Partial<McpxEnvelope>): McpxEnvelope => ({ protocol: "mcpx/v0.1", id: "e", from: "a", to: ["b"], kind: "chat", ...fields });

/** A gateway with a sender `a` and receivers `b` and `c`, what each receives, and what was dropped. */
function gatewayOfThree() {
  const drops: Array<[string, string]> = [];
  const gateway = R.createMcpxGateway({ onDrop: (_e, cause, from) => drops.push([from, cause]) });
  const a = gateway.join("a");
  const b = gateway.join("b");
  const c = gateway.join("c");
  const got = { b: [] as McpxEnvelope[], c: [] as McpxEnvelope[] };
  b.subscribe((e) => got.b.push(e as McpxEnvelope));
  c.subscribe((e) => got.c.push(e as McpxEnvelope));
  return { gateway, a, b, c, got, drops };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("MCPx: what is an envelope", () => {
  it("isMcpxEnvelope: `from` must be a non-empty string and every `to` entry a string", () => {
    expect(R.isMcpxEnvelope(envelope({}))).toBe(true);
    expect(R.isMcpxEnvelope(envelope({ to: undefined }))).toBe(true);
    expect(R.isMcpxEnvelope(envelope({ to: [] }))).toBe(true);
    expect(R.isMcpxEnvelope(envelope({ from: "" }))).toBe(false);
    expect(R.isMcpxEnvelope(envelope({ to: ["b", 7 as unknown as string] }))).toBe(false);
    expect(R.isMcpxEnvelope(envelope({ to: [null as unknown as string] }))).toBe(false);
    expect(R.isMcpxEnvelope(envelope({ id: undefined as unknown as string }))).toBe(false);
    expect(R.isMcpxEnvelope(null)).toBe(false);
    expect(R.isMcpxEnvelope([])).toBe(false);
  });

  it("the gateway drops an empty `from` or a non-string recipient as invalid-envelope (not as spoofed), and delivers nothing", async () => {
    const { gateway, a, got, drops } = gatewayOfThree();
    a.send(envelope({ from: "" }));
    a.send(envelope({ to: ["b", 7 as unknown as string] }));
    a.send(envelope({ to: ["b", { id: "c" } as unknown as string] }));
    await settle();
    expect(drops).toEqual([
      ["a", "invalid-envelope"],
      ["a", "invalid-envelope"],
      ["a", "invalid-envelope"],
    ]);
    expect(got).toEqual({ b: [], c: [] });
    expect(gateway.counts.routed).toBe(0);
  });

  it("the transport drops an envelope with an empty `from` as invalid (it does not just ignore it)", async () => {
    const { link, deliver } = testLink("me");
    const drops: string[] = [];
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link, onDrop: (_e, cause) => drops.push(cause) });
    await transport.start();
    deliver(envelope({ from: "", to: ["me"], kind: "mcp", payload: { jsonrpc: "2.0", method: "x" } }));
    deliver(envelope({ from: "you", to: ["me", 1 as unknown as string], kind: "mcp", payload: { jsonrpc: "2.0", method: "x" } }));
    expect(drops).toEqual(["invalid-envelope", "invalid-envelope"]);
    expect(transport.counts).toMatchObject({ delivered: 0, ignored: 0, dropped: 2 });
    await transport.close();
  });
});

describe("MCPx gateway: the snapshot", () => {
  it("JSON data with null, undefined, booleans, numbers and a sub-object referenced twice (no cycle) is routed and delivered whole", async () => {
    const { a, got, drops } = gatewayOfThree();
    const shared = { n: 1, list: [true, false, null] };
    const payload = { jsonrpc: "2.0", method: "x", params: { first: shared, second: shared, nothing: null, absent: undefined, flag: false, zero: 0 } };
    a.send(envelope({ to: ["b"], payload }));
    await settle();
    expect(drops).toEqual([]);
    expect(got.b).toHaveLength(1);
    expect(got.b[0]!.payload).toEqual(payload);
    expect(Object.isFrozen((got.b[0]!.payload as typeof payload).params.second)).toBe(true);
  });

  it("an own `__proto__` field (as JSON.parse makes it) is carried as data, not turned into the copy's prototype", async () => {
    const { a, got, drops } = gatewayOfThree();
    const parsed = JSON.parse('{"protocol":"mcpx/v0.1","id":"p","from":"a","to":["b"],"kind":"chat","__proto__":{"x":1}}') as McpxEnvelope;
    a.send(parsed);
    await settle();
    expect(drops).toEqual([]);
    expect(got.b).toHaveLength(1);
    const delivered = got.b[0]!;
    expect(Object.hasOwn(delivered, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(delivered, "__proto__")?.value).toEqual({ x: 1 });
  });

  it("onDrop gets the gateway's frozen copy of an invalid envelope, or what was sent when it is not an object or could not be copied", async () => {
    const dropped: unknown[] = [];
    const gateway = R.createMcpxGateway({ onDrop: (e) => dropped.push(e) });
    const a = gateway.join("a");
    const copyable = { protocol: "mcpx/v0.2", id: "1", from: "a", kind: "chat" };
    const uncopyable = { ...envelope({}), payload: { callback: () => {} } };
    a.send(copyable as unknown as McpxEnvelope);
    a.send(uncopyable);
    a.send("not an envelope" as unknown as McpxEnvelope);
    a.send(42 as unknown as McpxEnvelope);
    await settle();
    expect(dropped).toHaveLength(4);
    expect(dropped[0]).not.toBe(copyable);
    expect(dropped[0]).toEqual(copyable);
    expect(Object.isFrozen(dropped[0])).toBe(true);
    expect(dropped[1]).toBe(uncopyable);
    expect(dropped.slice(2)).toEqual(["not an envelope", 42]);
  });

  it("a participant listed twice in `to` gets the envelope once", async () => {
    const { gateway, a, got } = gatewayOfThree();
    const routes: Array<readonly string[]> = [];
    gateway.onRoute = (_e, to) => routes.push(to);
    a.send(envelope({ id: "twice", to: ["b", "c", "b"] }));
    await settle();
    expect(routes).toEqual([["b", "c"]]);
    expect(got.b.map((e) => e.id)).toEqual(["twice"]);
    expect(got.c.map((e) => e.id)).toEqual(["twice"]);
  });
});

describe("MCPx gateway: links", () => {
  it("join refuses an empty or non-string participant id with a TypeError, and adds nobody", () => {
    const gateway = R.createMcpxGateway();
    expect(() => gateway.join("")).toThrow(new TypeError("participantId must be a non-empty string"));
    expect(() => gateway.join(7 as unknown as string)).toThrow(TypeError);
    expect(gateway.participants()).toEqual([]);
  });

  it("unsubscribe stops both deliveries and the close listener; the others still hear", async () => {
    const { a, b, got } = gatewayOfThree();
    const gone: string[] = [];
    let closes = 0;
    const unsubscribe = b.subscribe(
      (e) => gone.push((e as McpxEnvelope).id),
      () => closes++,
    );
    a.send(envelope({ id: "1" }));
    await settle();
    unsubscribe();
    a.send(envelope({ id: "2" }));
    await settle();
    b.close();
    expect(gone).toEqual(["1"]);
    expect(got.b.map((e) => e.id)).toEqual(["1", "2"]);
    expect(closes).toBe(0);
  });

  it("a link closed before a routed envelope's delivery does not get it; a second close() tells nobody again", async () => {
    const { gateway, a, b, got } = gatewayOfThree();
    let closes = 0;
    b.subscribe(
      () => {},
      () => closes++,
    );
    a.send(envelope({ id: "late", to: ["b", "c"] }));
    b.close(); // before the delivery microtask runs
    b.close();
    await settle();
    expect(got.b).toEqual([]);
    expect(got.c.map((e) => e.id)).toEqual(["late"]);
    expect(closes).toBe(1);
    expect(gateway.participants()).toEqual(["a", "c"]);
    // The id is free again.
    expect(gateway.join("b").participantId).toBe("b");
  });

  it("closing an old link again after its id has joined anew leaves the new participant attached", async () => {
    const { gateway, a, b } = gatewayOfThree();
    b.close();
    const again = gateway.join("b");
    const got: string[] = [];
    let closes = 0;
    again.subscribe(
      (e) => got.push((e as McpxEnvelope).id),
      () => closes++,
    );
    b.close();
    a.send(envelope({ id: "for the new b", to: ["b"] }));
    await settle();
    expect(gateway.participants()).toEqual(["a", "c", "b"]);
    expect(got).toEqual(["for the new b"]);
    expect(closes).toBe(0);
  });
});

describe("MCPx transport: ids and reports", () => {
  it("default envelope ids are random UUIDs where crypto.randomUUID exists", async () => {
    const { link, sent } = testLink("me");
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link });
    await transport.send({ jsonrpc: "2.0", method: "x" });
    await transport.send({ jsonrpc: "2.0", method: "x" });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(sent.map((e) => uuid.test(e.id))).toEqual([true, true]);
    expect(sent[0]!.id).not.toBe(sent[1]!.id);
    await transport.close();
  });

  it("without crypto.randomUUID the ids count per transport: <participant>-1, -2, …", async () => {
    vi.stubGlobal("crypto", {});
    const first = testLink("me");
    const second = testLink("me");
    const t1 = R.createMcpxTransport({ participantId: "me", peerId: "you", link: first.link });
    const t2 = R.createMcpxTransport({ participantId: "me", peerId: "them", link: second.link });
    await t1.send({ jsonrpc: "2.0", method: "x" });
    await t1.send({ jsonrpc: "2.0", method: "x" });
    await t2.send({ jsonrpc: "2.0", method: "x" });
    expect(first.sent.map((e) => e.id)).toEqual(["me-1", "me-2"]);
    expect(second.sent.map((e) => e.id)).toEqual(["me-1"]);
    await t1.close();
    await t2.close();
  });

  it("a throwing onclose is reported to onerror; a non-Error thrown by onmessage is reported as an Error; a throwing onerror is ignored", async () => {
    const { link, deliver } = testLink("me");
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link });
    const errors: Array<[boolean, string]> = [];
    transport.onerror = (e) => {
      errors.push([e instanceof Error, e.message]);
      throw new Error("onerror bug");
    };
    transport.onmessage = () => {
      throw "a string, not an Error";
    };
    transport.onclose = () => {
      throw new Error("onclose bug");
    };
    await transport.start();
    deliver(envelope({ from: "you", to: ["me"], kind: "mcp", payload: { jsonrpc: "2.0", method: "x" } }));
    await expect(transport.close()).resolves.toBeUndefined();
    expect(errors).toEqual([
      [true, "a string, not an Error"],
      [true, "onclose bug"],
    ]);
  });

  it("without onmessage or onclose, a delivery and a close report nothing to onerror", async () => {
    const { link, deliver } = testLink("me");
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link });
    const errors: Error[] = [];
    transport.onerror = (e) => errors.push(e);
    await transport.start();
    deliver(envelope({ from: "you", to: ["me"], kind: "mcp", payload: { jsonrpc: "2.0", method: "x" } }));
    await transport.close();
    expect(errors).toEqual([]);
    expect(transport.counts.delivered).toBe(1);
  });

  it("close() detaches from the link once, and delivers nothing more even if the link's unsubscribe takes effect late", async () => {
    let deliver: (envelope: unknown) => void = () => {};
    let unsubscribed = 0;
    const lateLink: McpxLink = {
      participantId: "me",
      send: () => {},
      // A broker whose unsubscribe only takes effect later: the listener stays callable.
      subscribe: (listener) => ((deliver = listener), () => void unsubscribed++),
      close: () => {},
    };
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link: lateLink });
    const got: unknown[] = [];
    transport.onmessage = (m) => got.push(m);
    await transport.start();
    const message = envelope({ from: "you", to: ["me"], kind: "mcp", payload: { jsonrpc: "2.0", method: "x" } });
    deliver(message);
    await transport.close();
    await transport.close();
    expect(unsubscribed).toBe(1);
    deliver(message);
    deliver(42);
    expect(got).toHaveLength(1);
    expect(transport.counts).toMatchObject({ delivered: 1, dropped: 0, ignored: 0 });
  });

  it("close() twice runs onclose once", async () => {
    const { link } = testLink("me");
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link });
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.close();
    await transport.close();
    expect(closes).toBe(1);
  });

  it("closing the transport while start() hands over what arrived before it: nothing after the close is delivered", async () => {
    const { link, deliver } = testLink("me");
    const transport = R.createMcpxTransport({ participantId: "me", peerId: "you", link });
    const got: unknown[] = [];
    transport.onmessage = (m) => {
      got.push(m);
      void transport.close();
    };
    for (const method of ["first", "second", "third"]) deliver(envelope({ from: "you", to: ["me"], kind: "mcp", payload: { jsonrpc: "2.0", method } }));
    await transport.start();
    expect(got).toEqual([{ jsonrpc: "2.0", method: "first" }]);
    expect(transport.counts.delivered).toBe(3);
  });
});
