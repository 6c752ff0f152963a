// JSON-RPC batches, in the one revision that has them: 2025-03-26 ("MCP implementations MAY support
// sending JSON-RPC batches, but MUST support receiving JSON-RPC batches", basic/index; its schema's
// JSONRPCMessage admits JSONRPCBatchRequest and JSONRPCBatchResponse). Whether a revision has them
// is the generated ERA.batches; the runtime names no revision. The rules a batch must meet live
// here once, for every place that receives one: the endpoint (stdio, in memory: BatchIntake below)
// and the Streamable HTTP session handler (http/sessions/batch.ts).

import { isObject, isRequestId } from "./json.js";
import { ErrorCode, type OutgoingMessage, type RequestId } from "./protocol.js";

/**
 * The most messages one batch may hold. Each is checked and dispatched as a message of its own
 * (the per-message validation budget applies to each); a longer batch is refused whole, with
 * nothing dispatched (-32600), so one line cannot start an unbounded number of handlers.
 */
export const MAX_BATCH_LENGTH: number = 1000;

const INITIALIZE = "initialize";

/** One message of a batch (or of a body), checked: what it is. */
export interface BatchItem {
  /** Its method; undefined: a response. */
  readonly method: string | undefined;
  readonly id: RequestId | undefined;
  /** A request (or a response): it has an id. */
  readonly hasId: boolean;
}

/** classifyMessage's text for a request whose params are not an object: the one refusal whose answer keeps the request's id. */
export const PARAMS_NOT_OBJECT = "params must be an object";

/** What a JSON-RPC 2.0 message is, or why it is none (the text of its -32600 Invalid Request). */
export function classifyMessage(value: unknown): BatchItem | string {
  if (!isObject(value) || value["jsonrpc"] !== "2.0") return "each message must be a JSON-RPC 2.0 object";
  const method = value["method"];
  const params = value["params"];
  const hasId = "id" in value;
  const id = value["id"];
  if (method !== undefined && typeof method !== "string") return "method must be a string";
  if (params !== undefined && !isObject(params)) return PARAMS_NOT_OBJECT;
  if (hasId && !isRequestId(id)) return "the id must be a string or an integer";
  if (method === undefined && !(hasId && ("result" in value || "error" in value))) return "the message has no method";
  return { method, id: hasId ? (id as RequestId) : undefined, hasId };
}

/** Why a batch of `length` messages is refused before any is read, or null. `allowed`: the protocol version has batches. */
export function batchShapeProblem(length: number, allowed: boolean): string | null {
  if (!allowed) return "JSON-RPC batches are not part of this protocol version";
  // JSON-RPC 2.0 §6: an empty array is an Invalid Request.
  if (length === 0) return "an empty batch";
  if (length > MAX_BATCH_LENGTH) return `a batch of ${length} messages (at most ${MAX_BATCH_LENGTH})`;
  return null;
}

/**
 * Why a batch is refused whole, or null. `allowed`: the protocol version has batches; `busy`: a
 * request id already in flight on the receiving side.
 */
export function batchProblem(items: readonly BatchItem[], allowed: boolean, busy: (id: RequestId) => boolean): string | null {
  const shape = batchShapeProblem(items.length, allowed);
  if (shape !== null) return shape;
  // 2025-03-26 Lifecycle: "The initialization phase MUST be the first interaction"; its schema keeps initialize out of batches.
  if (items.some((m) => m.method === INITIALIZE)) return "initialize is never part of a batch";
  // The schema: a batch is of requests and notifications (JSONRPCBatchRequest), or of responses (JSONRPCBatchResponse).
  const requests = items.filter((m) => m.hasId && m.method !== undefined);
  if (requests.length > 0 && requests.length < items.length && items.some((m) => m.method === undefined)) return "a batch holds requests and notifications, or responses, not both";
  if (new Set(requests.map((m) => m.id)).size < requests.length || requests.some((m) => busy(m.id!))) return "a request id of the batch is repeated or already in flight";
  return null;
}

/** What BatchIntake needs of the endpoint it serves. */
export interface BatchHost {
  /** The revision has batches (ERA.batches). */
  readonly allowed: boolean;
  /** Handles one message as if it had come alone. */
  route(message: unknown): void;
  /** A request of the peer is still in flight here (no response sent, not cancelled). */
  pending(id: RequestId): boolean;
  /** Sends a message (a refusal, or a batch of responses), failures reported. */
  send(message: OutgoingMessage | readonly OutgoingMessage[]): void;
  /** Reports a refused batch. */
  report(error: Error): void;
}

/** The responses of one batch's requests, gathered in the requests' order. */
interface Gathering {
  readonly slots: Map<RequestId, OutgoingMessage | undefined>;
  waiting: number;
}

/**
 * Receives batches for an endpoint: each message is routed as if alone, and the responses to the
 * batch's requests are held and sent together as one array once every request has answered or
 * ended without an answer (cancelled): "the Server SHOULD respond with an Array containing the
 * corresponding Response objects" (JSON-RPC 2.0 §6). A batch with no request (notifications or
 * responses only) gets nothing back, and so does one whose requests were all cancelled (never an
 * empty array). A refused batch gets one -32600 error with id null, nothing of it dispatched.
 */
export class BatchIntake {
  readonly #host: BatchHost;
  readonly #open = new Set<Gathering>();

  constructor(host: BatchHost) {
    this.#host = host;
  }

  receive(batch: readonly unknown[]): void {
    const items: BatchItem[] = [];
    let problem = batchShapeProblem(batch.length, this.#host.allowed);
    for (const value of problem === null ? batch : []) {
      const item = classifyMessage(value);
      if (typeof item === "string") {
        problem = item;
        break;
      }
      items.push(item);
    }
    problem ??= batchProblem(items, true, this.#host.pending);
    if (problem !== null) {
      this.#host.send({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${problem}` } } as OutgoingMessage);
      this.#host.report(new Error(`JSON-RPC batch refused (${problem}): ${JSON.stringify(batch).slice(0, 200)}`));
      return;
    }
    const requests = items.filter((m) => m.hasId && m.method !== undefined);
    // Open before routing: a request refused at once (unknown method, invalid params) is answered synchronously.
    if (requests.length > 0) this.#open.add({ slots: new Map(requests.map((m) => [m.id!, undefined])), waiting: requests.length });
    for (const value of batch) this.#host.route(value);
    this.settle();
  }

  /** A response to one of an open batch's requests: held for the batch (true), or not one (false). */
  claim(message: OutgoingMessage, related: RequestId): boolean {
    if (this.#open.size === 0 || !isObject(message) || "method" in message || message["id"] !== related) return false;
    for (const gathering of this.#open) {
      if (!gathering.slots.has(related) || gathering.slots.get(related) !== undefined) continue;
      gathering.slots.set(related, message);
      gathering.waiting--;
      this.#flushIfDone(gathering);
      return true;
    }
    return false;
  }

  /** After a cancel or an end: a request that left the in-flight table unanswered leaves its batch. */
  settle(): void {
    for (const gathering of this.#open) {
      for (const [id, reply] of gathering.slots) {
        if (reply !== undefined || this.#host.pending(id)) continue;
        gathering.slots.delete(id);
        gathering.waiting--;
      }
      this.#flushIfDone(gathering);
    }
  }

  /** The connection closed: nothing left to send. */
  drop(): void {
    this.#open.clear();
  }

  #flushIfDone(gathering: Gathering): void {
    if (gathering.waiting > 0) return;
    this.#open.delete(gathering);
    const replies = [...gathering.slots.values()].filter((r): r is OutgoingMessage => r !== undefined);
    if (replies.length > 0) this.#host.send(replies);
  }
}
