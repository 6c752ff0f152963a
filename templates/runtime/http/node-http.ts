// A thin node:http adapter for a web-standard handler (createHttpHandler): builds a web Request
// from an IncomingMessage (its body streamed, its signal aborted when the client disconnects)
// and writes the Response to the ServerResponse, streaming SSE bodies with backpressure. Node's
// objects are described structurally, so this file imports nothing of Node.

import { hostSyntaxProblem } from "./guards.js";
import type { HttpHandler } from "./http-server.js";

/** The parts of node:http's IncomingMessage the adapter uses. */
export interface NodeIncomingMessage {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: { readonly [name: string]: string | string[] | undefined };
  readonly socket: { readonly localAddress?: string | undefined; readonly encrypted?: boolean | undefined } | null;
  on(event: "data", listener: (chunk: Uint8Array | string) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** The parts of node:http's ServerResponse the adapter uses. */
export interface NodeServerResponse {
  writeHead(statusCode: number, headers: Record<string, string | string[]>): unknown;
  write(chunk: Uint8Array): boolean;
  end(chunk?: Uint8Array): unknown;
  once(event: "drain" | "close", listener: () => void): unknown;
  on(event: "close", listener: () => void): unknown;
  removeListener(event: "drain" | "close", listener: () => void): unknown;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  flushHeaders?(): void;
  /** Drops the connection (a stream that ended with an error cannot be completed). */
  destroy?(): unknown;
}

export interface NodeListenerOptions {
  /** Failures while writing a response (the handler's own errors go to its onError). */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** A node:http request listener: `createServer(toNodeListener(handler))`. */
export type NodeListener = (request: NodeIncomingMessage, response: NodeServerResponse) => void;

/** The reason a request's signal aborts with when its client disconnects. */
export const CLIENT_DISCONNECTED = "the client closed the connection";

const BODYLESS = new Set(["GET", "HEAD"]);

/** The error name of a response stream the handler ended because its client stopped reading (http-server.ts). */
const STREAM_OVERFLOW = "StreamOverflowError";

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
async function writeResponse(response: Response, out: NodeServerResponse): Promise<void> {
  if (out.destroyed) {
    // The client is gone (its request was cancelled): nothing to write to.
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
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
 * A node:http listener serving a web-standard handler. The Request's signal aborts when the
 * client disconnects before the response is complete; the handler learns the local address the
 * request arrived at (its loopback Host/Origin check).
 */
export function toNodeListener(handler: HttpHandler, options: NodeListenerOptions = {}): NodeListener {
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
    handler(webRequest, { localAddress: request.socket?.localAddress })
      .then((answer) => writeResponse(answer, response))
      .finally(discard)
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
