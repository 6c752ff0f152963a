// What the stateless server does with a POST that passed its pipeline (2026-07-28
// basic/transports/streamable-http, abbreviated "HTTP"): one JSON-RPC request or notification
// (Sending Messages 4), never a batch or a response; a request's headers and `_meta` checked
// (checks.ts), then served on a connection of its own (exchange.ts).

import { isObject, isRequestId } from "../../core/json.js";
import type { JsonObject, JsonRpcMessage, Principal, RequestId, Transport } from "../../core/protocol.js";
import type { HttpCall } from "../server/call.js";
import { CallState } from "../server/pipeline.js";
import type { Slot } from "../server/quota.js";
import { answer, type Refusal } from "../server/replies.js";
import type { HttpServable } from "./binding.js";
import type { RequestChecks } from "./checks.js";
import { PostExchange, type ExchangeSettings } from "./exchange.js";

const RESOLVED: Promise<void> = Promise.resolve();
const invalid = (message: string, id?: RequestId): Refusal => ({ status: 400, id, message: `Invalid Request: ${message}` });

/** What the stages learn of one request: its quota slot besides the shared facts. */
export class StatelessState extends CallState {
  slot: Slot | undefined = undefined;
}

export class StatelessRoutes {
  readonly #server: HttpServable;
  readonly #checks: RequestChecks;
  readonly #exchange: ExchangeSettings;

  constructor(server: HttpServable, checks: RequestChecks, exchange: ExchangeSettings) {
    this.#server = server;
    this.#checks = checks;
    this.#exchange = exchange;
  }

  /** Routing: the body's one message, or the 400 that refuses it. */
  readonly serve = (call: HttpCall, state: StatelessState): void | Promise<void> => {
    const body = state.body;
    if (Array.isArray(body)) return answer(call, invalid("JSON-RPC batches are not supported"));
    if (!isObject(body)) return answer(call, invalid("the body must be a JSON-RPC request or notification"));
    const rawId = body["id"];
    const id = isRequestId(rawId) ? rawId : undefined;
    const method = body["method"];
    if (body["jsonrpc"] !== "2.0") return answer(call, invalid('jsonrpc must be "2.0"', id));
    if (typeof method !== "string") return answer(call, invalid("result" in body || "error" in body ? "a client MUST NOT send JSON-RPC responses" : "the body has no method"));
    const params = body["params"];
    if (params !== undefined && !isObject(params)) return answer(call, invalid("params must be an object", id));
    const message = body as unknown as JsonRpcMessage;
    if (!("id" in body)) return this.#notification(call, state.principal, method, message);
    if (id === undefined) return answer(call, invalid("the id must be a string or an integer"));
    return this.#request(call, state, id, method, params, message);
  };

  #notification(call: HttpCall, principal: Principal | undefined, method: string, message: JsonRpcMessage): void {
    const refused = this.#checks.notification(call.headers, method);
    if (refused !== undefined) return void answer(call, refused);
    // Its own connection, like every POST. A notifications/cancelled names a request of that
    // connection, which has none: it is ignored (reported as an unknown request). Request ids are
    // unique per client only and HTTP has no session, so it cannot safely name a request another
    // POST carries; over HTTP the cancel is closing that request's stream (basic/patterns/cancellation).
    const sink: Transport = { start: () => RESOLVED, close: () => RESOLVED, send: () => RESOLVED, principal, http: call };
    const connection = this.#server.openConnection(sink);
    sink.onmessage?.(message);
    void connection.close().catch(() => undefined);
    call.respond(202, {});
  }

  #request(call: HttpCall, state: StatelessState, id: RequestId, method: string, params: JsonObject | undefined, message: JsonRpcMessage): void | Promise<void> {
    const go = (refused: Refusal | undefined): void | Promise<void> => {
      if (refused !== undefined) return answer(call, refused);
      // The exchange owns the slot from here: it is released when the response ends.
      state.held = undefined;
      new PostExchange(call, state.principal, id, this.#exchange, state.slot).serve(this.#server, message);
    };
    const checked = this.#checks.request(call.headers, id, method, params);
    return checked instanceof Promise ? checked.then(go) : go(checked);
  }
}
