/**
 * Property-based test of the generated runtime (2025-11-25): a client and a server over the
 * recording in-memory pair, driven by random interleavings of tool calls (the server handler
 * works for a random number of macrotask ticks, then returns, throws McpError or throws a plain
 * Error), client aborts at random points, timeouts, malformed and unknown notifications/cancelled
 * injected raw on both sides, and occasionally closing the connection. Real timers of 0-5 ms
 * drive time (no fake timers).
 *
 * Invariants checked after every run (Cancellation: Behavior Requirements 4-6, Timing
 * Considerations, Error Handling):
 * - every request promise settles exactly once, and how it settled matches what happened
 *   (result, handler error, abort with the caller's own reason, timeout, closed connection);
 * - the client sends at most one notifications/cancelled per request, and only for a request it
 *   aborted or that timed out;
 * - the server sends no response for a request after it received its cancel, and none for a
 *   request whose handler saw its signal aborted; never two responses for one id;
 * - malformed and unknown cancels are ignored (reported as such) and cancel nothing;
 * - nothing escapes the runtime (no unhandled rejection or uncaught exception, no onError);
 * - at the end both sides' in-flight tables are empty.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConnectionClosedError,
  McpError,
  RequestCancelledError,
  RequestTimeoutError,
  type CallToolResult,
  type CancellationEvent,
  type JsonRpcMessage,
  type RequestOptions,
} from "../../../generated/2025-11-25/index.js";
import { connectPair, settle, type Pair } from "../../../helpers/harness.js";

// ---------------------------------------------------------------------------------------------
// Operations

type Outcome = "return" | "mcp-error" | "error";
type ReasonKind = "string" | "error-object" | "default";

interface CallOp {
  readonly kind: "call";
  /** Macrotask ticks the handler works for (it stops early on abort unless ignoresSignal). */
  readonly ticks: number;
  readonly outcome: Outcome;
  readonly ignoresSignal: boolean;
  readonly timeoutMs: number | undefined;
  /** Abort the call's signal: before sending, after some ms, or not here (maybe by an AbortOp). */
  readonly abort: { readonly when: "before" } | { readonly when: "after"; readonly ms: number } | undefined;
  readonly reason: ReasonKind;
  readonly cancelReason: string | undefined;
}
interface AbortOp {
  readonly kind: "abort";
  readonly pick: number;
  readonly reason: ReasonKind;
}
interface WaitOp {
  readonly kind: "wait";
  readonly ms: number;
}
/** A cancel that must be ignored: `message` as is, or one built around a real id (`nearReal`). */
interface InjectOp {
  readonly kind: "inject";
  readonly to: "server" | "client";
  readonly message:
    | { readonly fixed: unknown; readonly cause: "malformed" | "unknown-request" }
    | { readonly nearReal: "float-id" | "string-id" | "numeric-reason" | "object-id"; readonly pick: number };
}
interface CloseOp {
  readonly kind: "close";
  readonly side: "client" | "server";
}
type Op = CallOp | AbortOp | WaitOp | InjectOp | CloseOp;

const cancelNotification = (params: unknown, withParams = true) =>
  withParams ? { jsonrpc: "2.0", method: "notifications/cancelled", params } : { jsonrpc: "2.0", method: "notifications/cancelled" };

/** Ids the client never uses (it numbers its requests 1, 2, … and a run sends at most 20). */
const unknownId = fc.oneof(fc.integer({ min: 1000, max: 2 ** 31 }), fc.integer({ min: -1000, max: -1 }), fc.string({ maxLength: 8 }));
const nonIntegerNumber = fc.double({ noDefaultInfinity: false }).filter((n) => !Number.isInteger(n));

const malformedCancel: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(cancelNotification(undefined, false)), // params missing
  fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 })).map((p) => cancelNotification(p)), // params not an object
  fc.oneof(fc.constant({}), fc.record({ reason: fc.string() })).map((p) => cancelNotification(p)), // requestId missing
  fc.oneof(fc.boolean(), nonIntegerNumber, fc.constant(null), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }), fc.array(fc.integer(), { maxLength: 2 })).map(
    (requestId) => cancelNotification({ requestId, reason: "bad id" }),
  ), // requestId boolean, float, null, object, array
  fc.tuple(unknownId, fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null))).map(([requestId, reason]) => cancelNotification({ requestId, reason })), // reason not a string
);
const unknownCancel: fc.Arbitrary<unknown> = fc
  .tuple(unknownId, fc.option(fc.string({ maxLength: 12 }), { nil: undefined }))
  .map(([requestId, reason]) => cancelNotification(reason === undefined ? { requestId } : { requestId, reason }));

const reasonKind = fc.constantFrom<ReasonKind>("string", "error-object", "default");

const callOp: fc.Arbitrary<CallOp> = fc.record({
  kind: fc.constant("call" as const),
  ticks: fc.integer({ min: 0, max: 8 }),
  outcome: fc.constantFrom<Outcome>("return", "mcp-error", "error"),
  ignoresSignal: fc.oneof({ arbitrary: fc.constant(false), weight: 3 }, { arbitrary: fc.constant(true), weight: 1 }),
  timeoutMs: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined, freq: 2 }),
  abort: fc.option(
    fc.oneof(
      { arbitrary: fc.constant({ when: "before" as const }), weight: 1 },
      { arbitrary: fc.integer({ min: 0, max: 5 }).map((ms) => ({ when: "after" as const, ms })), weight: 4 },
    ),
    { nil: undefined, freq: 2 },
  ),
  reason: reasonKind,
  cancelReason: fc.option(fc.constant("shown to the server"), { nil: undefined, freq: 4 }),
});

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: callOp, weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant("abort" as const), pick: fc.nat(), reason: reasonKind }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 2 }) }), weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant("inject" as const),
      to: fc.constantFrom("server" as const, "client" as const),
      message: fc.oneof(
        malformedCancel.map((fixed) => ({ fixed, cause: "malformed" as const })),
        unknownCancel.map((fixed) => ({ fixed, cause: "unknown-request" as const })),
        fc.record({ nearReal: fc.constantFrom("float-id" as const, "string-id" as const, "numeric-reason" as const, "object-id" as const), pick: fc.nat() }),
      ),
    }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant("close" as const), side: fc.constantFrom("client" as const, "server" as const) }), weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Observing the process

const escaped: unknown[] = [];
const onUnhandled = (reason: unknown) => escaped.push(reason);
beforeAll(() => {
  process.on("unhandledRejection", onUnhandled);
  process.on("uncaughtException", onUnhandled);
});
afterAll(() => {
  process.off("unhandledRejection", onUnhandled);
  process.off("uncaughtException", onUnhandled);
});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const makeReason = (kind: ReasonKind, n: number): unknown =>
  kind === "string" ? `stop ${n}` : kind === "error-object" ? new Error(`caller error ${n}`) : undefined;

interface CallRecord {
  readonly tag: number;
  readonly op: CallOp;
  readonly controller: AbortController;
  /** The connection was closed before this call was made. */
  readonly afterClose: boolean;
  settledCount: number;
  settled: { ok: true; value: CallToolResult } | { ok: false; error: unknown } | undefined;
}

interface ServerCancelEvent {
  readonly event: CancellationEvent;
  /** How many messages the server had sent when it handled the cancel. */
  readonly sentBefore: number;
}

// ---------------------------------------------------------------------------------------------
// One run

/**
 * With latency, each direction of the wire delivers its messages in order but 0-1 ms late
 * (one setTimeout per message), so that a cancel and the response it races can cross.
 */
interface Scenario {
  readonly ops: readonly Op[];
  readonly latency: readonly number[] | undefined;
}

async function run({ ops, latency }: Scenario): Promise<void> {
  escaped.length = 0;
  const errors: Array<{ side: string; error: Error }> = [];
  const serverCancels: ServerCancelEvent[] = [];
  const clientEvents: CancellationEvent[] = [];
  /** Ids whose handler saw its signal aborted when it finished. */
  const abortedOnServer = new Set<string | number>();
  const startedAborted: Array<string | number> = [];
  let running = 0;
  let pendingTimers = 0;
  let pairRef: Pair | undefined;

  const pair = await connectPair({
    client: { onError: (error) => errors.push({ side: "client", error }), onCancellation: (e) => clientEvents.push(e) },
    server: {
      onError: (error) => errors.push({ side: "server", error }),
      onCancellation: (event) => serverCancels.push({ event, sentBefore: pairRef?.serverWire.sent.length ?? 0 }),
      handlers: {
        "tools/call": async (params, ctx) => {
          running++;
          // The runtime starts a handler on a later microtask and skips it if cancelled meanwhile.
          if (ctx.signal.aborted) startedAborted.push(ctx.requestId);
          try {
            const args = params.arguments as { tag: number; ticks: number; outcome: Outcome; ignoresSignal: boolean };
            for (let i = 0; i < args.ticks; i++) {
              if (!args.ignoresSignal && ctx.signal.aborted) break;
              await tick();
            }
            if (ctx.signal.aborted) abortedOnServer.add(ctx.requestId);
            if (args.outcome === "mcp-error") throw new McpError(4242, `failed ${args.tag}`, { tag: args.tag });
            if (args.outcome === "error") throw new Error(`crashed ${args.tag}`);
            return { content: [{ type: "text", text: `done ${args.tag}` }] };
          } finally {
            running--;
          }
        },
      },
    },
  });
  pairRef = pair;
  let onTheWire = 0;
  if (latency !== undefined) {
    let n = 0;
    for (const end of [pair.clientWire.inner, pair.serverWire.inner]) {
      const send = end.send.bind(end);
      let queue = Promise.resolve();
      // Like a network: the sender does not wait, and what is on the way when it closes is lost.
      end.send = (message, options) => {
        const delay = latency[n++ % latency.length] ?? 0;
        onTheWire++;
        queue = queue
          .then(() => sleep(delay))
          .then(() => send(message, options))
          .catch(() => {})
          .finally(() => void onTheWire--);
        return Promise.resolve();
      };
    }
  }

  const calls: CallRecord[] = [];
  const injected: Array<{ to: "server" | "client"; cause: "malformed" | "unknown-request" }> = [];
  let closed = false;
  let reasons = 0;

  /** The wire id of a call, from the request the client sent. */
  const wireIdOf = (tag: number): number | string | undefined => {
    const request = pair.clientWire.sent.find(
      (m): m is Extract<JsonRpcMessage, { id: string | number; method: string }> =>
        "method" in m && m.method === "tools/call" && "id" in m && (m.params?.["arguments"] as { tag?: number } | undefined)?.tag === tag,
    );
    return request?.id;
  };

  for (const op of ops) {
    switch (op.kind) {
      case "call": {
        const tag = calls.length;
        const controller = new AbortController();
        const record: CallRecord = { tag, op, controller, afterClose: closed, settledCount: 0, settled: undefined };
        calls.push(record);
        if (op.abort?.when === "before") controller.abort(makeReason(op.reason, reasons++));
        const options: RequestOptions = { signal: controller.signal };
        if (op.timeoutMs !== undefined) options.timeoutMs = op.timeoutMs;
        if (op.cancelReason !== undefined) options.cancelReason = op.cancelReason;
        pair.client
          .callTool({ name: "work", arguments: { tag, ticks: op.ticks, outcome: op.outcome, ignoresSignal: op.ignoresSignal } }, options)
          .then(
            (value) => {
              record.settledCount++;
              record.settled = { ok: true, value };
            },
            (error: unknown) => {
              record.settledCount++;
              record.settled = { ok: false, error };
            },
          );
        if (op.abort?.when === "after") {
          const reason = makeReason(op.reason, reasons++);
          pendingTimers++;
          setTimeout(() => {
            pendingTimers--;
            controller.abort(reason);
          }, op.abort.ms);
        }
        break;
      }
      case "abort": {
        const target = calls[op.pick % Math.max(calls.length, 1)];
        target?.controller.abort(makeReason(op.reason, reasons++));
        break;
      }
      case "wait":
        await sleep(op.ms);
        break;
      case "inject": {
        let message: unknown;
        let cause: "malformed" | "unknown-request";
        if ("fixed" in op.message) {
          message = op.message.fixed;
          cause = op.message.cause;
        } else {
          // A cancel that names a real request but must be ignored and cancel nothing.
          const sentIds = calls.map((c) => wireIdOf(c.tag)).filter((id): id is number => typeof id === "number");
          const id = sentIds[op.message.pick % Math.max(sentIds.length, 1)] ?? 1;
          const params = {
            "float-id": { requestId: id + 0.5, reason: "float" },
            "string-id": { requestId: String(id), reason: "string id" },
            "numeric-reason": { requestId: id, reason: 42 },
            "object-id": { requestId: { id }, reason: "object id" },
          }[op.message.nearReal];
          message = cancelNotification(params);
          cause = op.message.nearReal === "string-id" ? "unknown-request" : "malformed";
        }
        if (!closed) injected.push({ to: op.to, cause });
        // After a close the raw transport refuses to send: that is expected, not an escape.
        await (op.to === "server" ? pair.injectToServer(message) : pair.injectToClient(message)).catch((error: unknown) => {
          if (!closed) throw error;
        });
        break;
      }
      case "close":
        closed = true;
        await (op.side === "client" ? pair.client.close() : pair.server.close());
        break;
    }
  }

  // Let everything settle: every handler ends (on abort or after its ticks), every call settles.
  const deadline = Date.now() + 3000;
  while ((running > 0 || pendingTimers > 0 || onTheWire > 0 || calls.some((c) => c.settledCount === 0)) && Date.now() < deadline) await sleep(1);
  await settle(3);

  // --- every request promise settled exactly once, in a way that matches what happened ------
  const clientCancels = pair.clientWire.cancels().map((m) => (m as unknown as { params: { requestId: string | number; reason: string } }).params);
  const cancelCount = (id: string | number | undefined) => clientCancels.filter((c) => c.requestId === id).length;
  for (const call of calls) {
    const where = `call ${call.tag} (${JSON.stringify(call.op)})`;
    expect(call.settledCount, where).toBe(1);
    const id = wireIdOf(call.tag);
    const settled = call.settled!;
    if (settled.ok) {
      expect(call.op.outcome, where).toBe("return");
      expect(settled.value.content, where).toEqual([{ type: "text", text: `done ${call.tag}` }]);
      expect(cancelCount(id), where).toBe(0);
      expect(pair.serverWire.responsesTo(id!), where).toHaveLength(1);
      continue;
    }
    const error = settled.error;
    if (error instanceof RequestCancelledError) {
      expect(call.controller.signal.aborted, where).toBe(true);
      expect(error.reason, where).toBe(call.controller.signal.reason); // the caller's own reason, untouched
      expect(error.requestId, where).toBe(id);
      if (id === undefined) {
        // Aborted before it was sent: nothing on the wire.
        expect(call.op.abort?.when, where).toBe("before");
      } else {
        const reason = call.op.cancelReason ?? (typeof call.controller.signal.reason === "string" ? call.controller.signal.reason : "Request cancelled by the caller");
        expect(clientCancels.filter((c) => c.requestId === id), where).toEqual([{ requestId: id, reason }]);
      }
    } else if (error instanceof RequestTimeoutError) {
      expect(call.op.timeoutMs, where).toBeDefined();
      expect(error.timeoutMs, where).toBe(call.op.timeoutMs);
      expect(clientCancels.filter((c) => c.requestId === id), where).toEqual([{ requestId: id, reason: `Request timed out after ${String(call.op.timeoutMs)} ms` }]);
    } else if (error instanceof ConnectionClosedError) {
      expect(closed, where).toBe(true);
      expect(cancelCount(id), where).toBe(0);
    } else if (error instanceof McpError) {
      expect(error.constructor, where).toBe(McpError);
      if (call.op.outcome === "mcp-error") expect({ code: error.code, message: error.message, data: error.data }, where).toEqual({ code: 4242, message: `failed ${call.tag}`, data: { tag: call.tag } });
      else expect({ code: error.code, message: error.message }, where).toEqual({ code: -32603, message: `crashed ${call.tag}` });
      expect(cancelCount(id), where).toBe(0);
    } else {
      // Only a call made on a closed connection fails with a plain Error.
      expect(call.afterClose, `${where}: ${String(error)}`).toBe(true);
      expect(error, where).toBeInstanceOf(Error);
      expect((error as Error).message, where).toMatch(/not connected/);
      expect(id, where).toBeUndefined();
    }
  }

  // --- the client cancels only requests it gave up on, at most once each ---------------------
  const cancelIds = clientCancels.map((c) => c.requestId);
  expect(new Set(cancelIds).size).toBe(cancelIds.length);
  for (const id of cancelIds) {
    const call = calls.find((c) => wireIdOf(c.tag) === id);
    expect(call?.settled?.ok === false && (call.settled.error instanceof RequestCancelledError || call.settled.error instanceof RequestTimeoutError), `cancel of ${String(id)}`).toBe(true);
  }

  // --- no response after the server handled a cancel; none for an aborted handler ------------
  const sent = pair.serverWire.sent;
  for (const { event, sentBefore } of serverCancels) {
    if (event.type !== "received" && !(event.type === "ignored" && event.cause === "finished")) continue;
    const id = event.requestId as string | number;
    const after = sent.slice(sentBefore).filter((m) => !("method" in m) && "id" in m && m.id === id);
    expect(after, `response to ${String(id)} after its cancel`).toEqual([]);
  }
  const receivedIds = serverCancels.flatMap(({ event }) => (event.type === "received" ? [event.requestId] : []));
  for (const id of receivedIds) {
    expect(pair.serverWire.responsesTo(id), `response to cancelled ${String(id)}`).toEqual([]);
    // Only a cancel the client sent can reach a request, with the client's reason.
    const reason = clientCancels.find((c) => c.requestId === id)?.reason;
    expect(reason, `received cancel of ${String(id)}`).toBeDefined();
    expect(serverCancels.find(({ event }) => event.type === "received" && event.requestId === id)?.event).toMatchObject({ reason });
  }
  for (const id of abortedOnServer) expect(pair.serverWire.responsesTo(id), `response of aborted handler ${String(id)}`).toEqual([]);
  // Never two responses for one id, and only for requests that were sent.
  const responseIds = sent.flatMap((m) => (!("method" in m) && "id" in m ? [m.id] : []));
  expect(new Set(responseIds).size).toBe(responseIds.length);
  for (const id of responseIds) expect(calls.some((c) => wireIdOf(c.tag) === id), `response to ${String(id)}`).toBe(true);
  // A late response is one to a request the client cancelled, which the server had finished.
  for (const e of clientEvents) {
    if (e.type !== "late-response") continue;
    expect(cancelIds).toContain(e.requestId);
    expect(pair.serverWire.responsesTo(e.requestId)).toHaveLength(1);
  }

  // --- every cancel is accounted for (all were delivered when the connection stayed open) ----
  const ignoredBy = (events: readonly CancellationEvent[]) =>
    events.flatMap((e) => (e.type === "ignored" && (e.cause === "malformed" || e.cause === "unknown-request") ? [e.cause] : [])).sort();
  const serverEvents = serverCancels.map(({ event }) => event);
  for (const e of serverEvents) {
    expect(["received", "ignored"]).toContain(e.type);
    if (e.type === "ignored") expect(["finished", "malformed", "unknown-request"]).toContain(e.cause);
  }
  for (const e of clientEvents) {
    expect(["sent", "late-response", "ignored"]).toContain(e.type);
    if (e.type === "ignored") expect(["malformed", "unknown-request"]).toContain(e.cause);
  }
  if (!closed) {
    expect(ignoredBy(serverEvents)).toEqual(injected.filter((i) => i.to === "server").map((i) => i.cause).sort());
    expect(ignoredBy(clientEvents)).toEqual(injected.filter((i) => i.to === "client").map((i) => i.cause).sort());
    for (const id of cancelIds) {
      const about = serverEvents.filter((e) => (e.type === "received" || (e.type === "ignored" && e.cause === "finished")) && e.requestId === id);
      expect(about, `server's view of the cancel of ${String(id)}`).toHaveLength(1);
      expect(pair.serverWire.responsesTo(id)).toHaveLength(about[0]?.type === "received" ? 0 : 1);
    }
    // Every request that reached the server got a response or was cancelled.
    for (const call of calls) {
      const id = wireIdOf(call.tag);
      if (id !== undefined) expect(pair.serverWire.responsesTo(id).length + (receivedIds.includes(id) ? 1 : 0), `call ${call.tag}`).toBe(1);
    }
  }

  // --- nothing escaped, nothing left behind ---------------------------------------------------
  expect(errors).toEqual([]);
  expect(escaped).toEqual([]);
  expect(running).toBe(0);
  expect(startedAborted, "handlers started although already cancelled").toEqual([]);
  expect(pair.client.inFlight).toEqual({ sent: 0, received: 0 });
  expect(pair.server.inFlight).toEqual({ sent: 0, received: 0 });
  await pair.client.close();
}

const scenario = (ops: fc.Arbitrary<Op[]>): fc.Arbitrary<Scenario> =>
  fc.record({ ops, latency: fc.option(fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 1, maxLength: 8 }), { nil: undefined, freq: 2 }) });

describe("property: random interleavings of calls, aborts, timeouts, bogus cancels and closes", () => {
  it("keeps every cancellation invariant", async () => {
    await fc.assert(
      fc.asyncProperty(scenario(fc.array(opArb, { minLength: 1, maxLength: 20 })), run),
      { numRuns: 80 },
    );
  });

  it("keeps them under heavy cancellation: every call is aborted or timed out at some point", async () => {
    const cancelledCall = callOp.map((op): CallOp => (op.abort === undefined && op.timeoutMs === undefined ? { ...op, abort: { when: "after", ms: op.ticks % 4 } } : op));
    const ops = fc.array(
      fc.oneof(
        { arbitrary: cancelledCall as fc.Arbitrary<Op>, weight: 5 },
        { arbitrary: fc.record({ kind: fc.constant("wait" as const), ms: fc.integer({ min: 0, max: 2 }) }) as fc.Arbitrary<Op>, weight: 3 },
        { arbitrary: opArb, weight: 2 },
      ),
      { minLength: 1, maxLength: 20 },
    );
    await fc.assert(
      fc.asyncProperty(scenario(ops), run),
      { numRuns: 60 },
    );
  });
});
