/**
 * The SDK's StreamableHTTPServerTransport, seen by the generated McpServer through the
 * generated Transport interface. The SDK calls `onmessage(message, extra)`; the runtime reads
 * only the message, so this wrapper keeps each request's `extra` (requestInfo, closeSSEStream,
 * ...) until its response goes out, for the handlers that need it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import type { JsonRpcMessage, RequestId, Transport, TransportSendOptions } from "../../out/2025-11-25/index.js";

export class SessionTransport implements Transport {
  onmessage?: ((message: JsonRpcMessage) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;

  readonly #http: StreamableHTTPServerTransport;
  readonly #extras = new Map<RequestId, MessageExtraInfo>();

  /** `onClosed` runs when the session's transport closes (DELETE, shutdown), before the runtime hears of it. */
  constructor(http: StreamableHTTPServerTransport, onClosed: () => void) {
    this.#http = http;
    http.onmessage = (message, extra) => {
      if ("method" in message && "id" in message && extra !== undefined) this.#extras.set(message.id, extra);
      this.onmessage?.(message);
    };
    http.onclose = () => {
      this.#extras.clear();
      onClosed();
      this.onclose?.();
    };
    http.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.#http.sessionId;
  }

  /** What the SDK transport said about request `id` beside the message itself. */
  extra(id: RequestId): MessageExtraInfo | undefined {
    return this.#extras.get(id);
  }

  /** Drops the note about request `id` (it was cancelled: no response will go out). */
  forget(id: RequestId): void {
    this.#extras.delete(id);
  }

  /** Serves one HTTP request of this session (POST, GET or DELETE). */
  handle(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    return this.#http.handleRequest(req, res, body);
  }

  start(): Promise<void> {
    return this.#http.start();
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    // A response ends its request: nothing will ask for that request's extra any more.
    if (!("method" in message) && message.id !== undefined) this.#extras.delete(message.id);
    const related = options?.relatedRequestId;
    return related === undefined ? this.#http.send(message) : this.#http.send(message, { relatedRequestId: related });
  }

  close(): Promise<void> {
    return this.#http.close();
  }
}
