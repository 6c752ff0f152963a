/**
 * Helpers of the Streamable HTTP wire tests (createHttpHandler, templates/runtime/http/stateless):
 * a 2026-07-28 server behind a real node:http server on 127.0.0.1 on either face of the handler
 * (test/helpers/faces.ts), conformant request headers and `_meta`, exact reads of what came back,
 * and a server that sees its requests arrive at another local address.
 */
import { request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import * as R from "../../../generated/2026-07-28/index.js";
import { listen as listenOn, send, type Answer, type Face, type Listening } from "../../../helpers/faces.js";
import { META_KEYS, requestMeta } from "../../../helpers/fixtures.js";
import { fixtureServer } from "./fixture-server.js";

export { answer, describeFaces, FACES, listen, listenerFor, type Face, type Listening } from "../../../helpers/faces.js";

export const VERSION = "2026-07-28";
export const META = requestMeta({ protocolVersion: VERSION, clientInfo: { name: "wire-test", version: "1.0.0" } });
export const SERVER_INFO_META = { [META_KEYS.serverInfo]: { name: "http-fixture", version: "1.0.0" } } as const;

/** The headers a conformant client sends with a request for `method` (Mcp-Name where the method has one). */
export function headersFor(method: string, params?: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": VERSION,
    "mcp-method": method,
  };
  const name = method === "resources/read" ? params?.["uri"] : method === "tools/call" || method === "prompts/get" ? params?.["name"] : undefined;
  if (typeof name === "string") headers["mcp-name"] = name;
  return headers;
}

export { send, type Answer };

/** POSTs a JSON-RPC request with the conformant headers and `_meta`; `headers` override or remove (undefined) some. */
export function call(
  url: string,
  id: number | string,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string | undefined> = {},
): Promise<Answer> {
  const withMeta = { ...params, _meta: { ...META, ...(params["_meta"] as object | undefined) } };
  return post(url, { jsonrpc: "2.0", id, method, params: withMeta }, { ...headersFor(method, params), ...headers });
}

/** POSTs any body (an object is serialised) with exactly these headers (undefined: left out). */
export function post(url: string, body: unknown, headers: Record<string, string | undefined>): Promise<Answer> {
  const sent: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
  return send(url, { method: "POST", headers: sent, body: typeof body === "string" ? body : body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body) });
}

/** The data lines of an SSE body, parsed. */
export function sseMessages(text: string): unknown[] {
  return [...text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!) as unknown);
}

export interface Served {
  readonly face: Face;
  readonly server: R.McpServer;
  readonly handler: R.StatelessHttpHandler;
  readonly http: Server;
  /** http://127.0.0.1:port */
  readonly origin: string;
  /** http://127.0.0.1:port/mcp */
  readonly url: string;
  readonly events: R.CancellationEvent[];
  readonly errors: Error[];
  close(): Promise<void>;
}

/** Options of `serve` beyond the server's and the handler's: a listener around the handler's (see faces.ts `listen`). */
export interface ServeOptions {
  readonly wrap?: ((listener: Listener) => Listener) | undefined;
}

/** A node:http request listener. */
export type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The fixture server (or one made with `options`) behind createHttpHandler on `face`: the native
 * face (toNodeListener takes the handler's core) or the web face (the handler as a plain web
 * function, bridged to node:http), on a real loopback server.
 */
export async function serve(face: Face, options: R.McpServerOptions = {}, httpOptions: R.HttpHandlerOptions = {}, serveOptions: ServeOptions = {}): Promise<Served> {
  const events: R.CancellationEvent[] = [];
  const errors: Error[] = [];
  const server = fixtureServer({ onCancellation: (e) => events.push(e), onError: (e) => errors.push(e), ...options });
  const handler = R.createHttpHandler(server, { onError: (e) => errors.push(e), ...httpOptions });
  const listening: Listening = await listenOn(face, handler, { onError: (e) => errors.push(e), ...(serveOptions.wrap === undefined ? {} : { wrap: serveOptions.wrap }) });
  return { face, server, handler, http: listening.http, origin: listening.origin, url: listening.url, events, errors, close: () => listening.close() };
}

/**
 * A listener wrap that makes every request look as if it arrived at `localAddress` (the socket's
 * own address, as both faces read it): a server reached at a LAN address, over a loopback socket
 * (a function: asked for each request).
 */
export function arrivingAt(localAddress: string | (() => string)): (listener: Listener) => Listener {
  return (listener) => (request, response) => {
    Object.defineProperty(request.socket, "localAddress", { value: typeof localAddress === "string" ? localAddress : localAddress(), configurable: true });
    listener(request, response);
  };
}

/** Resolves when `signal` aborts (at once if it already has), with its reason. */
export { aborted as abortOf, deferred } from "../../../helpers/async.js";

/**
 * One HTTP/1.1 request through node:http, with exactly these headers (no defaults added beyond
 * Host and Content-Length, which `host` overrides); for what fetch would add or forbid.
 */
export function raw(url: string, method: string, headers: Record<string, string>, body?: string | Uint8Array): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const out = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") out.set(name, value);
        resolve({ status: response.statusCode ?? 0, headers: out, text, json });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** An answer read off a raw socket: the status, the headers (lower-case names), the body. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export interface RawExchange {
  readonly socket: Socket;
  /** The first response on the socket (its body read by its Content-Length). */
  readonly answer: Promise<RawAnswer>;
  /** Resolves when the socket has closed (either side). */
  readonly closed: Promise<void>;
  /** Writes more bytes (of the body) on the socket. */
  write(bytes: string | Uint8Array): void;
}

/**
 * A request written on a socket of its own (node:net), byte for byte: the head with exactly these
 * headers (Host included, as given; a list of pairs may repeat a name), then `body`, which may be
 * only the start of what Content-Length declares. For what no HTTP client sends on cue: a body
 * that never comes, a client gone mid-request, a request target in absolute form without a Host
 * (`line`).
 */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string> | ReadonlyArray<readonly [string, string]>,
  body: string | Uint8Array = "",
  line: { readonly target?: string; readonly version?: "HTTP/1.0" | "HTTP/1.1" } = {},
): RawExchange {
  const target = new URL(url);
  const socket = connect(Number(target.port), target.hostname);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.on("error", () => undefined);
  const head = `${method} ${line.target ?? `${target.pathname}${target.search}`} ${line.version ?? "HTTP/1.1"}\r\n${(Array.isArray(headers) ? headers : Object.entries(headers))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("")}\r\n`;
  socket.write(head);
  if (body.length > 0) socket.write(body);
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    let bytes = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      bytes = Buffer.concat([bytes, chunk]);
      const end = bytes.indexOf("\r\n\r\n");
      if (end < 0) return;
      const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        parsed[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(parsed["content-length"] ?? 0);
      if (bytes.length - end - 4 < length) return;
      socket.off("data", onData);
      resolve({ status: Number(statusLine!.split(" ")[1]), headers: parsed, text: bytes.subarray(end + 4, end + 4 + length).toString("utf8") });
    };
    socket.on("data", onData);
    void closed.then(() => reject(new Error(`the socket closed before a whole response came: ${JSON.stringify(bytes.toString("latin1"))}`)));
  });
  answer.catch(() => undefined);
  return { socket, answer, closed, write: (more) => void socket.write(more) };
}

/** Requests written back to back on one socket (HTTP/1.1 pipelining): node:http runs their handlers at once, and answers them in order. */
export interface Pipelined {
  readonly socket: Socket;
  /** The first `count` responses on the socket, in order (each read by its Content-Length). */
  responses(count: number): Promise<RawAnswer[]>;
}

/**
 * One connection carrying many requests at once: each `{ id, method, params }` POSTed with the
 * conformant headers and `_meta`, all written before any answer. What one client holding many
 * requests in flight on one connection looks like (HTTP/1.1 has no other way to).
 */
export function pipelined(url: string, requests: ReadonlyArray<{ readonly id: number; readonly method: string; readonly params: Record<string, unknown> }>): Pipelined {
  const target = new URL(url);
  const socket = connect(Number(target.port), target.hostname);
  socket.on("error", () => undefined);
  socket.write(
    requests
      .map(({ id, method, params }) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: META } });
        const headers = { host: target.host, ...headersFor(method, params), "content-length": String(Buffer.byteLength(body)) };
        return `POST ${target.pathname} HTTP/1.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n${body}`;
      })
      .join(""),
  );
  let bytes = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => (bytes = Buffer.concat([bytes, chunk])));
  const responses = (count: number): Promise<RawAnswer[]> =>
    new Promise((resolve, reject) => {
      const parse = (): void => {
        const answers: RawAnswer[] = [];
        let at = 0;
        while (answers.length < count) {
          const end = bytes.indexOf("\r\n\r\n", at);
          if (end < 0) return;
          const [statusLine, ...lines] = bytes.subarray(at, end).toString("latin1").split("\r\n");
          const headers: Record<string, string> = {};
          for (const line of lines) headers[line.slice(0, line.indexOf(":")).trim().toLowerCase()] = line.slice(line.indexOf(":") + 1).trim();
          const length = Number(headers["content-length"] ?? Number.NaN);
          if (Number.isNaN(length)) return reject(new Error(`a response without Content-Length: ${statusLine}`));
          if (bytes.length - end - 4 < length) return;
          answers.push({ status: Number(statusLine!.split(" ")[1]), headers, text: bytes.subarray(end + 4, end + 4 + length).toString("utf8") });
          at = end + 4 + length;
        }
        socket.off("data", parse);
        resolve(answers);
      };
      socket.on("data", parse);
      socket.once("close", () => reject(new Error(`the socket closed after ${bytes.length} bytes`)));
      parse();
    });
  return { socket, responses };
}
