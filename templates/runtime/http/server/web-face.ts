// The web-standard face of the HTTP servers: `(request: Request, info?) => Promise<Response>`, for
// Workers, Deno, Bun and fetch frameworks. A Request becomes an HttpCall; what the server answers
// becomes the Response (a streamed one through a ReadableStream whose queue counts bytes, so that
// its unread bytes are the stream's backpressure). The request's signal aborting, or the reader
// cancelling the body, is the client going away.

import { readBounded, TOO_LARGE as READ_TOO_LARGE } from "../fetch.js";
import { answer, INTERNAL_ERROR } from "./replies.js";
import { BROKEN, peerKey, TOO_LARGE, type BodyRead, type CallHandler, type HeaderView, type HttpCall, type ResponseBody, type ResponseHeaders } from "./call.js";

/** What the runtime knows of the connection a request came on (the node adapter of a foreign web handler fills it). */
export interface HttpRequestInfo {
  /** The local address the request arrived at; a loopback address turns on the loopback Host/Origin check. */
  readonly localAddress?: string | undefined;
  /**
   * The client's address and port (Deno's `info.remoteAddr`, Bun's `server.requestIP(request)`):
   * the quotas of anonymous requests are kept per connection by them (`ctx.http.peer`). Without
   * them, every anonymous request of the handler shares one quota.
   */
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
}

/** A web-standard HTTP handler; the second argument is optional. */
export type HttpHandler = (request: Request, info?: HttpRequestInfo) => Promise<Response>;

/** A handler of the runtime: the web face, with the core every face serves (toNodeListener takes `serveCall`). */
export type ServedHandler = HttpHandler & CallHandler;

/** The error name of a response stream that could not be completed (a foreign adapter drops the connection). */
export const STREAM_OVERFLOW: string = "StreamOverflowError";

/** A Request as an HttpCall; its answer is `response`. */
class WebCall implements HttpCall {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderView;
  readonly localAddress: string | undefined;
  readonly peer: string | undefined;
  readonly response: Promise<Response>;
  onclose: (() => void) | undefined = undefined;
  readonly #request: Request;
  #resolve!: (response: Response) => void;
  #answered = false;
  #complete = false;
  #gone = false;
  #parsed: URL | undefined;

  constructor(request: Request, info: HttpRequestInfo | undefined) {
    this.#request = request;
    this.method = request.method;
    this.url = request.url;
    this.headers = request.headers;
    this.localAddress = info?.localAddress;
    this.peer = info === undefined ? undefined : peerKey(info.remoteAddress, info.remotePort);
    this.response = new Promise((resolve) => (this.#resolve = resolve));
    // The call is its own listener (handleEvent): no closure per request.
    if (request.signal.aborted) this.#gone = true;
    else request.signal.addEventListener("abort", this);
  }

  get path(): string {
    return this.#url().pathname;
  }

  query(name: string): string | null {
    return this.#url().searchParams.get(name);
  }

  get hasBody(): boolean {
    return this.#request.body !== null;
  }

  get answered(): boolean {
    return this.#answered;
  }

  get gone(): boolean {
    return this.#gone;
  }

  async readBody(max: number): Promise<BodyRead> {
    const declared = this.headers.get("content-length");
    if (declared !== null && Number(declared) > max) return TOO_LARGE;
    const body = this.#request.body;
    if (body === null) return new Uint8Array(0);
    try {
      const bytes = await readBounded(body, max);
      return bytes === READ_TOO_LARGE ? TOO_LARGE : bytes;
    } catch {
      return BROKEN;
    }
  }

  respond(status: number, headers: ResponseHeaders, body?: string): void {
    this.#start();
    this.#complete = true;
    this.#resolve(new Response(body ?? null, { status, headers }));
  }

  respondWith(response: Response): Promise<void> {
    this.#start();
    this.#complete = true;
    this.#resolve(response);
    return Promise.resolve();
  }

  stream(status: number, headers: ResponseHeaders, highWater: number): ResponseBody {
    this.#start();
    const body = new WebBody(highWater, () => this.#lost());
    this.#resolve(new Response(body.readable, { status, headers }));
    return body;
  }

  /** The request's signal aborted (EventListener object). */
  handleEvent(): void {
    this.#lost();
  }

  #lost(): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#request.signal.removeEventListener("abort", this);
    if (!this.#complete) this.onclose?.();
  }

  #start(): void {
    if (this.#answered) throw new Error("the response has already started");
    this.#answered = true;
  }

  #url(): URL {
    return (this.#parsed ??= new URL(this.url));
  }
}

/** A streamed body: a ReadableStream whose queue counts bytes; the reader's pull is the drain. */
class WebBody implements ResponseBody {
  readonly readable: ReadableStream<Uint8Array>;
  ondrain: (() => void) | undefined = undefined;
  readonly #highWater: number;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;

  constructor(highWater: number, onCancel: () => void) {
    this.#highWater = highWater;
    this.readable = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        // Called whenever the queue is below the high-water mark after a read: room again.
        pull: () => this.ondrain?.(),
        cancel: () => {
          this.#closed = true;
          onCancel();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: highWater }),
    );
  }

  get buffered(): number {
    const desired = this.#closed ? null : this.#controller.desiredSize;
    return desired === null ? 0 : this.#highWater - desired;
  }

  write(bytes: Uint8Array): void {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(bytes);
    } catch {
      // The reader cancelled meanwhile; its cancel ended the call.
    }
  }

  end(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#controller.close();
    } catch {
      // Already cancelled by the reader.
    }
  }

  abort(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#controller.error(Object.assign(new Error("response stream overflow: the client does not read its stream"), { name: STREAM_OVERFLOW }));
    } catch {
      // Already cancelled by the reader.
    }
  }
}

/**
 * A runtime handler's two faces from its core: the function is the web face, `serveCall` the core
 * (toNodeListener serves node:http through it). Whatever the core throws before it answered is a
 * 500 there, never a rejected promise to the fetch runtime.
 */
export function withFaces<Extra extends object>(core: CallHandler, extra: Extra): ServedHandler & Extra {
  const web: HttpHandler = (request, info) => {
    const call = new WebCall(request, info);
    return core.serveCall(call).then(
      () => call.response,
      () => {
        if (!call.answered) void answer(call, INTERNAL_ERROR);
        return call.response;
      },
    );
  };
  return Object.assign(web, extra, { serveCall: (call: HttpCall) => core.serveCall(call) });
}
