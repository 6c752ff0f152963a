// The native node:http face of the HTTP servers: an IncomingMessage and its ServerResponse as an
// HttpCall, read and written directly. No Request, Headers, ReadableStream, AbortSignal or
// Response is made per request; the response's `close` event before it finished is the client
// going away (over Streamable HTTP, the request's cancel). Node's objects are described
// structurally, so the runtime imports nothing of Node.

import { concat } from "../fetch.js";
import { BROKEN, peerKey, TOO_LARGE, type BodyRead, type HeaderView, type HttpCall, type ResponseBody, type ResponseHeaders } from "./call.js";

/** The parts of node:http's IncomingMessage the runtime uses. */
export interface NodeIncomingMessage {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
  readonly socket: {
    readonly localAddress?: string | undefined;
    readonly remoteAddress?: string | undefined;
    readonly remotePort?: number | undefined;
    readonly encrypted?: boolean | undefined;
  } | null;
  /** Whether the request was destroyed (its connection closed before the body was read). */
  readonly destroyed?: boolean | undefined;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "close", listener: () => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** The parts of node:http's ServerResponse the runtime uses. */
export interface NodeServerResponse {
  writeHead(statusCode: number, headers: Record<string, string | string[]>): unknown;
  write(chunk: Uint8Array | string): boolean;
  end(chunk?: Uint8Array | string): unknown;
  once(event: "drain" | "close", listener: () => void): unknown;
  on(event: "close" | "drain", listener: () => void): unknown;
  removeListener(event: "drain" | "close", listener: () => void): unknown;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  /** Bytes written and not yet handed to the operating system (the stream's backpressure). */
  readonly writableLength?: number | undefined;
  flushHeaders?(): void;
  /** Drops the connection (a stream that cannot be completed). */
  destroy?(): unknown;
}

/** Whether the server drains (close() began): a response then closes its connection after it. */
export type Closing = () => boolean;
const NEVER: Closing = () => false;

/** The request headers of node:http (names lower case; Node joined repeated ones) as a HeaderView. */
class NodeHeaders implements HeaderView {
  readonly #raw: NodeIncomingMessage["headers"];
  constructor(raw: NodeIncomingMessage["headers"]) {
    this.#raw = raw;
  }
  get(name: string): string | null {
    let value = this.#raw[name];
    if (value === undefined && name !== name.toLowerCase()) value = this.#raw[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }
  has(name: string): boolean {
    return this.get(name) !== null;
  }
  forEach(callback: (value: string, name: string) => void): void {
    for (const name of Object.keys(this.#raw).sort()) {
      const value = this.get(name);
      if (value !== null) callback(value, name);
    }
  }
}

/** A request target's path as URL.pathname would give it: as sent when plainly `/segments`, else parsed. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&'()*+,;=:@/]*$/;

/** The body of a streamed response: ServerResponse writes; its `drain` is the room. */
class NodeBody implements ResponseBody {
  ondrain: (() => void) | undefined = undefined;
  readonly #out: NodeServerResponse;
  constructor(out: NodeServerResponse) {
    this.#out = out;
    out.on("drain", () => this.ondrain?.());
  }
  get buffered(): number {
    return this.#out.writableLength ?? 0;
  }
  write(bytes: Uint8Array): void {
    if (!this.#out.destroyed) this.#out.write(bytes);
  }
  end(): void {
    if (!this.#out.destroyed) this.#out.end();
  }
  abort(): void {
    this.#out.destroy?.();
  }
}

/** An IncomingMessage and its ServerResponse as an HttpCall. */
export class NodeCall implements HttpCall {
  readonly method: string;
  readonly headers: HeaderView;
  readonly localAddress: string | undefined;
  onclose: (() => void) | undefined = undefined;
  readonly #request: NodeIncomingMessage;
  readonly #out: NodeServerResponse;
  readonly #closing: Closing;
  #answered = false;
  #bodyRead = false;
  #gone = false;
  #url: string | undefined;
  #path: string | undefined;
  #peer: string | undefined | null = null;

  constructor(request: NodeIncomingMessage, out: NodeServerResponse, closing: Closing = NEVER) {
    this.#request = request;
    this.#out = out;
    this.#closing = closing;
    this.method = request.method ?? "GET";
    this.headers = new NodeHeaders(request.headers);
    this.localAddress = request.socket?.localAddress;
    out.once("close", () => {
      if (out.writableFinished || this.#gone) return;
      this.#gone = true;
      this.onclose?.();
    });
  }

  get url(): string {
    if (this.#url === undefined) {
      const host = this.headers.get("host");
      const scheme = this.#request.socket?.encrypted === true ? "https" : "http";
      const target = this.#request.url ?? "/";
      this.#url = target.startsWith("/") ? `${scheme}://${host === null || host === "" ? "localhost" : host}${target}` : target;
    }
    return this.#url;
  }

  /** The socket's remote address and port, read on first use (only anonymous requests need it). */
  get peer(): string | undefined {
    if (this.#peer === null) {
      const socket = this.#request.socket;
      this.#peer = peerKey(socket?.remoteAddress, socket?.remotePort);
    }
    return this.#peer;
  }

  get path(): string {
    if (this.#path === undefined) {
      const target = this.#request.url ?? "/";
      const end = target.search(/[?#]/);
      const raw = end < 0 ? target : target.slice(0, end);
      this.#path = PLAIN_PATH.test(raw) && !raw.includes("/.") ? raw : pathnameOf(this.url);
    }
    return this.#path;
  }

  query(name: string): string | null {
    const target = this.#request.url ?? "/";
    const start = target.indexOf("?");
    if (start < 0) return null;
    const end = target.indexOf("#", start);
    return new URLSearchParams(end < 0 ? target.slice(start + 1) : target.slice(start + 1, end)).get(name);
  }

  get hasBody(): boolean {
    const length = this.headers.get("content-length");
    return (length !== null && length !== "0") || this.headers.has("transfer-encoding");
  }

  get answered(): boolean {
    return this.#answered;
  }

  get gone(): boolean {
    return this.#gone || this.#out.destroyed;
  }

  readBody(max: number): Promise<BodyRead> {
    // A declared length over the bound is refused unread: the body stays unread (whoever answers
    // then, a 413 or another handler's refusal, closes the connection instead of draining it).
    const declared = this.headers.get("content-length");
    if (declared !== null && Number(declared) > max) return Promise.resolve(TOO_LARGE);
    this.#bodyRead = true;
    const request = this.#request;
    // The client went away before the body was asked for (while `authenticate` ran): the request's
    // "close" has been emitted already, and no "end" will come.
    if (this.gone || request.destroyed === true) return Promise.resolve(BROKEN);
    return new Promise((resolve) => {
      const parts: Uint8Array[] = [];
      let size = 0;
      let done = false;
      const finish = (read: BodyRead): void => {
        if (done) return;
        done = true;
        resolve(read);
      };
      request.on("data", (chunk) => {
        if (done) return;
        const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
        size += bytes.byteLength;
        // Past the bound nothing more is kept; the 413 closes the connection.
        if (size > max) return finish(TOO_LARGE);
        parts.push(bytes);
      });
      request.on("end", () => finish(parts.length === 0 ? new Uint8Array(0) : concat(parts, size)));
      request.on("error", () => finish(BROKEN));
      // Closed before its end (the client went away mid-body): no more bytes will come.
      request.on("close", () => finish(BROKEN));
    });
  }

  respond(status: number, headers: ResponseHeaders, body?: string): void {
    const out = this.#start();
    if (out === undefined) return;
    if (body === undefined) {
      out.writeHead(status, this.#headersOut(headers));
      out.end();
      return;
    }
    // The length is sent (writeHead fixes the head: without it the body would be chunked), and
    // the body goes as a string: node:http then writes the head and the body in one write.
    const head = this.#headersOut(headers);
    out.writeHead(status, { ...head, "content-length": String(byteLength(body)) });
    out.end(body);
  }

  async respondWith(response: Response): Promise<void> {
    const out = this.#start();
    if (out === undefined) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const bytes = response.body === null ? undefined : new Uint8Array(await response.arrayBuffer());
    if (this.#out.destroyed) return;
    if (bytes !== undefined) headers["content-length"] = String(bytes.byteLength);
    out.writeHead(response.status, this.#headersOut(headers));
    out.end(bytes);
  }

  stream(status: number, headers: ResponseHeaders, _highWater: number): ResponseBody {
    const out = this.#start();
    const body = new NodeBody(this.#out);
    if (out !== undefined) {
      out.writeHead(status, this.#headersOut(headers));
      out.flushHeaders?.();
    }
    return body;
  }

  /** The response, unless the client is gone (then nothing is written). */
  #start(): NodeServerResponse | undefined {
    if (this.#answered) throw new Error("the response has already started");
    this.#answered = true;
    return this.#out.destroyed ? undefined : this.#out;
  }

  /**
   * A response sent while a large body was never read (a refusal before it: unauthenticated, the
   * wrong method) closes the connection, so that body is not read at all; a small one (at most
   * DRAIN_BYTES declared) is read and dropped by node:http, and the connection is kept. While the
   * server drains, every response closes its connection.
   */
  #headersOut(headers: ResponseHeaders): Record<string, string> {
    const closes = this.#closing() || (!this.#bodyRead && unreadBodyClosesConnection(this.#request.headers));
    if (!closes) return headers as Record<string, string>;
    return { ...headers, connection: "close" };
  }
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string: node:http's Buffer.byteLength (this face runs on Node only), else counted. */
const byteLength: (text: string) => number =
  (globalThis as { Buffer?: { byteLength(text: string): number } }).Buffer?.byteLength ?? ((text: string) => encoder.encode(text).byteLength);
/** The largest unread body node:http drains to keep a connection (a declared Content-Length); a larger or chunked one closes it. */
const DRAIN_BYTES = 64 * 1024;

/**
 * Whether a response sent while this request's body was never read closes the connection: the
 * body is chunked or declared larger than DRAIN_BYTES (node:http would read it all to keep the
 * connection). Both faces of toNodeListener apply it.
 */
export function unreadBodyClosesConnection(headers: NodeIncomingMessage["headers"]): boolean {
  const length = headers["content-length"];
  if (headers["transfer-encoding"] !== undefined) return true;
  if (typeof length !== "string" || length === "0") return false;
  return !(Number(length) <= DRAIN_BYTES);
}

function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "/";
  }
}
