// toNodeListener: serves an HTTP handler with node:http. A handler of the runtime (it has
// `serveCall`) is served through its native face (node-face.ts): no web object per request. Any
// other web-standard handler is bridged: a web Request is built from the IncomingMessage (its
// body streamed, its signal aborted when the client disconnects) and the Response written to the
// ServerResponse, streamed bodies with backpressure. Node's objects are described structurally,
// so this file imports nothing of Node.

import type { CallHandler } from "./call.js";
import { hostSyntaxProblem } from "./guards.js";
import { NodeCall, unreadBodyClosesConnection, type NodeIncomingMessage, type NodeServerResponse } from "./node-face.js";
import { STREAM_OVERFLOW, type HttpHandler } from "./web-face.js";

export type { NodeIncomingMessage, NodeServerResponse } from "./node-face.js";

export interface NodeListenerOptions {
  /** Failures while writing a response (the handler's own errors go to its onError). */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** A node:http request listener: `createServer(toNodeListener(handler))`. */
export type NodeListener = (request: NodeIncomingMessage, response: NodeServerResponse) => void;

/** The reason a request's signal aborts with when its client disconnects. */
export const CLIENT_DISCONNECTED = "the client closed the connection";

const BODYLESS = new Set(["GET", "HEAD"]);

function report(onError: ((error: Error) => void) | undefined, error: unknown): void {
  try {
    onError?.(error instanceof Error ? error : new Error(String(error)));
  } catch {
    // A throwing onError must not break the listener.
  }
}

/**
 * The request body as a web stream, pulled from the IncomingMessage (paused while the reader
 * lags), and `discard()`: what the handler did not read is read and dropped, so that a
 * keep-alive connection is free for the next request.
 */
function bodyOf(request: NodeIncomingMessage): { readonly stream: ReadableStream<Uint8Array>; discard(): void } {
  const encoder = new TextEncoder();
  let done = false;
  const discard = (): void => {
    done = true;
    request.resume();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      request.on("data", (chunk) => {
        if (done) return;
        controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
        if ((controller.desiredSize ?? 0) <= 0) request.pause();
      });
      request.on("end", () => {
        if (done) return;
        done = true;
        controller.close();
      });
      request.on("error", (error) => {
        if (done) return;
        done = true;
        controller.error(error);
      });
    },
    pull() {
      request.resume();
    },
    // The handler read enough (or refused the body).
    cancel: discard,
  });
  return { stream, discard };
}

/** A refusal of the adapter's own (it serves any web handler, so plain text). */
function writeRefusal(out: NodeServerResponse, status: number, message: string): void {
  out.writeHead(status, { "content-type": "text/plain" });
  out.end(new TextEncoder().encode(message));
}

/** Writes a web Response to a ServerResponse; SSE and other streamed bodies chunk by chunk. */
async function writeResponse(response: Response, out: NodeServerResponse, closeAfter: boolean): Promise<void> {
  if (out.destroyed) {
    // The client is gone (its request was cancelled): nothing to write to.
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (closeAfter) headers["connection"] = "close";
  const body = response.body;
  if (body === null) {
    out.writeHead(response.status, headers);
    out.end();
    return;
  }
  if (!(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    headers["content-length"] = String(bytes.byteLength);
    out.writeHead(response.status, headers);
    out.end(bytes);
    return;
  }
  out.writeHead(response.status, headers);
  out.flushHeaders?.();
  const reader = body.getReader();
  // The client went away: cancelling the body is the request's cancel (its stream closed).
  const onClose = (): void => void reader.cancel(CLIENT_DISCONNECTED).catch(() => undefined);
  out.on("close", onClose);
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        // The stream ended with an error: the response cannot be completed, so the connection
        // is dropped (an overflow: the client stopped reading, and nothing more is kept for it).
        out.destroy?.();
        if (error instanceof Error && error.name === STREAM_OVERFLOW) return;
        throw error;
      }
      const { done, value } = chunk;
      if (done || out.destroyed) break;
      if (!out.write(value)) {
        await new Promise<void>((resolve) => {
          const resume = (): void => {
            out.removeListener("drain", resume);
            out.removeListener("close", resume);
            resolve();
          };
          out.once("drain", resume);
          out.once("close", resume);
        });
      }
    }
  } finally {
    out.removeListener("close", onClose);
    if (!out.destroyed) out.end();
  }
}

/**
 * A node:http listener serving `handler`: a handler of the runtime through its native face, any
 * other web-standard handler through a bridge (see the file's head). Either way a client that
 * disconnects before its response is complete is seen by the handler (the native call's
 * `onclose`; the Request's signal), and the handler learns the local address the request arrived
 * at (its loopback Host/Origin check).
 */
export function toNodeListener(handler: HttpHandler | (HttpHandler & CallHandler), options: NodeListenerOptions = {}): NodeListener {
  if (typeof handler !== "function") throw new TypeError("toNodeListener needs an HTTP handler");
  if (options.onError !== undefined && typeof options.onError !== "function") throw new TypeError("onError must be a function");
  const core = (handler as Partial<CallHandler>).serveCall;
  if (typeof core === "function") return nativeListener(handler as CallHandler, options);
  return bridgedListener(handler, options);
}

/** The native face: each request an HttpCall of its own over the IncomingMessage and ServerResponse. */
function nativeListener(handler: CallHandler, options: NodeListenerOptions): NodeListener {
  // A handler that drains (its close() began: `draining`) has each response close its connection.
  const closing = (): boolean => (handler as { readonly draining?: unknown }).draining === true;
  return (request, response) => {
    handler.serveCall(new NodeCall(request, response, closing)).catch((error: unknown) => {
      // The servers answer their own failures; this is one of writing the response itself.
      report(options.onError, error);
      if (!response.destroyed) response.destroy?.();
    });
  };
}

/** The bridge of a foreign web-standard handler. */
function bridgedListener(handler: HttpHandler, options: NodeListenerOptions): NodeListener {
  return (request, response) => {
    const abort = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) abort.abort(CLIENT_DISCONNECTED);
    });
    let webRequest: Request;
    let discard = (): void => undefined;
    // The handler's Host rule (guards.ts) starts with its syntax: a Host that is no host[:port]
    // is refused here as the web handler refuses it, before it could make the request URL.
    const invalidHost = hostSyntaxProblem(typeof request.headers["host"] === "string" ? request.headers["host"] : undefined);
    if (invalidHost !== null) {
      writeRefusal(response, 400, `Bad Request: ${invalidHost}`);
      return;
    }
    try {
      const host = typeof request.headers["host"] === "string" && request.headers["host"] !== "" ? request.headers["host"] : "localhost";
      const url = new URL(request.url ?? "/", `${request.socket?.encrypted === true ? "https" : "http"}://${host}`);
      const headers = new Headers();
      for (const name of Object.keys(request.headers)) {
        const value = request.headers[name];
        if (typeof value === "string") headers.append(name, value);
        else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      }
      const method = request.method ?? "GET";
      const init: RequestInit & { duplex?: "half" } = { method, headers, signal: abort.signal };
      if (!BODYLESS.has(method)) {
        const body = bodyOf(request);
        discard = body.discard;
        init.body = body.stream;
        init.duplex = "half"; // a streamed body (undici requires it)
      }
      webRequest = new Request(url, init);
    } catch {
      // A URL no Request can be made of.
      writeRefusal(response, 400, "Bad Request: the request URL is not valid");
      return;
    }
    const web = webRequest;
    const socket = request.socket;
    handler(webRequest, { localAddress: socket?.localAddress, remoteAddress: socket?.remoteAddress, remotePort: socket?.remotePort })
      .then((answer) => {
        // A body the handler never read (a refusal before it: unauthenticated, the wrong method)
        // is not drained when large or chunked: the connection closes instead, as on the native face.
        const unreadLarge = !web.bodyUsed && unreadBodyClosesConnection(request.headers);
        if (unreadLarge) discard = () => undefined;
        return writeResponse(answer, response, unreadLarge);
      })
      .finally(() => discard())
      .catch((error: unknown) => {
        report(options.onError, error);
        if (!response.destroyed) {
          try {
            response.writeHead(500, { "content-type": "text/plain" });
          } catch {
            // Headers already sent: the stream just ends.
          }
          response.end();
        }
      });
  };
}
