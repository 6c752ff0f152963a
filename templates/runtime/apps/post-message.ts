// A transport over window.postMessage, for both sides of an MCP App (io.modelcontextprotocol/ui):
// the host page talks to the app's iframe, the iframe to its parent. Browsers deliver every
// window's messages to one "message" listener, so each message is checked before it is read:
// its origin must be the peer's (exact match) and its source window the peer's, else it is not
// ours and is ignored; a message of the peer that is not one JSON-RPC 2.0 message, or is larger
// than the bound, is dropped and reported. Structural types only (no DOM lib), no Node modules:
// this file runs in a browser.

import { isObject, utf8Length } from "../core/json.js";
import { numberOption } from "../core/options.js";
import type { JsonRpcMessage, OutgoingMessage, Transport, TransportSendOptions } from "../core/protocol.js";

/** Where messages are posted: `window.parent` (app side) or `iframe.contentWindow` (host side). */
export interface PostMessageTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/** A "message" event as the transport reads it (a browser MessageEvent is one). */
export interface MessageEventLike {
  readonly data: unknown;
  readonly origin: string;
  readonly source: unknown;
}

/** Where "message" events arrive (a browser `window`; a fake one in tests). */
export interface MessageEventSource {
  addEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
}

/** Why a message of the peer was dropped, or a send failed. */
export type PostMessageProblemKind = "malformed" | "oversize" | "queue-full" | "send-failed";

export interface PostMessageProblem {
  readonly kind: PostMessageProblemKind;
  /** The origin the message came from (the peer's; "send-failed": the peer origin posted to). */
  readonly origin: string;
  readonly detail: string;
}

export interface PostMessageTransportOptions {
  /** The window messages are posted to. */
  readonly target: PostMessageTarget;
  /**
   * The peer's exact origin (`https://host.example`; `"null"` for an opaque sandboxed iframe).
   * Posts go to this origin only and only its messages are read; `"*"` is refused.
   */
  readonly peerOrigin: string;
  /** The window whose messages are read (`event.source` must be it); default: `target`. */
  readonly source?: unknown;
  /** Where "message" events arrive; default: `globalThis` (the page's window). */
  readonly listen?: MessageEventSource | undefined;
  /** Largest message, in UTF-8 bytes of its JSON, either way (default 4 MiB); larger ones are dropped and reported. */
  readonly maxMessageBytes?: number | undefined;
  /** Most messages held before start() (default 256); more are dropped and reported. */
  readonly maxQueue?: number | undefined;
  /** Dropped messages and failed sends; default: transport.onerror (the endpoint's onError). */
  readonly onReport?: ((problem: PostMessageProblem) => void) | undefined;
}

export const DEFAULT_MAX_MESSAGE_BYTES: number = 4 * 1024 * 1024;
export const DEFAULT_MAX_QUEUE: number = 256;


export class PostMessageTransport implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /** Messages not read because their origin or source window is not the peer's. */
  ignored: number = 0;
  /** Messages of the peer dropped (malformed, oversize, over the queue). */
  dropped: number = 0;
  readonly #target: PostMessageTarget;
  readonly #origin: string;
  readonly #postOrigin: string;
  readonly #source: unknown;
  readonly #listen: MessageEventSource;
  readonly #maxBytes: number;
  readonly #maxQueue: number;
  readonly #onReport: ((problem: PostMessageProblem) => void) | undefined;
  readonly #queue: JsonRpcMessage[] = [];
  readonly #listener = (event: MessageEventLike): void => this.#receive(event);
  #started = false;
  #closed = false;

  constructor(options: PostMessageTransportOptions) {
    if (!isObject(options.target) || typeof options.target.postMessage !== "function") throw new TypeError("target must have a postMessage method");
    if (typeof options.peerOrigin !== "string" || options.peerOrigin === "" || options.peerOrigin === "*") {
      throw new RangeError(`peerOrigin must be the peer's exact origin (not "*" nor empty), got ${JSON.stringify(options.peerOrigin)}`);
    }
    this.#maxBytes = numberOption("maxMessageBytes", options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES, { min: 64 });
    this.#maxQueue = numberOption("maxQueue", options.maxQueue, DEFAULT_MAX_QUEUE, { min: 1 });
    this.#target = options.target;
    this.#origin = options.peerOrigin;
    // An opaque origin (a sandboxed iframe without allow-same-origin) cannot be named as a target
    // origin (HTML, postMessage: "null" is not a URL); posts then go to "*", to this one window,
    // while what is read is still checked against "null" and the source window.
    this.#postOrigin = options.peerOrigin === "null" ? "*" : options.peerOrigin;
    this.#source = "source" in options ? options.source : options.target;
    const listen = options.listen ?? (globalThis as unknown as Partial<MessageEventSource>);
    if (typeof listen.addEventListener !== "function" || typeof listen.removeEventListener !== "function") {
      throw new TypeError("listen must have addEventListener and removeEventListener (outside a browser window, pass `listen`)");
    }
    this.#listen = listen as MessageEventSource;
    this.#onReport = options.onReport;
    // Listening from construction: what the peer posts before start() is held (at most maxQueue).
    this.#listen.addEventListener("message", this.#listener);
  }

  async start(): Promise<void> {
    if (this.#closed) throw new Error("transport closed");
    this.#started = true;
    for (const message of this.#queue.splice(0)) this.onmessage?.(message);
  }

  async send(message: OutgoingMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed) throw new Error("transport closed");
    const size = jsonBytes(message);
    if (size === undefined || size > this.#maxBytes) {
      const detail = size === undefined ? "not serialisable as JSON" : `${size} bytes, over maxMessageBytes ${this.#maxBytes}`;
      this.#report({ kind: "send-failed", origin: this.#origin, detail });
      throw new RangeError(`message not sent: ${detail}`);
    }
    try {
      this.#target.postMessage(message, this.#postOrigin);
    } catch (error) {
      // A window gone, a value that cannot be cloned, a target origin the browser refuses.
      const detail = error instanceof Error ? error.message : String(error);
      this.#report({ kind: "send-failed", origin: this.#origin, detail });
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#queue.length = 0;
    this.#listen.removeEventListener("message", this.#listener);
    this.onclose?.();
  }

  #receive(event: MessageEventLike): void {
    if (this.#closed) return;
    // Another window's message, or the peer origin's from another window: not ours.
    if (event.origin !== this.#origin || event.source !== this.#source) {
      this.ignored++;
      return;
    }
    const size = jsonBytes(event.data);
    if (size === undefined) return this.#drop("malformed", "not serialisable as JSON");
    if (size > this.#maxBytes) return this.#drop("oversize", `${size} bytes, over maxMessageBytes ${this.#maxBytes}`);
    const problem = messageProblem(event.data);
    if (problem !== undefined) return this.#drop("malformed", problem);
    const message = event.data as JsonRpcMessage;
    if (this.#started) {
      this.onmessage?.(message);
    } else if (this.#queue.length >= this.#maxQueue) {
      this.#drop("queue-full", `${this.#maxQueue} messages held before start() (maxQueue)`);
    } else {
      this.#queue.push(message);
    }
  }

  #drop(kind: PostMessageProblemKind, detail: string): void {
    this.dropped++;
    this.#report({ kind, origin: this.#origin, detail });
  }

  #report(problem: PostMessageProblem): void {
    try {
      if (this.#onReport !== undefined) this.#onReport(problem);
      else this.onerror?.(new Error(`postMessage ${problem.kind}: ${problem.detail}`));
    } catch {
      // A throwing report callback must not break the listener.
    }
  }
}

/** UTF-8 bytes of a value's JSON; undefined when it has none (a cycle, a BigInt, a function). */
function jsonBytes(value: unknown): number | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : utf8Length(text);
  } catch {
    return undefined;
  }
}

const isId = (value: unknown): boolean => typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/**
 * Why `data` is not one JSON-RPC 2.0 message (JSON-RPC 2.0, sections 4 and 5), or undefined. A
 * request or notification has a string method and object params if any; a response has an id and
 * exactly one of an object result or an error with an integer code and a string message.
 */
export function messageProblem(data: unknown): string | undefined {
  if (!isObject(data)) return "not an object";
  if (data["jsonrpc"] !== "2.0") return 'jsonrpc is not "2.0"';
  if ("method" in data) {
    if (typeof data["method"] !== "string") return "method is not a string";
    if ("id" in data && !isId(data["id"])) return "id is not a string or number";
    if ("params" in data && data["params"] !== undefined && !isObject(data["params"])) return "params is not an object";
    return undefined;
  }
  if (!("id" in data)) return "neither a method nor an id";
  const hasResult = "result" in data;
  const hasError = "error" in data;
  if (hasResult === hasError) return "a response needs exactly one of result and error";
  if (hasResult) return isId(data["id"]) && isObject(data["result"]) ? undefined : "result response without a valid id and object result";
  const error = data["error"];
  if (!isObject(error) || !Number.isInteger(error["code"]) || typeof error["message"] !== "string") return "error is not { code: integer, message: string }";
  return data["id"] === null || isId(data["id"]) ? undefined : "id is not a string, number or null";
}

/**
 * The origin of the page that embeds this one, for an App's `peerOrigin` when it is not known in
 * advance (a UI resource rendered in a sandboxed iframe): `location.ancestorOrigins[0]` where the
 * browser has it (Chromium, WebKit), else the origin of `document.referrer`; undefined when
 * neither says (then the App must be told its host's origin). `scope` defaults to the page's
 * window; anything structurally like it works (tests).
 */
export function embedderOrigin(scope: unknown = globalThis): string | undefined {
  if (!isObject(scope)) return undefined;
  const location = scope["location"];
  const ancestors = isObject(location) ? location["ancestorOrigins"] : undefined;
  const first = ancestors !== null && typeof ancestors === "object" ? (ancestors as { readonly [index: number]: unknown })[0] : undefined;
  if (typeof first === "string" && first !== "") return first;
  const document = scope["document"];
  const referrer = isObject(document) ? document["referrer"] : undefined;
  if (typeof referrer !== "string" || referrer === "") return undefined;
  try {
    const origin = new URL(referrer).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}
