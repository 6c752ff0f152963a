// The Streamable HTTP client transport of the stateless revisions (2026-07-28): one POST per
// message, a JSON or an SSE response per request, and cancel = closing that request's stream.
// Spec: basic/transports/streamable-http.mdx of 2026-07-28 ("Sending Messages", "Receiving
// Messages", "Cancellation", "Request Metadata"). Everything the server sends is untrusted:
// bodies, SSE lines and events are bounded, and a response only settles the request whose
// stream carried it.

import { DEFAULT_MAX_MESSAGE_DEPTH, maxJsonDepthOption, parseJsonWithin } from "../core/json-depth.js";
import { isObject } from "../core/json.js";
import {
  describeValue,
  type JsonObject,
  type JsonRpcMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from "../core/protocol.js";
import {
  errorAnswer,
  handOver,
  HttpStatusError,
  maxBytesOf,
  mediaType,
  readBounded,
  report,
  RequestStreamBrokenError,
  TOO_LARGE,
  unreadable,
  type FetchLike,
  type HttpClientBaseOptions,
} from "./fetch.js";
import { clientFetch, type HttpClientAuthOptions } from "./auth.js";
import { encodeHeaderValue, headerArgument, toolHeaders, type ToolHeader } from "./headers.js";
import { readSse, SseParser } from "./sse.js";

/** `url`, `fetch`, `headers` and `maxMessageBytes` as for every HTTP client transport (fetch.ts); every message is a POST. */
export interface HttpClientTransportOptions extends HttpClientBaseOptions, HttpClientAuthOptions {
  /**
   * `MCP-Protocol-Version` when a message's `_meta` names no version (a notification; default:
   * the version of the last request sent). A request's header is its `_meta` version (Request
   * Metadata: the header MUST equal `io.modelcontextprotocol/protocolVersion` of the body).
   */
  readonly protocolVersion?: string | undefined;
  /** More requests whose params key goes into `Mcp-Name` (method → key), beside the standard ones. */
  readonly nameSources?: Readonly<Record<string, string>> | undefined;
}

/**
 * What the client transport needs to know of a revision: generated data (HTTP in catalog.ts, the
 * binding the server reads too). The runtime knows none of it.
 */
export interface HttpClientBinding {
  /**
   * The request `_meta` keys: the protocol version (its value is the `MCP-Protocol-Version`
   * header), the client's capabilities and info, and those every request MUST carry (a refresh
   * of the tools carries them from the request that needs it).
   */
  readonly meta: { readonly protocolVersion: string; readonly clientCapabilities: string; readonly clientInfo: string; readonly required: readonly string[] };
  /** Method → the params field the `Mcp-Name` header mirrors (Standard Request Headers, and an extension's requests). */
  readonly nameSources: { readonly [method: string]: string };
  /** The tool methods whose `x-mcp-header` annotations map `arguments` to `Mcp-Param-*` headers; null: none. */
  readonly toolHeaders: { readonly list: string; readonly call: string; readonly arguments: string } | null;
  /** HeaderMismatchError's code: a tools/call refused with it is retried once after the tools are listed again. */
  readonly errors: { readonly headerMismatch: number };
}

const decoder = new TextDecoder();

/** Most tools whose annotations are remembered; beyond it the oldest are forgotten. */
const MAX_KNOWN_TOOLS = 10_000;

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
  readonly #maxDepth: number;
  readonly #streams = new Map<RequestId, Stream>();
  /** The `x-mcp-header` annotations of every valid tool seen in a tools/list result. */
  readonly #toolHeaders = new Map<string, readonly ToolHeader[]>();
  readonly #nameSources: { readonly [method: string]: string | undefined };
  readonly #binding: HttpClientBinding;
  #closed = false;
  /** The `_meta` protocol version of the last message that had one (for those without). */
  #lastVersion: string | undefined;
  /** Count of the transport's own tools/list requests (their ids). */
  #refreshes = 0;

  /** `binding`: the revision's (the generated HttpClientTransport of a revision's index passes HTTP from catalog.ts). */
  constructor(options: HttpClientTransportOptions, binding: HttpClientBinding) {
    const max = maxBytesOf(options.maxMessageBytes);
    if (!isObject(binding) || !isObject(binding.meta) || typeof binding.meta.protocolVersion !== "string" || !isObject(binding.nameSources) || !isObject(binding.errors)) {
      throw new TypeError(`HttpClientTransport needs the revision's HTTP binding (HTTP of catalog.ts), got ${describeValue(binding)}`);
    }
    this.#binding = binding;
    this.#url = options.url;
    this.#fetch = clientFetch(options);
    this.#headers = { ...options.headers };
    this.#protocolVersion = options.protocolVersion;
    this.#max = max;
    this.#maxDepth = maxJsonDepthOption(options.maxJsonDepth, DEFAULT_MAX_MESSAGE_DEPTH);
    this.#nameSources = { ...binding.nameSources, ...options.nameSources };
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
    if (!("method" in message)) return Promise.reject(new Error("Streamable HTTP (stateless): a client sends no JSON-RPC responses"));
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
    const key = this.#binding.meta.protocolVersion;
    const own = isObject(meta) && typeof meta[key] === "string" ? meta[key] : undefined;
    if (own !== undefined) this.#lastVersion = own;
    const version = own ?? this.#protocolVersion ?? this.#lastVersion;
    if (version !== undefined) headers["mcp-protocol-version"] = version;
    headers["mcp-method"] = method;
    const source = Object.hasOwn(this.#nameSources, method) ? this.#nameSources[method] : undefined;
    const name = source === undefined ? undefined : params?.[source];
    if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
    const tools = this.#binding.toolHeaders;
    if (tools !== null && method === tools.call && typeof name === "string") {
      for (const { path, header } of this.#toolHeaders.get(name) ?? []) {
        const value = headerArgument(params?.[tools.arguments], path);
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
      const mismatch = await this.#read(id, stream, response, method === this.#binding.toolHeaders?.call);
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
    const again = this.#headersFor(stream.method, params);
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
    const list = this.#binding.toolHeaders!.list;
    const { protocolVersion, clientCapabilities, clientInfo, required } = this.#binding.meta;
    const requestMeta: JsonObject = {};
    if (isObject(meta)) for (const key of [protocolVersion, clientCapabilities, clientInfo, ...required]) if (Object.hasOwn(meta, key)) requestMeta[key] = meta[key]!;
    let cursor: string | undefined;
    for (let page = 0; page < MAX_REFRESH_PAGES; page++) {
      const id = `${REFRESH_ID_PREFIX}${++this.#refreshes}`;
      const params: JsonObject = cursor === undefined ? { _meta: requestMeta } : { _meta: requestMeta, cursor };
      let answer: JsonObject | undefined;
      // The parent's controller: closing the tools/call's stream aborts its refresh too.
      const stream: Stream = { method: list, controller: parent.controller, closed: false, answered: false, capture: (m) => (answer = m) };
      const response = await this.#fetch(this.#url, {
        method: "POST",
        headers: this.#headersFor(list, params),
        body: JSON.stringify({ jsonrpc: "2.0", id, method: list, params }),
        signal: parent.controller.signal,
      });
      await this.#read(id, stream, response, false);
      const result = answer?.["result"];
      if (!isObject(result)) throw new Error(answer === undefined ? `${list} gave no answer` : `${list} answered an error`);
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
    const type = mediaType(response);
    const body = response.body;
    if (!response.ok) {
      // A JSON-RPC error in the body (400 HeaderMismatch, 404 Method not found, …) answers the
      // request; it belongs to this POST, so a missing or null id is this request's.
      if (type === "application/json" && body !== null) {
        let message: unknown;
        try {
          message = parseJsonWithin(await this.#readAll(stream, id, body), this.#maxDepth);
        } catch {
          message = undefined;
        }
        const answer = errorAnswer(message, id);
        if (answer !== undefined) {
          if (retryOnMismatch && (answer["error"] as JsonObject)["code"] === this.#binding.errors.headerMismatch) return answer;
          this.#deliver(stream, id, answer);
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
    const bytes = await readBounded(body, this.#max);
    if (bytes === TOO_LARGE) throw new RequestStreamBrokenError(stream.method, id, `the body exceeds ${this.#max} bytes`);
    return decoder.decode(bytes);
  }

  /**
   * An SSE response (Receiving Messages), read with the runtime's one SSE parser (sse.ts): each
   * event of type message carries one message; `id:` and `retry:` mean nothing here (no
   * resumption in 2026-07-28). A line, or an event's data, of more than maxMessageBytes closes
   * the stream. The stream is closed once the response came ("The final JSON-RPC response
   * SHOULD terminate the stream").
   */
  async #readEvents(id: RequestId, stream: Stream, body: ReadableStream<Uint8Array>): Promise<void> {
    const end = await readSse(body.getReader(), new SseParser(this.#max), (event) => {
      if (event.type !== "message") return false;
      this.#deliver(stream, id, this.#parse(stream, id, event.data));
      return stream.answered;
    });
    if (end.kind === "too-large") throw new RequestStreamBrokenError(stream.method, id, end.problem);
    if (end.kind === "broken" && !stream.closed && !stream.answered) {
      throw new RequestStreamBrokenError(stream.method, id, `the connection broke: ${end.error instanceof Error ? end.error.message : describeValue(end.error)}`);
    }
  }

  /** A message of the server's as JSON, or the stream breaks. */
  #parse(stream: Stream, id: RequestId, text: string): unknown {
    try {
      return parseJsonWithin(text, this.#maxDepth);
    } catch (error) {
      throw new RequestStreamBrokenError(stream.method, id, `the server sent a message that ${unreadable(error)}`);
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
      if (stream.method === this.#binding.toolHeaders?.list) this.#learnTools(message);
    }
    if (stream.capture !== undefined) {
      // The transport's own request: its answer is captured, its notifications dropped.
      if (!isNotification) stream.capture(message);
      return;
    }
    handOver(this.onmessage, message, this.onerror);
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
    report(this.onerror, error);
  }
}
