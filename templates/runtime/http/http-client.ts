// The Streamable HTTP client transport of the stateless revisions (2026-07-28): one POST per
// message, a JSON or an SSE response per request, and cancel = closing that request's stream.
// Spec: basic/transports/streamable-http.mdx of 2026-07-28 ("Sending Messages", "Receiving
// Messages", "Cancellation", "Request Metadata"). Everything the server sends is untrusted:
// bodies, SSE lines and events are bounded, and a response only settles the request whose
// stream carried it.

import {
  describeValue,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from "../core/protocol.js";

/** The `fetch` the transport calls: the global one, or a wrapper (auth, logging, tests). */
export type FetchLike = (input: string | URL, init: RequestInit) => Promise<Response>;

export interface HttpClientTransportOptions {
  /** The MCP endpoint (one URL for every POST). */
  readonly url: string | URL;
  /** Default: the global `fetch`. Wrap it to add authorization or to watch the traffic. */
  readonly fetch?: FetchLike | undefined;
  /** Extra headers on every POST (the MCP headers below win on a clash). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /**
   * `MCP-Protocol-Version` when a message's `_meta` names no version (a notification; default:
   * the version of the last request sent). A request's header is its `_meta` version (Request
   * Metadata: the header MUST equal `io.modelcontextprotocol/protocolVersion` of the body).
   */
  readonly protocolVersion?: string | undefined;
  /**
   * Largest JSON body, SSE line or SSE event (its data lines together) accepted from the server,
   * in bytes (default DEFAULT_MAX_HTTP_MESSAGE_BYTES, 4 MiB). Beyond it the request's stream is
   * closed and the request rejects with RequestStreamBrokenError: nothing grows without bound.
   */
  readonly maxMessageBytes?: number | undefined;
  /** More requests whose params key goes into `Mcp-Name` (method → key), beside the standard ones. */
  readonly nameSources?: Readonly<Record<string, string>> | undefined;
}

/** Default bound of a body, a line or an event read from the server: 4 MiB. */
export const DEFAULT_MAX_HTTP_MESSAGE_BYTES: number = 4 * 1024 * 1024;

/**
 * A request's response stream broke before its response arrived (the connection dropped, the
 * stream ended without a response, the server sent more than `maxMessageBytes` in one piece,
 * or something that is not JSON-RPC). The request is lost: 2026-07-28 has no resumption
 * ("Resumable SSE streams via Last-Event-ID are not supported"), and re-issuing it is a new
 * request with a new id.
 */
export class RequestStreamBrokenError extends Error {
  override name = "RequestStreamBrokenError";
  readonly method: string;
  readonly requestId: RequestId;
  constructor(method: string, requestId: RequestId, problem: string) {
    super(`the response stream of ${method} (id ${String(requestId)}) broke: ${problem}`);
    this.method = method;
    this.requestId = requestId;
  }
}

/** The server answered a POST with an HTTP error status and no JSON-RPC error for it. */
export class HttpStatusError extends Error {
  override name = "HttpStatusError";
  readonly status: number;
  readonly method: string;
  constructor(method: string, status: number) {
    super(`${method}: the server answered HTTP ${status}`);
    this.status = status;
    this.method = method;
  }
}

/**
 * The params key each method mirrors into `Mcp-Name` (Standard Request Headers), and those of
 * the Tasks extension's requests (SEP-2663, Streamable HTTP: Routing Headers: `Mcp-Name` is the
 * `taskId`), which only a server that offers the extension ever receives. `nameSources` in the
 * options adds others (another extension's requests).
 */
const NAME_SOURCES: { readonly [method: string]: string | undefined } = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";
const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";
/** Visible ASCII, space and tab, not starting or ending with whitespace (Value Encoding, RFC 9110 field values). */
const PLAIN_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)$/;
/** RFC 9110 token: the `x-mcp-header` name constraint (Custom Headers from Tool Parameters). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A value as an `Mcp-Name` or `Mcp-Param-*` header value (Value Encoding): as it is when it is
 * plain visible ASCII without leading or trailing whitespace and does not look like the
 * sentinel, else `=?base64?{Base64 of its UTF-8}?=` (the empty string too, which a plain header
 * could not tell from a missing one).
 */
export function encodeHeaderValue(value: string): string {
  if (PLAIN_VALUE.test(value) && !(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX))) return value;
  const bytes = encoder.encode(value);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `${SENTINEL_PREFIX}${btoa(binary)}${SENTINEL_SUFFIX}`;
}

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v);

/** One `x-mcp-header` annotation of a tool: the argument's path of `properties` keys and the header name. */
export interface ToolHeader {
  readonly path: readonly string[];
  readonly header: string;
}

/** Deepest schema the annotation scan walks; a deeper one is refused (no unbounded recursion). */
const MAX_SCHEMA_DEPTH = 64;

/**
 * The `x-mcp-header` annotations of a tool's inputSchema, or the reason the tool is invalid
 * (Custom Headers from Tool Parameters, Schema Extension): a value that is not a non-empty
 * token, a duplicate (case-insensitive), a type other than string, integer or boolean, or an
 * annotation not reachable from the root through `properties` keys alone.
 */
export function toolHeaders(inputSchema: unknown): ToolHeader[] | string {
  const found: ToolHeader[] = [];
  const seen = new Set<string>();
  // path: the chain of properties keys, or null once the walk left such a chain.
  const visit = (node: unknown, path: string[] | null, depth: number): string | null => {
    if (depth > MAX_SCHEMA_DEPTH) return `inputSchema is nested deeper than ${MAX_SCHEMA_DEPTH}`;
    if (Array.isArray(node)) {
      for (const item of node) {
        const problem = visit(item, null, depth + 1);
        if (problem !== null) return problem;
      }
      return null;
    }
    if (!isObject(node)) return null;
    if (Object.hasOwn(node, "x-mcp-header")) {
      const header = node["x-mcp-header"];
      if (path === null || path.length === 0) return "an x-mcp-header annotation is not reachable through properties alone";
      if (typeof header !== "string" || !TOKEN.test(header)) return `x-mcp-header ${describeValue(header)} is not an HTTP token`;
      const type = node["type"];
      if (type !== "string" && type !== "integer" && type !== "boolean") return `x-mcp-header ${header} is on a parameter of type ${describeValue(type)}`;
      const key = header.toLowerCase();
      if (seen.has(key)) return `x-mcp-header ${header} is not unique`;
      seen.add(key);
      found.push({ path, header });
    }
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (key === "properties" && isObject(child)) {
        for (const name of Object.keys(child)) {
          const problem = visit(child[name], path === null ? null : [...path, name], depth + 1);
          if (problem !== null) return problem;
        }
      } else if (child !== null && typeof child === "object") {
        const problem = visit(child, null, depth + 1);
        if (problem !== null) return problem;
      }
    }
    return null;
  };
  const problem = visit(inputSchema, [], 0);
  return problem ?? found;
}

/** An argument as a header value (Value Encoding, type conversion), or undefined to omit the header. */
function headerArgument(args: unknown, path: readonly string[]): string | undefined {
  let value: unknown = args;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  if (typeof value === "string") return encodeHeaderValue(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** Most tools whose annotations are remembered; beyond it the oldest are forgotten. */
const MAX_KNOWN_TOOLS = 10_000;

/** HeaderMismatch (2026-07-28 basic/transports/streamable-http, Server Validation). */
const HEADER_MISMATCH = -32020;
/** Most tools/list pages read to refresh a tool's annotations after a HeaderMismatch. */
const MAX_REFRESH_PAGES = 16;
/** The ids of the transport's own tools/list requests (a refresh), never an endpoint's. */
const REFRESH_ID_PREFIX = "mcp-stubgen/tools-list-refresh/";

/** A request on its way: its stream's controller, for closeRequestStream. */
interface Stream {
  readonly method: string;
  readonly controller: AbortController;
  /** A request of the transport's own (a refresh): its response goes here, not to onmessage. */
  readonly capture?: ((message: JsonObject) => void) | undefined;
  /** This side closed it (a cancel): its end is no error. */
  closed: boolean;
  /** Its response was delivered. */
  answered: boolean;
}

/**
 * A Transport over Streamable HTTP (2026-07-28). Each message is one POST; a request's response
 * (JSON or SSE) is read on that POST, and its notifications (progress, logging) with it.
 * `closeRequestStream(id)` aborts that request's fetch, which closes its stream: the cancel
 * (Cancellation: "Closing the SSE response stream MUST be treated by the server as
 * cancellation of that request"), so the endpoint sends no notifications/cancelled.
 */
export class HttpClientTransport implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string | undefined;
  readonly #url: string | URL;
  readonly #fetch: FetchLike;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #protocolVersion: string | undefined;
  readonly #max: number;
  readonly #streams = new Map<RequestId, Stream>();
  /** The `x-mcp-header` annotations of every valid tool seen in a tools/list result. */
  readonly #toolHeaders = new Map<string, readonly ToolHeader[]>();
  readonly #nameSources: { readonly [method: string]: string | undefined };
  #closed = false;
  /** The `_meta` protocol version of the last message that had one (for those without). */
  #lastVersion: string | undefined;
  /** Count of the transport's own tools/list requests (their ids). */
  #refreshes = 0;

  constructor(options: HttpClientTransportOptions) {
    const max = options.maxMessageBytes ?? DEFAULT_MAX_HTTP_MESSAGE_BYTES;
    if (typeof max !== "number" || !Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${describeValue(max)}`);
    }
    const fetchFn = options.fetch ?? (typeof fetch === "function" ? (input: string | URL, init: RequestInit) => fetch(input, init) : undefined);
    if (fetchFn === undefined) throw new TypeError("no fetch: pass options.fetch");
    this.#url = options.url;
    this.#fetch = fetchFn;
    this.#headers = { ...options.headers };
    this.#protocolVersion = options.protocolVersion;
    this.#max = max;
    this.#nameSources = { ...NAME_SOURCES, ...options.nameSources };
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Closes every request's stream; pending requests then reject with ConnectionClosedError (endpoint). */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const stream of this.#streams.values()) {
      stream.closed = true;
      stream.controller.abort("transport closed");
    }
    this.#streams.clear();
    try {
      this.onclose?.();
    } catch (error) {
      this.#error(error);
    }
    return Promise.resolve();
  }

  /** Aborts the fetch of a request this side sent, closing its stream: the cancel (Cancellation). */
  closeRequestStream(requestId: RequestId): boolean {
    const stream = this.#streams.get(requestId);
    if (stream === undefined) return false;
    this.#streams.delete(requestId);
    stream.closed = true;
    stream.controller.abort("request cancelled by the client");
    return true;
  }

  /**
   * POSTs one message. For a request the promise settles when its response has been delivered
   * (to onmessage), and rejects when it cannot be (HttpStatusError, RequestStreamBrokenError,
   * the fetch's own error), which rejects the request. A JSON-RPC response is refused: "The
   * client MUST NOT send JSON-RPC responses" (Sending Messages).
   */
  send(message: JsonRpcMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("transport closed"));
    if (!("method" in message)) return Promise.reject(new Error("Streamable HTTP (2026-07-28): a client sends no JSON-RPC responses"));
    let headers: Record<string, string>;
    let body: string;
    try {
      headers = this.#headersFor(message.method, message.params);
      body = JSON.stringify(message);
    } catch (error) {
      return Promise.reject(error);
    }
    if (!("id" in message)) return this.#notify(message.method, headers, body);
    return this.#request(message.id, message.method, headers, body, message.params);
  }

  /** The headers of a POST (Sending Messages 2, Request Metadata). */
  #headersFor(method: string, params: JsonObject | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.#headers,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    // "Every POST request to the MCP endpoint MUST include an MCP-Protocol-Version header"
    // (Protocol Version Header): a request's own `_meta` version; for a message without one (a
    // notification), the option, else the version of the last request sent.
    const meta = params?.["_meta"];
    const own = isObject(meta) && typeof meta[PROTOCOL_VERSION_META] === "string" ? meta[PROTOCOL_VERSION_META] : undefined;
    if (own !== undefined) this.#lastVersion = own;
    const version = own ?? this.#protocolVersion ?? this.#lastVersion;
    if (version !== undefined) headers["mcp-protocol-version"] = version;
    headers["mcp-method"] = method;
    const source = Object.hasOwn(this.#nameSources, method) ? this.#nameSources[method] : undefined;
    const name = source === undefined ? undefined : params?.[source];
    if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
    if (method === "tools/call" && typeof name === "string") {
      for (const { path, header } of this.#toolHeaders.get(name) ?? []) {
        const value = headerArgument(params?.["arguments"], path);
        if (value !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = value;
      }
    }
    return headers;
  }

  async #notify(method: string, headers: Record<string, string>, body: string): Promise<void> {
    const response = await this.#fetch(this.#url, { method: "POST", headers, body });
    // Sending Messages 5: 202 Accepted with no body; an error status otherwise.
    await response.body?.cancel().catch(() => {});
    if (!response.ok) throw new HttpStatusError(method, response.status);
  }

  async #request(id: RequestId, method: string, headers: Record<string, string>, body: string, params: JsonObject | undefined): Promise<void> {
    const stream: Stream = { method, controller: new AbortController(), closed: false, answered: false };
    this.#streams.get(id)?.controller.abort("request id reused");
    this.#streams.set(id, stream);
    try {
      const response = await this.#fetch(this.#url, { method: "POST", headers, body, signal: stream.controller.signal });
      const mismatch = await this.#read(id, stream, response, method === "tools/call");
      if (mismatch !== undefined) await this.#retryAfterMismatch(id, stream, headers, body, params, mismatch);
      if (!stream.answered && !stream.closed) throw new RequestStreamBrokenError(method, id, "the response ended without an answer");
    } catch (error) {
      if (stream.closed || stream.answered) return; // cancelled by this side, or already answered
      if (error instanceof RequestStreamBrokenError || error instanceof HttpStatusError) throw error;
      // A fetch that fails after the POST went out (reset, refused) loses the request as well.
      throw new RequestStreamBrokenError(method, id, error instanceof Error ? error.message : describeValue(error));
    } finally {
      if (this.#streams.get(id) === stream) this.#streams.delete(id);
      // Whatever ended the read, nothing of this request's connection is left open.
      if (!stream.controller.signal.aborted) stream.controller.abort("request finished");
    }
  }

  /**
   * A tools/call the server refused with HeaderMismatch ("If the server rejects a request with a
   * HeaderMismatch error because required Mcp-Param-* headers are missing or do not match the
   * body, the client SHOULD call tools/list to check for changes to the tool's inputSchema, then
   * retry the original request with the appropriate headers", Custom Headers from Tool
   * Parameters): the tools are listed again (at most MAX_REFRESH_PAGES pages, on this request's
   * signal, so a cancel stops it) and the request is POSTed once more, with the same id, when its
   * headers changed. Otherwise, or when the refresh fails, the server's error answers the request.
   */
  async #retryAfterMismatch(
    id: RequestId,
    stream: Stream,
    headers: Record<string, string>,
    body: string,
    params: JsonObject | undefined,
    mismatch: JsonObject,
  ): Promise<void> {
    try {
      await this.#refreshTools(stream, params?.["_meta"]);
    } catch (error) {
      if (stream.closed) return;
      this.#error(new Error(`tools/call (id ${String(id)}): refreshing the tools after a HeaderMismatch failed: ${error instanceof Error ? error.message : describeValue(error)}`));
      this.#deliver(stream, id, mismatch);
      return;
    }
    if (stream.closed) return;
    const again = this.#headersFor("tools/call", params);
    const same = Object.keys(again).length === Object.keys(headers).length && Object.entries(again).every(([name, value]) => headers[name] === value);
    if (same) {
      this.#deliver(stream, id, mismatch);
      return;
    }
    const response = await this.#fetch(this.#url, { method: "POST", headers: again, body, signal: stream.controller.signal });
    await this.#read(id, stream, response, false);
  }

  /**
   * Lists the tools again for their `x-mcp-header` annotations (#learnTools), page by page, with
   * the `_meta` of the request that needs them (its protocol version, capabilities and client
   * info: every request carries them). The results go nowhere else.
   */
  async #refreshTools(parent: Stream, meta: unknown): Promise<void> {
    const requestMeta: JsonObject = {};
    if (isObject(meta)) for (const key of Object.keys(meta)) if (key.startsWith("io.modelcontextprotocol/")) requestMeta[key] = meta[key]!;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_REFRESH_PAGES; page++) {
      const id = `${REFRESH_ID_PREFIX}${++this.#refreshes}`;
      const params: JsonObject = cursor === undefined ? { _meta: requestMeta } : { _meta: requestMeta, cursor };
      let answer: JsonObject | undefined;
      // The parent's controller: closing the tools/call's stream aborts its refresh too.
      const stream: Stream = { method: "tools/list", controller: parent.controller, closed: false, answered: false, capture: (m) => (answer = m) };
      const response = await this.#fetch(this.#url, {
        method: "POST",
        headers: this.#headersFor("tools/list", params),
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params }),
        signal: parent.controller.signal,
      });
      await this.#read(id, stream, response, false);
      const result = answer?.["result"];
      if (!isObject(result)) throw new Error(answer === undefined ? "tools/list gave no answer" : "tools/list answered an error");
      const next = result["nextCursor"];
      if (typeof next !== "string") return;
      cursor = next;
    }
  }

  /**
   * Reads a request's response: JSON or SSE (Sending Messages 6), or an HTTP error. With
   * `retryOnMismatch`, a HeaderMismatch error is returned instead of delivered (the caller may
   * refresh the tools and retry).
   */
  async #read(id: RequestId, stream: Stream, response: Response, retryOnMismatch: boolean): Promise<JsonObject | undefined> {
    const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const body = response.body;
    if (!response.ok) {
      // A JSON-RPC error in the body (400 HeaderMismatch, 404 Method not found, …) answers the
      // request; it belongs to this POST, so a missing or null id is this request's.
      if (type === "application/json" && body !== null) {
        let message: unknown;
        try {
          message = JSON.parse(await this.#readAll(stream, id, body));
        } catch {
          message = undefined;
        }
        if (isObject(message) && isObject(message["error"]) && (message["id"] === undefined || message["id"] === null || message["id"] === id)) {
          if (retryOnMismatch && message["error"]["code"] === HEADER_MISMATCH) return { ...message, id };
          this.#deliver(stream, id, { ...message, id });
          return undefined;
        }
      } else {
        await body?.cancel().catch(() => {});
      }
      throw new HttpStatusError(stream.method, response.status);
    }
    if (body === null) throw new RequestStreamBrokenError(stream.method, id, "the response has no body");
    if (type === "application/json") {
      this.#deliver(stream, id, this.#parse(stream, id, await this.#readAll(stream, id, body)));
      return undefined;
    }
    if (type === "text/event-stream") {
      await this.#readEvents(id, stream, body);
      return undefined;
    }
    await body.cancel().catch(() => {});
    throw new RequestStreamBrokenError(stream.method, id, `unexpected content type ${describeValue(type)}`);
  }

  /** A whole body, at most maxMessageBytes. */
  async #readAll(stream: Stream, id: RequestId, body: ReadableStream<Uint8Array>): Promise<string> {
    const reader = body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.#max) {
        await reader.cancel().catch(() => {});
        throw new RequestStreamBrokenError(stream.method, id, `the body exceeds ${this.#max} bytes`);
      }
      parts.push(value);
    }
    return decoder.decode(concat(parts, size));
  }

  /**
   * An SSE response (Receiving Messages), per the SSE format: lines end with CRLF, LF or CR;
   * `data:` lines of one event are joined with LF; a blank line dispatches; comments (`:`) and
   * `id:`/`retry:` are ignored (no resumption in 2026-07-28). A line, and an event's data, of
   * more than maxMessageBytes closes the stream. The stream is closed once the response came
   * ("The final JSON-RPC response SHOULD terminate the stream").
   */
  async #readEvents(id: RequestId, stream: Stream, body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const max = this.#max;
    const splitter = new SseLineSplitter(max);
    let data: string[] = [];
    let dataSize = 0;
    let eventType = "";
    const fail = async (problem: string): Promise<never> => {
      await reader.cancel().catch(() => {});
      throw new RequestStreamBrokenError(stream.method, id, problem);
    };
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (stream.closed || stream.answered) return;
        return fail(`the connection broke: ${error instanceof Error ? error.message : describeValue(error)}`);
      }
      if (chunk.done) return;
      const { lines, tooLong } = splitter.push(chunk.value);
      for (const { text } of lines) {
        // One line of the event stream.
        if (text === "") {
          if (data.length > 0 && (eventType === "" || eventType === "message")) {
            const message = this.#parse(stream, id, data.join("\n"));
            this.#deliver(stream, id, message);
            if (stream.answered) {
              await reader.cancel().catch(() => {});
              return;
            }
          }
          data = [];
          dataSize = 0;
          eventType = "";
          continue;
        }
        if (text.startsWith(":")) continue;
        const colon = text.indexOf(":");
        const field = colon < 0 ? text : text.slice(0, colon);
        let value = colon < 0 ? "" : text.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "data") {
          dataSize += value.length + 1;
          if (dataSize > max) return fail(`an SSE event exceeds ${max} bytes`);
          data.push(value);
        } else if (field === "event") {
          eventType = value;
        }
      }
      if (tooLong) return fail(`an SSE line exceeds ${max} bytes`);
    }
  }

  /** A message of the server's as JSON, or the stream breaks. */
  #parse(stream: Stream, id: RequestId, text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      throw new RequestStreamBrokenError(stream.method, id, "the server sent a message that is not JSON");
    }
  }

  /**
   * Hands one message of this request's stream to the endpoint. Only notifications and the
   * response with this request's id pass: a response naming another id cannot settle another
   * request, and a request is refused ("The server MUST NOT send independent JSON-RPC requests
   * on this stream", Receiving Messages).
   */
  #deliver(stream: Stream, id: RequestId, message: unknown): void {
    if (stream.closed || stream.answered) return;
    if (!isObject(message) || message["jsonrpc"] !== "2.0") throw new RequestStreamBrokenError(stream.method, id, "the server sent a message that is not JSON-RPC 2.0");
    const isNotification = typeof message["method"] === "string" && !("id" in message);
    if (!isNotification) {
      if (typeof message["method"] === "string" || message["id"] !== id) {
        this.#error(new Error(`the server sent a ${typeof message["method"] === "string" ? "request" : "response for another id"} on the stream of ${stream.method} (id ${String(id)}); dropped`));
        return;
      }
      stream.answered = true;
      if (stream.method === "tools/list") this.#learnTools(message);
    }
    if (stream.capture !== undefined) {
      // The transport's own request: its answer is captured, its notifications dropped.
      if (!isNotification) stream.capture(message);
      return;
    }
    try {
      this.onmessage?.(message as unknown as JsonRpcMessage);
    } catch (error) {
      this.#error(error);
    }
  }

  /**
   * Remembers the `x-mcp-header` annotations of the tools of a tools/list result and removes the
   * tools whose annotations are invalid ("the client MUST exclude the invalid tool from the
   * result of tools/list"; "SHOULD log a warning": onerror, naming the tool and why).
   */
  #learnTools(message: JsonObject): void {
    const result = message["result"];
    if (!isObject(result) || !Array.isArray(result["tools"])) return;
    const kept: unknown[] = [];
    for (const tool of result["tools"] as unknown[]) {
      if (!isObject(tool) || typeof tool["name"] !== "string") {
        kept.push(tool);
        continue;
      }
      const headers = toolHeaders(tool["inputSchema"]);
      if (typeof headers === "string") {
        this.#error(new Error(`tools/list: tool ${describeValue(tool["name"])} excluded: ${headers}`));
        this.#toolHeaders.delete(tool["name"]);
        continue;
      }
      this.#toolHeaders.delete(tool["name"]);
      if (headers.length > 0) {
        this.#toolHeaders.set(tool["name"], headers);
        if (this.#toolHeaders.size > MAX_KNOWN_TOOLS) this.#toolHeaders.delete(this.#toolHeaders.keys().next().value as string);
      }
      kept.push(tool);
    }
    result["tools"] = kept;
  }

  #error(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing onerror must not break the transport.
    }
  }
}

/**
 * Splits an SSE body into lines as it arrives (SSE: a line ends with CRLF, LF or CR; a CRLF split
 * across two chunks ends one line). Bounded: a line of more than `max` bytes stops the splitting
 * (`tooLong`) without being buffered further. Each line comes decoded, with its size in bytes.
 * Shared by the HTTP client transports of both eras (this file and http-session-client.ts).
 */
export class SseLineSplitter {
  readonly #max: number;
  #line: Uint8Array[] = [];
  #size = 0;
  #afterCR = false;

  constructor(max: number) {
    this.#max = max;
  }

  /** The lines `bytes` completes, in order, and whether a line went over the bound (then stop reading). */
  push(bytes: Uint8Array): { readonly lines: ReadonlyArray<{ readonly text: string; readonly bytes: number }>; readonly tooLong: boolean } {
    const lines: Array<{ text: string; bytes: number }> = [];
    let start = 0;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b !== 0x0a && b !== 0x0d) continue;
      if (b === 0x0a && this.#afterCR && i === start && this.#size === 0) {
        // The LF of a CRLF split across chunks (or right after the CR).
        this.#afterCR = false;
        start = i + 1;
        continue;
      }
      const piece = bytes.subarray(start, i);
      this.#size += piece.byteLength;
      if (this.#size > this.#max) return { lines, tooLong: true };
      this.#line.push(piece);
      lines.push({ text: decoder.decode(concat(this.#line, this.#size)), bytes: this.#size });
      this.#line = [];
      this.#size = 0;
      this.#afterCR = b === 0x0d;
      start = i + 1;
    }
    if (start < bytes.length) {
      const piece = bytes.subarray(start);
      this.#size += piece.byteLength;
      if (this.#size > this.#max) return { lines, tooLong: true };
      this.#line.push(piece);
      this.#afterCR = false;
    }
    return { lines, tooLong: false };
  }
}

/** The parts of a line or body as one array (shared with http-session-client.ts). */
export function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** A client transport for the Streamable HTTP endpoint at `options.url` (2026-07-28). */
export function createHttpClientTransport(options: HttpClientTransportOptions): HttpClientTransport {
  return new HttpClientTransport(options);
}
