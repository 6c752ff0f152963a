// Newline-delimited JSON over a pair of byte streams (Transports, stdio: "Messages are
// delimited by newlines, and MUST NOT contain embedded newlines"). Kept out of index.ts so
// browser builds can leave it out; works with Node's process.stdin/stdout or a child's pipes.
//
// Incoming: lines are framed on bytes (0x0A never occurs inside a multi-byte UTF-8 sequence),
// so a character split across chunks is decoded whole, and each byte is scanned once: the
// pieces of an unfinished line are kept in a list and joined only when its newline arrives.
// A line longer than `maxMessageBytes` is not buffered: its bytes are dropped up to the next
// newline, the peer gets one -32600 error with id null, and reading goes on. A line whose arrays
// and objects nest deeper than `maxJsonDepth` is not parsed (core/json-depth.ts: one pass over
// its bytes, where JSON.parse of 2 M nested arrays takes seconds): -32700 with id null.
//
// Outgoing: `write()` returning false means the peer is not reading. Further messages wait,
// in order, for the output's "drain", and at most `maxQueuedBytes` of them wait: beyond that
// `send` rejects, so a peer that stops reading cannot grow this process without limit.
//
// Batches (JSON arrays) are handed to onmessage as they are: only MCP 2025-03-26 has them, and a
// transport cannot know the revision; the endpoint receives them where its revision has them and
// refuses them elsewhere (core/batch.ts). Any other JSON value that is not an object gets a
// -32600 Invalid Request error with id null.

import { ErrorCode, type JsonRpcMessage, type OutgoingMessage, type Transport, type TransportSendOptions } from "../core/protocol.js";
import { DEFAULT_MAX_MESSAGE_DEPTH, maxJsonDepthOption, nestsDeeperThan } from "../core/json-depth.js";
import { utf8Length } from "../core/json.js";
import { numberOption } from "../core/options.js";

/** The parts of a Node Readable this transport uses. */
export interface ByteSource {
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end" | "close", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  removeListener(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  removeListener(event: "end" | "close", listener: () => void): unknown;
  removeListener(event: "error", listener: (error: Error) => void): unknown;
}

/** The parts of a Node Writable this transport uses. */
export interface ByteSink {
  /** Returns false when the sink's buffer is full: the transport then waits for "drain". */
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
  /** A failed write (EPIPE, write after end) is reported here; listened to so it cannot crash the process. */
  on?(event: "error", listener: (error: Error) => void): unknown;
  /** Without it the transport cannot wait for "drain" and writes everything at once. */
  once?(event: "drain", listener: () => void): unknown;
  removeListener?(event: "error", listener: (error: Error) => void): unknown;
  removeListener?(event: "drain", listener: () => void): unknown;
}

export interface StdioTransportOptions {
  input: ByteSource;
  output: ByteSink;
  /**
   * The longest incoming message, in bytes of UTF-8 without its line end (default
   * DEFAULT_MAX_MESSAGE_BYTES, 4 MiB). A longer line is skipped, never buffered whole.
   */
  maxMessageBytes?: number | undefined;
  /**
   * How many bytes of outgoing messages may wait while the output is not draining (default
   * DEFAULT_MAX_QUEUED_BYTES, 8 MiB). A send that would queue more rejects; one message is
   * always accepted when nothing waits, whatever its size.
   */
  maxQueuedBytes?: number | undefined;
  /**
   * Deepest nesting of arrays and objects in an incoming message (default 1000, from 8 to
   * 100 000). A deeper line is answered -32700 (id null) before it is parsed, and skipped.
   */
  maxJsonDepth?: number | undefined;
}

/** Default `maxMessageBytes`: 4 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES: number = 4 * 1024 * 1024;
/** Default `maxQueuedBytes`: 8 MiB. */
export const DEFAULT_MAX_QUEUED_BYTES: number = 8 * 1024 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const encoder = new TextEncoder();

/** One outgoing message waiting for the output to drain. */
interface Queued {
  readonly text: string;
  readonly bytes: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

const positiveLimit = (value: number | undefined, fallback: number, name: string): number => numberOption(name, value, fallback, { min: 1 });

export class StdioTransport implements Transport {
  readonly #input: ByteSource;
  readonly #output: ByteSink;
  readonly #decoder = new TextDecoder();
  readonly #maxMessageBytes: number;
  readonly #maxQueuedBytes: number;
  readonly #maxJsonDepth: number;
  /** The unfinished line: copies of its pieces so far (no newline in them) and their total size. */
  #pieces: Uint8Array[] = [];
  #pieceBytes = 0;
  /** The current line went past maxMessageBytes: its bytes are dropped up to the next newline. */
  #discarding = false;
  /** The output returned false from write(): sends queue until its "drain". */
  #blocked = false;
  /** Messages waiting for "drain", oldest first from #queueHead (entries before it are sent). */
  #queue: Array<Queued | undefined> = [];
  #queueHead = 0;
  #queuedBytes = 0;
  /** The input ended after a last line without a newline; the close is scheduled. */
  #ending = false;
  #closed = false;
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;

  constructor(options: StdioTransportOptions) {
    this.#input = options.input;
    this.#output = options.output;
    this.#maxMessageBytes = positiveLimit(options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, "maxMessageBytes");
    this.#maxQueuedBytes = positiveLimit(options.maxQueuedBytes, DEFAULT_MAX_QUEUED_BYTES, "maxQueuedBytes");
    this.#maxJsonDepth = maxJsonDepthOption(options.maxJsonDepth, DEFAULT_MAX_MESSAGE_DEPTH);
  }

  async start(): Promise<void> {
    this.#input.on("data", this.#onData);
    this.#input.on("end", this.#onEnd);
    // "close" also covers an input destroyed or broken without ending (ECONNRESET), which must
    // close the transport all the same.
    this.#input.on("close", this.#onInputClose);
    this.#input.on("error", this.#onError);
    this.#output.on?.("error", this.#onOutputError);
  }

  send(message: OutgoingMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("transport closed"));
    return new Promise((resolve, reject) => {
      const text = `${JSON.stringify(message)}\n`;
      // Straight out only when nothing waits: a send made while the queue is being flushed
      // (from the sink's own write) goes behind it, never ahead.
      if (!this.#blocked && this.#queueHead === this.#queue.length) return this.#write(text, resolve, reject);
      // The peer is not reading: wait in line, unless that would hold more than allowed.
      const bytes = utf8Length(text);
      if (this.#queueHead < this.#queue.length && this.#queuedBytes + bytes > this.#maxQueuedBytes) {
        reject(
          new Error(`stdio output is not draining: ${this.#queuedBytes} bytes already wait and ${bytes} more would exceed maxQueuedBytes (${this.#maxQueuedBytes})`),
        );
        return;
      }
      this.#queue.push({ text, bytes, resolve, reject });
      this.#queuedBytes += bytes;
    });
  }

  /** Stops reading; messages still waiting for "drain" are rejected ("transport closed"). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.removeListener("data", this.#onData);
    this.#input.removeListener("end", this.#onEnd);
    this.#input.removeListener("close", this.#onInputClose);
    this.#input.removeListener("error", this.#onError);
    this.#output.removeListener?.("error", this.#onOutputError);
    this.#pieces = [];
    this.#pieceBytes = 0;
    this.#unblock(new Error("transport closed"));
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  }

  /** Hands one line to the output; a false return blocks later sends until "drain". */
  #write(text: string, resolve: () => void, reject: (error: unknown) => void): void {
    let ready: boolean;
    try {
      ready = this.#output.write(text, (error) => (error ? reject(error) : resolve()));
    } catch (error) {
      reject(error);
      return;
    }
    if (!ready && !this.#blocked && this.#output.once !== undefined) {
      this.#blocked = true;
      this.#output.once("drain", this.#onDrain);
    }
  }

  readonly #onDrain = (): void => {
    this.#blocked = false;
    // Oldest first, until the output is full again.
    while (!this.#blocked && this.#queueHead < this.#queue.length) {
      const next = this.#queue[this.#queueHead];
      this.#queue[this.#queueHead++] = undefined; // sent: let it be collected
      if (next === undefined) continue;
      this.#queuedBytes -= next.bytes;
      this.#write(next.text, next.resolve, next.reject);
    }
    // Drop the sent entries once they are half the array: amortised O(1) per message, and a
    // queue that never quite empties does not grow.
    if (this.#queueHead * 2 >= this.#queue.length) {
      this.#queue = this.#queue.slice(this.#queueHead);
      this.#queueHead = 0;
    }
  };

  /** Stops waiting for "drain" and rejects every waiting message with `error`. */
  #unblock(error: Error): void {
    if (this.#blocked) this.#output.removeListener?.("drain", this.#onDrain);
    this.#blocked = false;
    const waiting = this.#queue.slice(this.#queueHead);
    this.#queue = [];
    this.#queueHead = 0;
    this.#queuedBytes = 0;
    for (const queued of waiting) queued?.reject(error);
  }

  readonly #onData = (chunk: Uint8Array | string): void => {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    let start = 0;
    while (start < bytes.length && !this.#closed) {
      const newline = bytes.indexOf(NEWLINE, start);
      if (newline < 0) {
        this.#append(bytes, start, bytes.length);
        return;
      }
      if (this.#pieces.length === 0 && !this.#discarding) {
        // The common case, a whole line inside one chunk: no copy.
        this.#frame(bytes.subarray(start, newline));
      } else {
        this.#append(bytes, start, newline);
        this.#endLine();
      }
      start = newline + 1;
    }
  };

  /** Adds bytes [start, end) of a chunk to the unfinished line, or drops them once it is too long. */
  #append(bytes: Uint8Array, start: number, end: number): void {
    if (this.#discarding || start === end) return;
    // One byte of slack for the "\r" of a CRLF line end, which is not part of the message.
    if (this.#pieceBytes + (end - start) > this.#maxMessageBytes + 1) {
      this.#pieces = [];
      this.#pieceBytes = 0;
      this.#discarding = true;
      this.#tooLong();
      return;
    }
    // A copy: the chunk may be a view on a larger pooled buffer, or reused by its producer.
    // (Not bytes.slice: on a Node Buffer that is a view, not a copy.)
    this.#pieces.push(new Uint8Array(bytes.subarray(start, end)));
    this.#pieceBytes += end - start;
  }

  /** The newline of the unfinished line arrived (its last piece already appended). */
  #endLine(): void {
    if (this.#discarding) {
      this.#discarding = false; // already answered; the next line starts clean
      return;
    }
    const pieces = this.#pieces;
    this.#pieces = [];
    const total = this.#pieceBytes;
    this.#pieceBytes = 0;
    if (pieces.length === 1) return this.#frame(pieces[0] as Uint8Array);
    const line = new Uint8Array(total);
    let offset = 0;
    for (const piece of pieces) {
      line.set(piece, offset);
      offset += piece.length;
    }
    this.#frame(line);
  }

  /** One complete line of bytes, without its "\n". */
  #frame(bytes: Uint8Array): void {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    if (end > this.#maxMessageBytes) return this.#tooLong();
    if (nestsDeeperThan(bytes.subarray(0, end), this.#maxJsonDepth)) return this.#tooDeep();
    const line = this.#decoder.decode(bytes.subarray(0, end));
    if (line.trim() !== "") this.#line(line);
  }

  #tooLong(): void {
    const limit = this.#maxMessageBytes;
    this.#sendQuietly(ErrorCode.InvalidRequest, `Invalid Request: message exceeds ${limit} bytes`);
    this.#report(new Error(`incoming message exceeds maxMessageBytes (${limit}); skipped up to the next newline`));
  }

  /** JSON-RPC 2.0: a message that cannot be parsed gets a Parse error with a null id; this one is not even tried. */
  #tooDeep(): void {
    const limit = this.#maxJsonDepth;
    this.#sendQuietly(ErrorCode.ParseError, `Parse error: the message nests deeper than ${limit} levels`);
    this.#report(new Error(`incoming message nests deeper than maxJsonDepth (${limit}); skipped`));
  }

  /**
   * The input ended. A last line without a newline is still a message: it is delivered, and the
   * transport closes a macrotask later, so a handler that answers at once still can (as after a
   * line with its newline, whose "end" comes a tick after it).
   */
  readonly #onEnd = (): void => {
    if (this.#closed || this.#ending) return;
    if (this.#discarding || this.#pieceBytes === 0) return void this.close();
    this.#ending = true;
    this.#endLine();
    setTimeout(() => void this.close(), 0);
  };

  /** The input closed, cleanly after "end" or broken: a partial line cannot be trusted then. */
  readonly #onInputClose = (): void => {
    if (this.#closed || this.#ending) return;
    if (this.#pieceBytes > 0) this.#report(new Error(`input closed in the middle of a message; ${this.#pieceBytes} bytes dropped`));
    void this.close();
  };

  readonly #onError = (error: Error): void => {
    this.#report(error);
  };

  /** The output failed (EPIPE, destroyed): messages waiting for its "drain" never go out. */
  readonly #onOutputError = (error: Error): void => {
    this.#unblock(error);
    this.#report(error);
  };

  /** onerror is user code: it must not break reading. */
  #report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // Nowhere left to report it.
    }
  }

  /** A JSON-RPC error with id null (the request id could not be read). */
  #sendQuietly(code: number, message: string): void {
    this.send({ jsonrpc: "2.0", id: null, error: { code, message } }).catch(() => {});
  }

  #line(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      // JSON-RPC 2.0: invalid JSON gets a Parse error response with a null id.
      this.#sendQuietly(ErrorCode.ParseError, "Parse error");
      this.#report(new Error(`unparsable message: ${line.slice(0, 200)}`));
      return;
    }
    if (typeof message !== "object" || message === null) {
      this.#sendQuietly(ErrorCode.InvalidRequest, "Invalid Request: a message must be a JSON object");
      this.#report(new Error(`not a JSON-RPC message: ${line.slice(0, 200)}`));
      return;
    }
    try {
      this.onmessage?.(message as JsonRpcMessage);
    } catch (error) {
      this.#report(error);
    }
  }
}
