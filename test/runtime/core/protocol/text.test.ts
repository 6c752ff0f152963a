/**
 * The texts of templates/runtime/core/protocol.ts users read: the errors a call rejects with (name,
 * message, code, the fields a caller branches on) and the default log lines of cancellation
 * events ("both parties SHOULD log the reason", Cancellation): each event's exact line, with a
 * peer's values quoted, cut and escaped so one value stays one short line.
 */
import { describe, expect, it } from "vitest";
import {
  CancellationForbiddenError,
  ConnectionClosedError,
  describeCancellation,
  describeValue,
  ErrorCode,
  logText,
  RequestCancelledError,
  RequestEndedByPeerError,
  RequestTimeoutError,
} from "../../../../templates/runtime/core/protocol.js";

describe("errors a call rejects with", () => {
  it("a cancel by the caller: AbortError, the reason in the message only when it is a string, kept untouched", () => {
    const withReason = new RequestCancelledError("tools/call", 3, "user pressed stop");
    expect([withReason.name, withReason.message, withReason.method, withReason.requestId, withReason.reason]).toEqual([
      "AbortError",
      "tools/call was cancelled: user pressed stop",
      "tools/call",
      3,
      "user pressed stop",
    ]);
    const reason = new Error("why");
    const withError = new RequestCancelledError("ping", undefined, reason);
    expect(withError.message).toBe("ping was cancelled");
    expect(withError.reason).toBe(reason);
  });

  it("a timeout: TimeoutError with its own code and the limit in the data", () => {
    const e = new RequestTimeoutError("tools/call", 250);
    expect([e.name, e.message, e.code, e.data, e.timeoutMs]).toEqual(["TimeoutError", "tools/call timed out after 250 ms", ErrorCode.RequestTimeout, { timeoutMs: 250 }, 250]);
  });

  it("the peer ended the request, or the connection closed: named, with the method (and the reason when given)", () => {
    const ended = new RequestEndedByPeerError("subscriptions/listen", "s-1", "server shutting down");
    expect([ended.name, ended.message, ended.reason]).toEqual(["RequestEndedByPeerError", "the peer ended subscriptions/listen (id s-1): server shutting down", "server shutting down"]);
    expect(new RequestEndedByPeerError("subscriptions/listen", 7, undefined).message).toBe("the peer ended subscriptions/listen (id 7)");
    const closed = new ConnectionClosedError("ping");
    expect([closed.name, closed.message, closed.code]).toEqual(["ConnectionClosedError", "connection closed while ping was pending", ErrorCode.ConnectionClosed]);
  });

  it("a refused cancel says why and what to do instead", () => {
    const text = (why: ConstructorParameters<typeof CancellationForbiddenError>[1]) => new CancellationForbiddenError("initialize", why).message;
    expect(text("uncancellable")).toBe('initialize must not be cancelled (Cancellation: "The initialize request MUST NOT be cancelled by clients"); pass no signal');
    expect(text("task-augmented")).toBe("initialize is task-augmented: cancel it with tasks/cancel (cancelTask), not a signal");
    expect(text("not-permitted")).toBe("this side may not cancel initialize under this revision's cancellation rules (see RULES in catalog.ts)");
    expect(text("not-in-flight")).toBe(
      "initialize: notifications/cancelled may only name a request this side issued that is still in flight (Cancellation, Behavior Requirements 1)",
    );
    expect(new CancellationForbiddenError("initialize", "uncancellable").name).toBe("CancellationForbiddenError");
  });
});

describe("log lines of cancellation events", () => {
  it("one line per event type, with the reason (or that none was given)", () => {
    const lines = [
      describeCancellation("client", { type: "sent", requestId: 1, method: "tools/call", reason: "user", cause: "abort" }),
      describeCancellation("client", { type: "sent", requestId: 2, method: "tools/call", reason: "slow", cause: "timeout", via: "stream-close" }),
      describeCancellation("server", { type: "sent", requestId: "l", method: "subscriptions/listen", reason: "bye", cause: "end" }),
      describeCancellation("client", { type: "timeout-local", requestId: 0, method: "initialize" }),
      describeCancellation("server", { type: "received", requestId: 4, method: "tools/call", reason: "stop" }),
      describeCancellation("server", { type: "received", requestId: 5, method: "tools/call", reason: undefined }),
      describeCancellation("client", { type: "ended", requestId: 6, method: "subscriptions/listen", reason: "done" }),
      describeCancellation("server", { type: "ignored", cause: "unknown-request", requestId: 99, reason: "late" }),
      describeCancellation("server", { type: "ignored", cause: "finished", requestId: { not: "an id" }, reason: 42 }),
      describeCancellation("client", { type: "late-response", requestId: 8 }),
      describeCancellation("client", { type: "late-task", requestId: 9, taskId: "t-1", method: "tasks/cancel" }),
    ];
    expect(lines).toEqual([
      "[mcp client] cancelled tools/call (id 1) on abort: user",
      "[mcp client] cancelled tools/call (id 2) on timeout by closing its stream: slow",
      "[mcp server] ended subscriptions/listen (id l): bye",
      "[mcp client] initialize (id 0) timed out; not cancelled on the wire (uncancellable)",
      "[mcp server] peer cancelled tools/call (id 4): stop",
      "[mcp server] peer cancelled tools/call (id 5): no reason given",
      "[mcp client] peer ended subscriptions/listen (id 6): done",
      "[mcp server] ignored a cancellation (unknown-request) for id 99: late",
      "[mcp server] ignored a cancellation (finished) for id an object",
      "[mcp client] ignored a response to cancelled request 8",
      "[mcp client] cancelled request 9 came back as task t-1: sent tasks/cancel for it",
    ]);
  });

  it("a peer's reason and ids are cut to 200 characters and escaped onto one line", () => {
    const long = "x".repeat(250);
    const line = describeCancellation("server", { type: "received", requestId: "a\nb", method: "tools/call", reason: `${long}\n[mcp server] forged` });
    expect(line).toBe(`[mcp server] peer cancelled tools/call (id a\\u000ab): ${"x".repeat(200)}…`);
    expect(line.split("\n")).toHaveLength(1);
    expect(logText("x".repeat(200))).toBe("x".repeat(200));
    expect(logText("tab\there\u2028")).toBe("tab\\u0009here\\u2028");
  });

  it("describeValue names any value in bounded work, quoting and cutting strings", () => {
    expect(describeValue("x".repeat(201))).toBe(JSON.stringify(`${"x".repeat(200)}…`));
    expect(describeValue("x".repeat(200))).toBe(JSON.stringify("x".repeat(200)));
    expect([1.5, true, 10n, undefined, Symbol("s"), () => 1, null, [1], { a: 1 }].map(describeValue)).toEqual([
      "1.5",
      "true",
      "10",
      "undefined",
      "a symbol",
      "a function",
      "null",
      "an array",
      "an object",
    ]);
  });
});
