// The one SSE writer of the HTTP servers: a request's stream (2026-07-28 and the session
// revisions), a session's GET stream, an HTTP+SSE session's stream. The format is WHATWG HTML,
// "Server-sent events"; MCP puts one JSON-RPC message in each event's data (Streamable HTTP,
// Receiving Messages). The parser of the clients is sse.ts.
//
// Backpressure: `room()` resolves while fewer than the high-water mark's bytes wait unread, so a
// sender that awaits its sends never piles up more; a write that would take a stream that
// already holds unread bytes past `maxBuffered` ends the stream (its client stopped reading), and
// what waited is dropped with it. One message larger than the bound still goes through an empty
// stream. Idle streams get a comment line every `keepAliveMs`.

import { isObject } from "../../core/json.js";
import type { HttpCall, ResponseBody, ResponseHeaders } from "./call.js";

/** The headers of an SSE response. */
export const SSE_HEADERS: ResponseHeaders = Object.freeze({
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
  // Streamable HTTP, Receiving Messages: servers SHOULD send it so that proxies do not buffer the stream.
  "x-accel-buffering": "no",
});

/** A comment line: keeps an idle stream open through intermediaries. */
export const SSE_KEEP_ALIVE: string = ":\n\n";

/** Unread bytes of a stream at which its sends start to wait for the client. */
export const STREAM_HIGH_WATER_BYTES: number = 64 * 1024;

/** One event carrying `data` (a message's JSON): a `data:` line per line of it, then the blank line that dispatches. */
export function sseEvent(data: string): string {
  if (!/[\r\n]/.test(data)) return `data: ${data}\n\n`;
  return `${data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join("")}\n`;
}

/** An event with an id (what a client resumes from); `data` "" is a priming event, with `retry:` (2025-11-25 HTTP, Resumability). */
export function sseEventWithId(id: string | undefined, data: string, retryMs: number): string {
  if (id === undefined) return sseEvent(data);
  return data === "" ? `id: ${id}\nretry: ${retryMs}\ndata: \n\n` : `id: ${id}\n${sseEvent(data)}`;
}

/** The bounds of one stream. */
export interface SseLimits {
  /** Comment lines on an idle stream every this many ms; 0: none. */
  readonly keepAliveMs: number;
  /** Unread bytes past which a write ends the stream. */
  readonly maxBuffered: number;
}

/** Why a stream ended on its client's side: it went away, or it left `maxBuffered` bytes unread (the number). */
export type StreamGone = { readonly overflow: false } | { readonly overflow: true; readonly unread: number };

const CLOSED: StreamGone = Object.freeze({ overflow: false });
const RESOLVED: Promise<void> = Promise.resolve();
const encoder = new TextEncoder();

/** Node: a timer alone does not keep the process alive. */
export function unref(timer: unknown): void {
  if (isObject(timer) && typeof timer["unref"] === "function") (timer["unref"] as () => void).call(timer);
}

/**
 * One open SSE response. It owns the call's `onclose`: the client going away, or overflowing the
 * bound, runs `onGone` once (not after the server's own close).
 */
export class SseStream {
  readonly #body: ResponseBody;
  readonly #limits: SseLimits;
  readonly #highWater: number;
  readonly #onGone: (gone: StreamGone) => void;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #waiting: (() => void)[] = [];
  #open = true;

  constructor(call: HttpCall, headers: ResponseHeaders | undefined, limits: SseLimits, onGone: (gone: StreamGone) => void) {
    this.#limits = limits;
    this.#highWater = Math.min(STREAM_HIGH_WATER_BYTES, limits.maxBuffered);
    this.#onGone = onGone;
    this.#body = call.stream(200, headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...headers }, this.#highWater);
    this.#body.ondrain = () => this.#wake();
    call.onclose = () => this.#gone(CLOSED);
    if (limits.keepAliveMs > 0) {
      // A comment only on an idle stream: one with unread data needs none, and a client that does
      // not read must not be sent more.
      const timer = setInterval(() => {
        if (this.#body.buffered === 0) this.write(SSE_KEEP_ALIVE);
      }, limits.keepAliveMs);
      unref(timer); // an open stream alone does not keep the process alive
      this.#keepAlive = timer;
    }
  }

  /** Whether the stream is still open (neither closed by the server nor gone on the client's side). */
  get open(): boolean {
    return this.#open;
  }

  /** Bytes written that the client has not taken yet. */
  get buffered(): number {
    return this.#body.buffered;
  }

  /** Writes SSE text (an event, a comment); false when the stream is not open or this write overflowed it. */
  write(text: string): boolean {
    if (!this.#open) return false;
    const bytes = encoder.encode(text);
    const unread = this.#body.buffered;
    if (unread > 0 && unread + bytes.byteLength > this.#limits.maxBuffered) {
      this.#stop();
      this.#body.abort();
      this.#onGone({ overflow: true, unread });
      return false;
    }
    this.#body.write(bytes);
    return true;
  }

  /** Resolves once fewer than the high-water mark's bytes wait unread, or the stream is over. */
  room(): Promise<void> {
    if (!this.#open || this.#body.buffered < this.#highWater) return RESOLVED;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** The server ends the stream: what was written is delivered, then the response ends. */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    this.#body.end();
  }

  #gone(gone: StreamGone): void {
    if (!this.#open) return;
    this.#stop();
    this.#onGone(gone);
  }

  #stop(): void {
    this.#open = false;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#wake();
  }

  #wake(): void {
    if (this.#waiting.length === 0) return;
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
