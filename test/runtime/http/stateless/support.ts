/**
 * Helpers of the Streamable HTTP wire tests: a 2026-07-28 server behind a real node:http server
 * on 127.0.0.1, conformant request headers and `_meta`, and exact reads of what came back.
 */
import { request as httpRequest, type Server } from "node:http";
import * as R from "../../../generated/2026-07-28/index.js";
import { META_KEYS, requestMeta } from "../../../helpers/fixtures.js";
import { fixtureServer, listen } from "./fixture-server.js";

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

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

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
  readonly server: R.McpServer;
  readonly http: Server;
  readonly url: string;
  readonly events: R.CancellationEvent[];
  readonly errors: Error[];
  close(): Promise<void>;
}

/** The fixture server (or one made with `options`) behind createHttpHandler and toNodeListener. */
export async function serve(options: R.McpServerOptions = {}, httpOptions: R.HttpHandlerOptions = {}): Promise<Served> {
  const events: R.CancellationEvent[] = [];
  const errors: Error[] = [];
  const server = fixtureServer({ onCancellation: (e) => events.push(e), onError: (e) => errors.push(e), ...options });
  const { http, url } = await listen(R.createHttpHandler(server, { onError: (e) => errors.push(e), ...httpOptions }));
  return {
    server,
    http,
    url,
    events,
    errors,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
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
