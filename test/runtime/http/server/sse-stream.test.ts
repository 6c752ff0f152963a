/**
 * templates/runtime/http/server/sse-stream.ts: the one SSE writer, on a fake HttpCall whose
 * response body (fake-call.ts) reports the unread bytes the test sets. The event format
 * (sseEvent, sseEventWithId: data lines, ids, the priming event); SseStream: the head it opens,
 * `room()` (open while fewer than the high-water mark's bytes wait unread; waits for the drain;
 * freed when the stream ends), the overflow (a write that would take a stream holding unread
 * bytes past maxBuffered ends it, one oversize message still goes through an empty stream), the
 * client going away (onGone once; not after the server's own close), and keep-alive comments on
 * an idle stream only (fake timers).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SSE_HEADERS, SSE_KEEP_ALIVE, sseEvent, sseEventWithId, SseStream, STREAM_HIGH_WATER_BYTES, type StreamGone } from "../../../../templates/runtime/http/server/sse-stream.js";
import { FakeCall, type FakeBody } from "./fake-call.js";

describe("the event format", () => {
  it("sseEvent: one data line, or one per line of the data (\\n, \\r\\n and \\r alike), then the blank line", () => {
    expect(sseEvent('{"a":1}')).toBe('data: {"a":1}\n\n');
    expect(sseEvent("")).toBe("data: \n\n");
    expect(sseEvent("a\nb\r\nc\rd")).toBe("data: a\ndata: b\ndata: c\ndata: d\n\n");
    expect(sseEvent("a\n")).toBe("data: a\ndata: \n\n");
  });

  it("sseEventWithId: an id line before the data; the priming event (data \"\") carries retry; no id: a plain event", () => {
    expect(sseEventWithId("s.1", '{"a":1}', 1000)).toBe('id: s.1\ndata: {"a":1}\n\n');
    expect(sseEventWithId("s.0", "", 2500)).toBe("id: s.0\nretry: 2500\ndata: \n\n");
    expect(sseEventWithId(undefined, "x", 1000)).toBe("data: x\n\n");
  });

  it("the headers of an SSE response and the keep-alive comment", () => {
    expect(SSE_HEADERS).toEqual({ "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" });
    expect(Object.isFrozen(SSE_HEADERS)).toBe(true);
    expect(SSE_KEEP_ALIVE).toBe(":\n\n");
    expect(STREAM_HIGH_WATER_BYTES).toBe(64 * 1024);
  });
});

/** A stream on a fake call: the call, its body, what onGone was told. */
function open(limits: { keepAliveMs?: number; maxBuffered?: number } = {}, headers?: Record<string, string>) {
  const call = new FakeCall({ method: "GET" });
  const gone: StreamGone[] = [];
  const stream = new SseStream(call, headers, { keepAliveMs: limits.keepAliveMs ?? 0, maxBuffered: limits.maxBuffered ?? 4096 }, (g) => void gone.push(g));
  const answered = call.answers[0]!;
  if (answered.kind !== "stream") throw new Error("no stream");
  return { call, stream, gone, answered, body: answered.body as FakeBody };
}

/** Whether `promise` has settled by now (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe("SseStream", () => {
  it("opens a 200 with the SSE headers (and the server's own beside them), the high-water mark the smaller of 64 KiB and maxBuffered", () => {
    const small = open({ maxBuffered: 2048 }, { "mcp-session-id": "s1" });
    expect(small.answered).toMatchObject({ status: 200, headers: { ...SSE_HEADERS, "mcp-session-id": "s1" }, highWater: 2048 });
    expect(open({ maxBuffered: 1024 * 1024 }).answered).toMatchObject({ headers: SSE_HEADERS, highWater: 64 * 1024 });
    expect(small.call.onclose).toBeTypeOf("function");
    expect(small.body.ondrain).toBeTypeOf("function");
  });

  it("writes UTF-8 bytes while open; write and close after close do nothing", () => {
    const { stream, body, gone } = open();
    expect(stream.write(sseEvent('"名前"'))).toBe(true);
    expect(body.writes).toEqual(['data: "名前"\n\n']);
    expect(stream.buffered).toBe(new TextEncoder().encode('data: "名前"\n\n').byteLength);
    stream.close();
    expect([stream.open, body.ended]).toEqual([false, 1]);
    expect(stream.write("data: late\n\n")).toBe(false);
    stream.close();
    expect([body.writes.length, body.ended, body.aborted, gone]).toEqual([1, 1, 0, []]);
  });

  describe("the bound on unread bytes (maxBuffered)", () => {
    it("a write that would take a stream with unread bytes past it ends the stream: aborted, onGone with the unread count, false", () => {
      const { stream, body, gone } = open({ maxBuffered: 1024 });
      expect(stream.write("x".repeat(600))).toBe(true);
      expect(stream.write("y".repeat(424))).toBe(true); // 1024: at the bound, not past it
      expect(stream.write("z")).toBe(false);
      expect(gone).toEqual([{ overflow: true, unread: 1024 }]);
      expect([stream.open, body.aborted, body.ended, body.writes.length]).toEqual([false, 1, 0, 2]);
      expect(stream.write("more")).toBe(false);
      expect(gone).toHaveLength(1);
    });

    it("one message larger than the bound goes through an empty stream; the next write, finding it unread, ends the stream", () => {
      const { stream, body, gone } = open({ maxBuffered: 1024 });
      expect(stream.write("x".repeat(5000))).toBe(true);
      expect(body.buffered).toBe(5000);
      expect(stream.write("y")).toBe(false);
      expect(gone).toEqual([{ overflow: true, unread: 5000 }]);
    });

    it("bytes the client took free the bound again", () => {
      const { stream, body, gone } = open({ maxBuffered: 1024 });
      expect(stream.write("x".repeat(1000))).toBe(true);
      body.drain();
      expect(stream.write("y".repeat(1000))).toBe(true);
      expect(gone).toEqual([]);
    });
  });

  describe("room()", () => {
    it("resolved at once while fewer than the high-water mark's bytes wait unread", async () => {
      const { stream, body } = open({ maxBuffered: 2048 });
      expect(await settled(stream.room())).toBe(true);
      body.buffered = 2047;
      expect(await settled(stream.room())).toBe(true);
    });

    it("at the high-water mark: waits for the drain, every waiter woken by it", async () => {
      const { stream, body } = open({ maxBuffered: 2048 });
      body.buffered = 2048;
      const first = stream.room();
      const second = stream.room();
      expect([await settled(first), await settled(second)]).toEqual([false, false]);
      body.drain();
      expect([await settled(first), await settled(second)]).toEqual([true, true]);
    });

    it("a stream that ends frees its waiters: the server's close, the client's going away, an overflow", async () => {
      for (const end of ["close", "gone", "overflow"] as const) {
        const { stream, body, call } = open({ maxBuffered: 2048 });
        body.buffered = 2048;
        const waiting = stream.room();
        if (end === "close") stream.close();
        else if (end === "gone") call.onclose!();
        else stream.write("x");
        expect(await settled(waiting), end).toBe(true);
        expect(await settled(stream.room()), end).toBe(true); // and never waits again
      }
    });
  });

  describe("the client going away", () => {
    it("onGone once, not an overflow; the stream is closed and writes nothing more", () => {
      const { stream, call, gone, body } = open();
      call.onclose!();
      call.onclose!();
      expect(gone).toEqual([{ overflow: false }]);
      expect(stream.open).toBe(false);
      expect(stream.write("data: x\n\n")).toBe(false);
      expect([body.writes, body.ended, body.aborted]).toEqual([[], 0, 0]);
    });

    it("after the server's own close: no onGone", () => {
      const { stream, call, gone } = open();
      stream.close();
      call.onclose!();
      expect(gone).toEqual([]);
    });
  });

  describe("keep-alive (fake timers)", () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it("a comment every keepAliveMs on an idle stream, none while bytes wait unread, none after close", () => {
      const { stream, body } = open({ keepAliveMs: 1000 });
      body.counts = false; // a client that reads everything at once
      vi.advanceTimersByTime(999);
      expect(body.writes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(body.writes).toEqual([SSE_KEEP_ALIVE]);
      vi.advanceTimersByTime(2000);
      expect(body.writes).toEqual([SSE_KEEP_ALIVE, SSE_KEEP_ALIVE, SSE_KEEP_ALIVE]);
      body.buffered = 10; // the client has not read: it needs no comment, and must not be sent more
      vi.advanceTimersByTime(5000);
      expect(body.writes).toHaveLength(3);
      body.buffered = 0;
      stream.close();
      vi.advanceTimersByTime(5000);
      expect(body.writes).toHaveLength(3);
      expect(vi.getTimerCount()).toBe(0);
    });

    it("keepAliveMs 0: no timer at all; a stream that goes away or overflows stops its timer", () => {
      open({ keepAliveMs: 0 });
      expect(vi.getTimerCount()).toBe(0);
      const away = open({ keepAliveMs: 1000 });
      expect(vi.getTimerCount()).toBe(1);
      away.call.onclose!();
      expect(vi.getTimerCount()).toBe(0);
      const over = open({ keepAliveMs: 1000, maxBuffered: 1024 });
      over.stream.write("x".repeat(2000));
      over.stream.write("y");
      expect(vi.getTimerCount()).toBe(0);
    });
  });
});
