// Server-sent events as the clients read them: the one SSE parser of the runtime (every HTTP
// client transport reads its response streams with it; the servers' writer is
// server/sse-stream.ts). The format is
// WHATWG HTML, "Server-sent events", 9.2.6 "Interpreting an event stream"; MCP puts one JSON-RPC
// message in each event's data (Streamable HTTP, Receiving Messages).
//
// Everything read is untrusted, so it is bounded in bytes, one bound for all: a line, and an
// event's data (its data lines, each with its LF), of more than `max` bytes end the stream.

import { SseLineSplitter } from "./fetch.js";

/** One dispatched event: its type ("message" unless an `event:` field named another) and data. */
export interface SseEvent {
  readonly type: string;
  readonly data: string;
}

/** The field names, each with what its value does to the event being read. */
type FieldName = "data" | "event" | "id" | "retry";
const FIELDS: ReadonlySet<string> = new Set<FieldName>(["data", "event", "id", "retry"]);

/** `retry:` values honoured: ASCII digits only (WHATWG), at most 10 of them (no overflow games). */
const RETRY = /^\d{1,10}$/;

/**
 * An incremental SSE parser. Feed it the body's chunks; it returns the events they complete.
 * Rules (WHATWG "Interpreting an event stream"):
 * - a line starting with `:` is a comment; `field:value` drops one space after the colon; a line
 *   without a colon is a field with an empty value; unknown fields are ignored;
 * - `data` lines are joined with LF; `event` sets the type of the event being read;
 * - `id` sets the last event ID buffer unless its value contains NUL, and the buffer becomes the
 *   stream's `lastEventId` at the next blank line (the dispatch), not before: a stream that
 *   breaks in the middle of an event resumes from the last event received whole;
 * - `retry` with digits only sets `retryMs` at once;
 * - a blank line dispatches. An event whose data is empty is not dispatched: WHATWG drops one
 *   with no data line, and an MCP message is never empty, so an empty `data:` (the priming event
 *   of the 2025-11-25 Resumability section: an id and empty data) only moves `lastEventId`;
 * - a bare `id` line (no colon) is an `id` field with an empty value: it clears the last event ID
 *   buffer, and the ID becomes "" (none: no `Last-Event-ID` is sent) at the next dispatch, not
 *   before; an event cut short leaves the ID of the one before;
 * - one BOM at the very start of the stream is dropped; a BOM anywhere else is text.
 */
export class SseParser {
  readonly #max: number;
  readonly #splitter: SseLineSplitter;
  #data: string[] = [];
  /** Bytes of the data buffer: each data line's value in UTF-8, plus its LF. */
  #dataBytes = 0;
  #type = "";
  #idBuffer: string | undefined;
  /** Whether no line was read yet: a BOM opening the stream is dropped (UTF-8 decode), one later is data. */
  #atStart = true;
  /** The last event ID of the stream as of the last dispatch (undefined: none yet; "" resets it). */
  lastEventId: string | undefined;
  /** The stream's reconnection time from its last valid `retry:` field, in ms. */
  retryMs: number | undefined;

  /** `lastEventId`: the ID the stream resumes from (a resumed stream keeps it until the server sends another). */
  constructor(max: number, lastEventId?: string | undefined) {
    this.#max = max;
    this.#splitter = new SseLineSplitter(max);
    this.lastEventId = lastEventId;
    this.#idBuffer = lastEventId;
  }

  /** The events `bytes` completes, in order; `problem` when a line or an event went over the bound (stop reading). */
  push(bytes: Uint8Array): { readonly events: readonly SseEvent[]; readonly problem: string | null } {
    const events: SseEvent[] = [];
    const { lines, tooLong } = this.#splitter.push(bytes);
    for (const line of lines) {
      let { text, bytes: size } = line;
      if (this.#atStart) {
        this.#atStart = false;
        if (text.startsWith("\uFEFF")) {
          text = text.slice(1);
          size -= 3;
        }
      }
      if (text === "") {
        const event = this.#dispatch();
        if (event !== null) events.push(event);
        continue;
      }
      if (text.startsWith(":")) continue;
      const colon = text.indexOf(":");
      const field = colon < 0 ? text : text.slice(0, colon);
      if (!FIELDS.has(field)) continue;
      const skip = colon < 0 ? text.length : text.charCodeAt(colon + 1) === 0x20 ? colon + 2 : colon + 1;
      const value = text.slice(skip);
      switch (field as FieldName) {
        case "data":
          // The field name and separator are ASCII: the value's bytes are the line's minus `skip`.
          this.#dataBytes += size - skip + 1;
          if (this.#dataBytes > this.#max) return { events, problem: `an SSE event exceeds ${this.#max} bytes` };
          this.#data.push(value);
          break;
        case "event":
          this.#type = value;
          break;
        case "id":
          if (!value.includes("\0")) this.#idBuffer = value;
          break;
        case "retry":
          if (RETRY.test(value)) this.retryMs = Number(value);
          break;
      }
    }
    return { events, problem: tooLong ? `an SSE line exceeds ${this.#max} bytes` : null };
  }

  #dispatch(): SseEvent | null {
    this.lastEventId = this.#idBuffer;
    const data = this.#data.join("\n");
    const type = this.#type === "" ? "message" : this.#type;
    this.#data = [];
    this.#dataBytes = 0;
    this.#type = "";
    return data === "" ? null : { type, data };
  }
}

/** Why readSse stopped: the body ended, `onEvent` asked to stop, the read failed, or the bound was crossed. */
export type SseEnd =
  | { readonly kind: "ended" }
  | { readonly kind: "stopped" }
  | { readonly kind: "broken"; readonly error: unknown }
  | { readonly kind: "too-large"; readonly problem: string };

/**
 * Reads an SSE body to its end through `parser`, handing each event to `onEvent` (true: stop
 * reading). The body is cancelled when the read stops early (a stop, the bound, or a throw
 * from `onEvent`, which then propagates).
 */
export async function readSse(reader: ReadableStreamDefaultReader<Uint8Array>, parser: SseParser, onEvent: (event: SseEvent) => boolean): Promise<SseEnd> {
  const cancel = () => reader.cancel().catch(() => {});
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (error) {
      return { kind: "broken", error };
    }
    if (chunk.done) return { kind: "ended" };
    const { events, problem } = parser.push(chunk.value);
    for (const event of events) {
      let stop: boolean;
      try {
        stop = onEvent(event);
      } catch (error) {
        await cancel();
        throw error;
      }
      if (stop) {
        await cancel();
        return { kind: "stopped" };
      }
    }
    if (problem !== null) {
      await cancel();
      return { kind: "too-large", problem };
    }
  }
}
