/**
 * The one harness of the HTTP server tests: every test runs against both faces of a runtime
 * handler (templates/runtime/http/server/): the native node:http face (toNodeListener takes the
 * handler's `serveCall`: no web object per request) and the web-standard face (the handler as a
 * plain `(request) => Promise<Response>`, served on node:http through the bridge of any foreign
 * web handler, or called in-process). Both go over real sockets on 127.0.0.1 where a test needs
 * the wire.
 *
 * - `FACES` and `describeFaces(name, body)`: a describe per face;
 * - `listenerFor(face, handler)`: the node:http listener of the handler on that face;
 * - `listen(face, handler)`: a real server on a free loopback port;
 * - `answer(face, handler, request)`: a web Request answered on that face (the web face in
 *   process; the native face over a loopback server kept per handler until `closeServed()`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe } from "vitest";
import * as R from "../generated/2026-07-28/index.js";

/** The two faces of a runtime HTTP handler. */
export type Face = "native" | "web";
export const FACES: readonly Face[] = ["native", "web"];

/** A describe per face: `describeFaces("the thing", (face) => { … })`. */
export function describeFaces(name: string, body: (face: Face) => void): void {
  describe.each(FACES)(`${name} (%s face)`, (face) => body(face));
}

type AnyHandler = R.HttpHandler | R.ServedHandler;
type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** The handler as the web face alone: a plain function, without the core toNodeListener would take. */
export function webOnly(handler: AnyHandler): R.HttpHandler {
  return (request, info) => handler(request, info);
}

/** The node:http listener of `handler` on `face`. */
export function listenerFor(face: Face, handler: AnyHandler, options: R.NodeListenerOptions = {}): Listener {
  const listener = face === "native" ? R.toNodeListener(handler, options) : R.toNodeListener(webOnly(handler), options);
  return listener as unknown as Listener;
}

export interface Listening {
  readonly http: Server;
  /** http://127.0.0.1:port */
  readonly origin: string;
  /** http://127.0.0.1:port/mcp */
  readonly url: string;
  close(): Promise<void>;
}

/** `handler` on `face`, on a real node:http server on a free loopback port (`wrap`: a listener around it, to watch requests). */
export async function listen(face: Face, handler: AnyHandler, options: { readonly wrap?: (listener: Listener) => Listener; readonly onError?: (error: Error) => void } = {}): Promise<Listening> {
  const listener = listenerFor(face, handler, options.onError === undefined ? {} : { onError: options.onError });
  const http = createServer(options.wrap === undefined ? listener : options.wrap(listener));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    http,
    origin,
    url: `${origin}/mcp`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Native-face servers of `answer`, one per handler, closed by closeServed (after each file). */
const served = new Map<AnyHandler, Promise<Listening>>();

/** Closes the loopback servers `answer` started. */
export async function closeServed(): Promise<void> {
  const all = [...served.values()];
  served.clear();
  await Promise.all(all.map(async (listening) => (await listening).close()));
}
afterAll(closeServed);

/**
 * A web Request answered by `handler` on `face`: the web face calls it in process; the native
 * face sends the same method, path, headers and body over a loopback socket (its Host is then the
 * loopback server's) and gives back what came, as a Response. The request's signal aborting
 * drops the connection, as a client going away.
 */
export async function answer(face: Face, handler: AnyHandler, request: Request, info?: R.HttpRequestInfo): Promise<Response> {
  if (face === "web") return handler(request, info);
  let listening = served.get(handler);
  if (listening === undefined) {
    listening = listen("native", handler);
    served.set(handler, listening);
  }
  const { origin } = await listening;
  const url = new URL(request.url);
  const headers = new Headers(request.headers);
  headers.delete("host");
  const body = request.body === null ? null : new Uint8Array(await request.arrayBuffer());
  return fetch(`${origin}${url.pathname}${url.search}`, { method: request.method, headers, body, signal: request.signal });
}

/** A response read whole: its status, headers, text, and the text parsed as JSON (undefined when it is not JSON). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

/** One fetch, read whole. */
export async function send(url: string, init: RequestInit): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}
