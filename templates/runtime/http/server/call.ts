// The request contract of the HTTP server core: one HTTP request and its response as every server
// of the runtime sees them (the 2026-07-28 handler, the session handler, HTTP+SSE and the era
// router). Each face makes one: the web face from a `Request` (web-face.ts), the native face from
// node:http's IncomingMessage and ServerResponse (node-face.ts), which builds no Request, Headers,
// ReadableStream, AbortSignal or Response. What a server does with it is the same on both.

import type { Principal } from "../../core/protocol.js";

/** A request's headers, read by name (any case), as `Headers` reads them. */
export interface HeaderView {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, name: string) => void): void;
}

/**
 * What is known of a request before its body is read: what `authenticate` is given, and what
 * handlers see as `ctx.http` (a web `Request` is one).
 */
export interface HttpRequestHead {
  readonly method: string;
  /** The absolute URL of the request, as the server received it. */
  readonly url: string;
  readonly headers: HeaderView;
}

/** What a body read gives besides its bytes: over the bound (the rest is not read), or broken mid-way. */
export const TOO_LARGE: unique symbol = Symbol("body too large");
export const BROKEN: unique symbol = Symbol("body broken");
export type BodyRead = Uint8Array | typeof TOO_LARGE | typeof BROKEN;

/** Response headers: lower-case names. */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * A response body being streamed (SSE), as the face delivers it: `write` queues bytes, `buffered`
 * says how many the client has not taken yet, and `ondrain` runs when it falls below the
 * high-water mark the stream was opened with. The bound on what may wait is the writer's
 * (sse-stream.ts): the face only measures.
 */
export interface ResponseBody {
  write(bytes: Uint8Array): void;
  /** Bytes written that the client has not taken yet. */
  readonly buffered: number;
  /** Set by the writer: there is room again (buffered fell below the high-water mark). */
  ondrain: (() => void) | undefined;
  /** Ends the body once everything written has gone. */
  end(): void;
  /** The body cannot be completed (its client stopped reading): what waits is dropped and the connection closed. */
  abort(): void;
}

/**
 * One HTTP request and its response. Read the head at once; the body at most once
 * (`readBody`); answer once, whole (`respond`, `respondWith`) or streamed (`stream`).
 */
export interface HttpCall extends HttpRequestHead {
  /** The path of the request target, without query or fragment, as `URL.pathname` gives it. */
  readonly path: string;
  /** A query parameter of the request target (the first of that name), or null. */
  query(name: string): string | null;
  /** The local address the request arrived at (the loopback Host/Origin rule); undefined: unknown. */
  readonly localAddress: string | undefined;
  /**
   * The connection the request came on: its remote address and port (peerKey); undefined:
   * unknown. What the quotas per principal of an anonymous request key on (`ctx.http.peer`).
   */
  readonly peer: string | undefined;
  /** Whether the request declares a body (a Content-Length above 0 or a Transfer-Encoding). */
  readonly hasBody: boolean;
  /** The body, read to its end but never past `max` bytes (a declared length over it is not read at all). */
  readBody(max: number): Promise<BodyRead>;
  /** The client went away before the response was complete (it can no longer be written). */
  readonly gone: boolean;
  /**
   * Set by whoever owns the response: runs once when the client goes away before the response
   * is complete (the connection closed, the reader cancelled). Over Streamable HTTP that is a
   * request's cancel; for a session's stream, a disconnection.
   */
  onclose: (() => void) | undefined;
  /** Whether a response has started (respond, respondWith or stream was called). */
  readonly answered: boolean;
  /** The whole response; `body` undefined: none. */
  respond(status: number, headers: ResponseHeaders, body?: string): void;
  /** A web Response as it is (what `authenticate` refuses with); resolves when it is written. */
  respondWith(response: Response): Promise<void>;
  /**
   * A streamed response: the head goes at once; `highWater` is the number of unread bytes at
   * which the body stops reporting room (`ondrain` says when it has room again).
   */
  stream(status: number, headers: ResponseHeaders, highWater: number): ResponseBody;
}

/**
 * A handler of the runtime: the web face is the function (`(request, info?) => Promise<Response>`,
 * for Workers, Deno, Bun and fetch frameworks), and `serveCall` is the core every face calls;
 * toNodeListener takes it, so node:http is served without building web objects per request.
 */
export interface CallHandler {
  /** Serves one call; resolves once its response has started (a stream goes on after). */
  serveCall(call: HttpCall): Promise<void>;
}

/** Who sent a request, once the pipeline's `authenticate` stage has run. */
export type Admitted = Principal | undefined;

/**
 * A connection's key from its remote address and port: `address:port` (`[address]:port` for
 * IPv6), the address alone without a port; undefined without an address. Two connections open at
 * once never share one (the port tells apart those of one address).
 */
export function peerKey(address: string | undefined, port: number | undefined): string | undefined {
  if (address === undefined || address === "") return undefined;
  const host = address.includes(":") ? `[${address}]` : address;
  return port === undefined ? host : `${host}:${port}`;
}
