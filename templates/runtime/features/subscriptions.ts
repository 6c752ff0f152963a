// subscriptions/listen on the server (2026-07-28, basic/patterns/subscriptions): a hub that
// serves listen requests and fans the application's change notifications out to every open
// stream that asked for them, over any transport (each message goes out through the listen
// request's ctx.notify, so it lands on that request's stream). Revision-independent: the
// method names, filter fields, notifications and capabilities come in as a SubscriptionTable
// (SUBSCRIPTIONS in the generated server.ts).

import type { AnyRequestHandler, HandlerContext } from "../core/endpoint.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import { describeValue, ErrorCode, McpError, type JsonObject, type RequestId } from "../core/protocol.js";
import type { NotificationSpec, NotifyArgs } from "../core/typed.js";

/** One notification kind a client may opt in to in the listen filter. */
export interface SubscriptionKind {
  /** Its field in the filter (SubscriptionFilter). */
  readonly field: string;
  /** The notification delivered on the stream. */
  readonly notification: string;
  /** The ServerCapabilities member and flag that declare the server sends it. */
  readonly capability: string;
  readonly flag: string;
  /**
   * Per-resource kinds: the notification param naming the resource, and the filter field is a
   * list of URIs; null: the field is a boolean.
   */
  readonly uriParam: string | null;
}

/** A revision's subscriptions/listen facts (generated: SUBSCRIPTIONS in server.ts). */
export interface SubscriptionTable {
  readonly listen: string;
  readonly acknowledged: string;
  /** The listen request's param holding the filter. */
  readonly filterParam: string;
  /** The `_meta` key that carries the subscription id on every message of the stream. */
  readonly subscriptionIdKey: string;
  /** The listen result, but its `_meta` (Graceful Closure). */
  readonly completeResult: { readonly [key: string]: string };
  readonly kinds: readonly SubscriptionKind[];
}

/**
 * Why a stream ended:
 * - `cancelled`: its request's signal aborted: the client cancelled it (notifications/cancelled,
 *   or closing its stream on HTTP), the connection closed, someone called its ctx.end(), or the
 *   transport ended the stream (the reason says why: an HTTP response stream overflow);
 * - `closed`: the hub's close() ended it gracefully (a listen result was sent);
 * - `overflow`: the stream could not keep up (SubscriptionHubOptions.maxPending);
 * - `send-failed`: the transport refused a message of the stream.
 */
export type SubscriptionEndCause = "cancelled" | "closed" | "overflow" | "send-failed";

export interface SubscriptionEndEvent {
  /** The listen request's id (unique per connection only). */
  readonly subscriptionId: RequestId;
  readonly cause: SubscriptionEndCause;
  /** The signal's abort reason (`cancelled`) or what went wrong. */
  readonly reason: unknown;
}

/**
 * A change notification as it crosses instances: the hub that published it (`origin`, so it does
 * not deliver its own twice) and what publish() was given.
 */
export interface BusMessage {
  readonly origin: string;
  readonly method: string;
  readonly params?: JsonObject | undefined;
}

/**
 * Fan-out between instances (SubscriptionHubOptions.bus): every hub on the bus delivers what any
 * of them publishes to its own open streams. The default is none: one process, where publish()
 * reaches the streams of this hub only. A shared one (the Redis add-on's, on pub/sub) is given to
 * the hub of every instance behind a load balancer. Messages that come in are checked like a
 * peer's (a method the hub delivers, object params); a bad one goes to onError.
 */
export interface SubscriptionBus {
  /** Sends `message` to every hub on the bus (this one's own copy is skipped by its origin). A rejection goes to onError. */
  publish(message: BusMessage): void | Promise<void>;
  /** Calls `listener` with each message published on the bus, by any hub; returns the function that stops. */
  subscribe(listener: (message: BusMessage) => void): () => void;
}

export interface SubscriptionHubOptions<Field extends string = string> {
  /** Fan-out to the hubs of the other instances (SubscriptionBus); default none. */
  readonly bus?: SubscriptionBus | undefined;
  /**
   * The kinds (filter fields) this hub delivers; default: every kind of the revision. A server
   * declares and honours a kind only where it has the capability it belongs to (a server with
   * no prompts never acknowledges `promptsListChanged`).
   */
  readonly kinds?: readonly Field[] | undefined;
  /** Open streams at most, over every connection; a listen beyond it gets -32603 (default 1024). */
  readonly maxStreams?: number | undefined;
  /**
   * Open streams at most of one principal (`ctx.principal.id`, set by the HTTP handler's
   * `authenticate`), so that one client cannot hold every slot; a listen beyond it gets -32603
   * naming this option (default 64). Requests without a principal have it per connection
   * (`ctx.http.peer`); where there is none (stdio, in memory), they share one anonymous quota.
   */
  readonly maxStreamsPerPrincipal?: number | undefined;
  /** URIs at most in one filter's list; more is -32602 Invalid params (default 1024). */
  readonly maxResourceSubscriptions?: number | undefined;
  /** Characters at most in one URI of a filter; longer is -32602 Invalid params (default 4096). */
  readonly maxUriLength?: number | undefined;
  /**
   * Notifications at most waiting for one stream while it is still sending earlier ones (default
   * 1024). Waiting notifications coalesce (one per list kind, one per resource URI), so with
   * exact URI matching a stream never holds more than its kinds and URIs; the bound matters with
   * `matchesUri`, which can match any number of URIs. A stream that reaches it is ended (cause
   * `overflow`: notifications/cancelled, so that the client knows it missed updates). The
   * runtime's transports resolve a send only when their reader has room (HTTP: the response
   * stream's queue is under its mark; stdio: the pipe took it; MCPx: the gateway queued it,
   * within its bound per participant), so a client that stops reading fills this queue, over
   * the wire as in memory.
   */
  readonly maxPending?: number | undefined;
  /**
   * Whether an update of `updated` concerns a client subscribed to `subscribed` (the updated URI
   * "might be a sub-resource of the one that the client actually subscribed to", Resources).
   * Default: the same string. A throwing matcher is no match (and goes to onError).
   */
  readonly matchesUri?: ((subscribed: string, updated: string) => boolean) | undefined;
  /** Every stream that ends, with why. */
  readonly onEnd?: ((event: SubscriptionEndEvent) => void) | undefined;
  /** Failures: a refused send, a throwing matchesUri or onEnd. */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** A notification as it waits for a stream: the hub adds the stream's `_meta` when it sends it. */
interface Note {
  readonly method: string;
  readonly params: JsonObject | undefined;
}


function limit(name: string, value: number | undefined, fallback: number): number {
  return numberOption(name, value, fallback, { min: 0, infinity: true });
}

/** One open listen stream. */
class ListenStream {
  readonly id: RequestId;
  readonly ctx: HandlerContext;
  /** The principal id (else the connection's peer) it counts against (maxStreamsPerPrincipal); undefined: the anonymous quota. */
  readonly owner: string | undefined;
  /** Honoured list kinds, by notification. */
  readonly flags: ReadonlySet<string>;
  /** Honoured per-resource kinds: notification → subscribed URIs. */
  readonly uris: ReadonlyMap<string, ReadonlySet<string>>;
  /** Waiting notifications in order, coalesced by key (a list kind, or a kind and a URI). */
  readonly pending = new Map<string, Note>();
  /** A message of this stream is with the transport: the next one waits for it. */
  sending = false;
  live = true;
  /** How it ends when its signal aborts because the hub itself ended it (ctx.end). */
  ending: SubscriptionEndCause | undefined;
  settle: (result: JsonObject) => void = () => undefined;
  detach: () => void = () => undefined;

  constructor(id: RequestId, ctx: HandlerContext, flags: ReadonlySet<string>, uris: ReadonlyMap<string, ReadonlySet<string>>, owner: string | undefined) {
    this.id = id;
    this.owner = owner;
    this.ctx = ctx;
    this.flags = flags;
    this.uris = uris;
  }
}

/**
 * Serves `subscriptions/listen` and delivers change notifications to the open streams. Make one
 * per server (the generated McpServer takes it as `subscriptions`), or register its handler
 * yourself; publish() from anywhere in the application when something changes.
 *
 * A listen request (Subscriptions, Opening a Stream and Acknowledgment):
 * - a filter that is not an object, a field of the wrong type, or a URI list beyond the limits
 *   is -32602 Invalid params; unknown fields are ignored;
 * - the first message is the acknowledgment, carrying the subscription id (the request's id) in
 *   `_meta` and the honoured subset of the filter: the kinds asked for (`true`, or a non-empty
 *   URI list) that this hub delivers and the server declares; the rest is left out;
 * - after it, only notifications of the honoured kinds, each with the subscription id in `_meta`
 *   ("The server MUST NOT send notification types the client has not explicitly requested");
 * - the stream stays open until the client cancels it, the connection closes, the hub ends it
 *   (close(): a graceful listen result, Graceful Closure; overflow or a refused send:
 *   notifications/cancelled, Cancellation), and nothing of it is sent after that. Its entry is
 *   freed then (`size`).
 *
 * Delivery is bounded: each stream has at most one message with the transport, which holds it
 * until the client's reader has room for it; what arrives meanwhile waits, coalesced, up to
 * `maxPending` (see SubscriptionHubOptions).
 */
export class SubscriptionHub<
  Notifications extends object = { [method: string]: NotificationSpec },
  Field extends string = string,
  Handler = AnyRequestHandler,
  Capabilities extends object = object,
> {
  readonly #table: SubscriptionTable;
  readonly #kinds: readonly SubscriptionKind[];
  readonly #byNotification: ReadonlyMap<string, SubscriptionKind>;
  readonly #streams = new Set<ListenStream>();
  readonly #maxStreams: number;
  readonly #maxStreamsPerPrincipal: number;
  /** Open streams by principal id (undefined: the anonymous quota); an id leaves when its last stream ends. */
  readonly #byPrincipal = new Map<string | undefined, number>();
  readonly #maxResourceSubscriptions: number;
  readonly #maxUriLength: number;
  readonly #maxPending: number;
  readonly #options: SubscriptionHubOptions<Field>;
  /** This hub on the bus: its messages come back to it and are skipped by this. */
  readonly #origin = globalThis.crypto.randomUUID();
  readonly #unsubscribe: (() => void) | undefined;

  constructor(table: SubscriptionTable, options: SubscriptionHubOptions<Field> = {}) {
    this.#table = table;
    this.#options = options;
    const bus = options.bus;
    if (bus !== undefined && (!isObject(bus) || typeof bus.publish !== "function" || typeof bus.subscribe !== "function")) {
      throw new TypeError(`bus must be a SubscriptionBus (publish, subscribe), got ${describeValue(bus)}`);
    }
    const wanted = options.kinds === undefined ? undefined : new Set<string>(options.kinds);
    if (wanted !== undefined) {
      const unknown = [...wanted].find((field) => !table.kinds.some((k) => k.field === field));
      if (unknown !== undefined) throw new RangeError(`kinds: ${describeValue(unknown)} is not a field of the ${table.listen} filter`);
    }
    this.#kinds = table.kinds.filter((k) => wanted === undefined || wanted.has(k.field));
    this.#byNotification = new Map(table.kinds.map((k) => [k.notification, k]));
    this.#maxStreams = limit("maxStreams", options.maxStreams, 1024);
    this.#maxStreamsPerPrincipal = limit("maxStreamsPerPrincipal", options.maxStreamsPerPrincipal, 64);
    this.#maxResourceSubscriptions = limit("maxResourceSubscriptions", options.maxResourceSubscriptions, 1024);
    this.#maxUriLength = limit("maxUriLength", options.maxUriLength, 4096);
    this.#maxPending = limit("maxPending", options.maxPending, 1024);
    this.#unsubscribe = bus?.subscribe((message) => this.#fromBus(message));
  }

  /** Leaves the bus (the hub then serves this instance's publish() only). */
  leaveBus(): void {
    this.#unsubscribe?.();
  }

  /** A message of another instance's hub: delivered here as its publish() would have been. */
  #fromBus(message: BusMessage): void {
    if (!isObject(message) || message.origin === this.#origin) return;
    try {
      if (typeof message.method !== "string") throw new TypeError(`bus: a message without a method, got ${describeValue(message.method)}`);
      this.#deliver(message.method, message.params);
    } catch (error) {
      this.#error(error);
    }
  }

  /** Open streams, over every connection. */
  get size(): number {
    return this.#streams.size;
  }

  /** Notifications waiting for a stream that is still sending, over every stream (each at most `maxPending`). */
  get queued(): number {
    let count = 0;
    for (const stream of this.#streams) count += stream.pending.size;
    return count;
  }

  /**
   * `capabilities` with what this hub delivers declared in it (ServerCapabilities: `listChanged`,
   * `subscribe`), for each kind whose capability the server has; a flag it already sets is kept.
   * The input is not modified. The generated McpServer applies it to the capabilities it declares.
   */
  declare<C extends Capabilities>(capabilities: C): C {
    const out: JsonObject = { ...(capabilities as JsonObject) };
    for (const kind of this.#kinds) {
      const capability = out[kind.capability];
      if (!isObject(capability) || capability[kind.flag] !== undefined) continue;
      out[kind.capability] = { ...capability, [kind.flag]: true };
    }
    return out as C;
  }

  /**
   * The subscriptions/listen handler, typed for the revision; `capabilities` are what the server
   * declares (kinds it does not declare are not honoured; undefined: every kind of the hub).
   */
  handler(capabilities?: Capabilities): Handler {
    return this.listenHandler(capabilities) as unknown as Handler;
  }

  /** The same handler, untyped (what the generated McpServer registers). */
  listenHandler(capabilities?: object): AnyRequestHandler {
    const declared = capabilities as JsonObject | undefined;
    const honourable = new Set(
      this.#kinds.filter((kind) => {
        if (declared === undefined) return true;
        const capability = declared[kind.capability];
        return isObject(capability) && capability[kind.flag] === true;
      }),
    );
    return (params, ctx) => {
      try {
        return this.#listen(params, ctx, honourable);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }

  /**
   * Sends a change notification to every open stream that asked for it, and returns on how many
   * it went out or was queued. Per-resource kinds go to the streams subscribed to its URI
   * (`matchesUri`). Params are copied (one level) now; the stream's `_meta` is added per stream.
   * A method that no stream can carry is a TypeError.
   */
  publish<M extends keyof Notifications & string>(
    method: M,
    ...args: Notifications[M] extends NotificationSpec ? NotifyArgs<Notifications[M]> : never
  ): number;
  publish(method: string, params?: object): number {
    const count = this.#deliver(method, params);
    const bus = this.#options.bus;
    if (bus !== undefined) {
      const message: BusMessage = params === undefined ? { origin: this.#origin, method } : { origin: this.#origin, method, params: { ...(params as JsonObject) } };
      try {
        Promise.resolve(bus.publish(message)).catch((error: unknown) => this.#error(error));
      } catch (error) {
        this.#error(error);
      }
    }
    return count;
  }

  /** publish() on this hub's own streams: checks the method and params, then queues. */
  #deliver(method: string, params: object | undefined): number {
    const kind = this.#byNotification.get(method);
    if (kind === undefined) throw new TypeError(`${describeValue(method)} is not delivered on ${this.#table.listen} streams`);
    if (params !== undefined && !isObject(params)) throw new TypeError(`${method}: params must be an object, got ${describeValue(params)}`);
    const note: Note = { method, params: params === undefined ? undefined : { ...params } };
    let key = method;
    let uri: string | undefined;
    if (kind.uriParam !== null) {
      const value = note.params?.[kind.uriParam];
      if (typeof value !== "string") throw new TypeError(`${method}: params.${kind.uriParam} must be a string, got ${describeValue(value)}`);
      uri = value;
      key = `${method} ${value}`;
    }
    let count = 0;
    // A snapshot: a stream that ends meanwhile (overflow) leaves the set as this loop runs.
    for (const stream of [...this.#streams]) {
      if (!stream.live || !this.#wants(stream, kind, uri)) continue;
      this.#enqueue(stream, key, note);
      count++;
    }
    return count;
  }

  /**
   * Ends every open stream gracefully: each listen request is answered with its result
   * (Subscriptions, Graceful Closure: "it SHOULD send a successful subscriptions/listen
   * response to signal a graceful end"); notifications still waiting are dropped. For a
   * shutdown; the hub keeps serving new listen requests. Returns how many streams it ended.
   */
  close(): number {
    const streams = [...this.#streams];
    for (const stream of streams) this.#drop(stream, "closed", "closed by the server");
    return streams.length;
  }

  #wants(stream: ListenStream, kind: SubscriptionKind, uri: string | undefined): boolean {
    if (uri === undefined) return stream.flags.has(kind.notification);
    const subscribed = stream.uris.get(kind.notification);
    if (subscribed === undefined) return false;
    const matches = this.#options.matchesUri;
    if (matches === undefined) return subscribed.has(uri);
    for (const candidate of subscribed) {
      try {
        if (matches(candidate, uri) === true) return true;
      } catch (error) {
        this.#error(error);
      }
    }
    return false;
  }

  #listen(params: JsonObject | undefined, ctx: HandlerContext, honourable: ReadonlySet<SubscriptionKind>): Promise<JsonObject> {
    const requested = this.#parse(params);
    // Without a principal, the quota is the connection's (an HTTP request's `peer`): one anonymous
    // client holding its streams does not lock the others out.
    const owner = ctx.principal?.id ?? ctx.http?.peer;
    if ((this.#byPrincipal.get(owner) ?? 0) >= this.#maxStreamsPerPrincipal) {
      throw new McpError(ErrorCode.InternalError, `Too many open subscriptions of this principal (at most ${this.#maxStreamsPerPrincipal}: maxStreamsPerPrincipal)`);
    }
    if (this.#streams.size >= this.#maxStreams) {
      throw new McpError(ErrorCode.InternalError, `Too many open subscriptions (at most ${this.#maxStreams})`);
    }
    const id = ctx.requestId;
    const signal = ctx.signal;
    if (signal.aborted) return Promise.resolve(this.#result(id));
    // The acknowledged filter: what was asked for, of what this server delivers (Acknowledgment:
    // "Notification types the server does not support are omitted").
    const acknowledged: JsonObject = {};
    const flags = new Set<string>();
    const uris = new Map<string, ReadonlySet<string>>();
    for (const kind of this.#table.kinds) {
      const value = requested.get(kind);
      if (value === undefined || !honourable.has(kind)) continue;
      if (value === true) flags.add(kind.notification);
      else uris.set(kind.notification, new Set(value));
      acknowledged[kind.field] = value === true ? true : [...value];
    }
    return new Promise<JsonObject>((resolve) => {
      const stream = new ListenStream(id, ctx, flags, uris, owner);
      stream.settle = resolve;
      const onAbort = (): void => this.#drop(stream, stream.ending ?? "cancelled", signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      stream.detach = () => signal.removeEventListener("abort", onAbort);
      this.#streams.add(stream);
      this.#byPrincipal.set(owner, (this.#byPrincipal.get(owner) ?? 0) + 1);
      // The acknowledgment goes first; anything published meanwhile waits behind it.
      this.#send(stream, { method: this.#table.acknowledged, params: { notifications: acknowledged } });
    });
  }

  /** The filter, validated: kind → true or its URIs (deduplicated, in order). Throws -32602. */
  #parse(params: JsonObject | undefined): Map<SubscriptionKind, true | readonly string[]> {
    const name = this.#table.filterParam;
    const invalid = (what: string): never => {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${name}${what}`);
    };
    const filter = params?.[name];
    if (!isObject(filter)) invalid(` must be an object, got ${describeValue(filter)}`);
    const out = new Map<SubscriptionKind, true | readonly string[]>();
    for (const kind of this.#table.kinds) {
      const value = (filter as JsonObject)[kind.field];
      if (value === undefined) continue;
      if (kind.uriParam === null) {
        if (typeof value !== "boolean") invalid(`.${kind.field} must be a boolean, got ${describeValue(value)}`);
        if (value === true) out.set(kind, true);
        continue;
      }
      if (!Array.isArray(value)) invalid(`.${kind.field} must be a list of URIs, got ${describeValue(value)}`);
      const list = value as unknown[];
      if (list.length > this.#maxResourceSubscriptions) invalid(`.${kind.field} has ${list.length} URIs; at most ${this.#maxResourceSubscriptions}`);
      const unique = new Set<string>();
      for (const uri of list) {
        if (typeof uri !== "string") invalid(`.${kind.field} must hold strings, got ${describeValue(uri)}`);
        else if (uri.length > this.#maxUriLength) invalid(`.${kind.field} has a URI of ${uri.length} characters; at most ${this.#maxUriLength}`);
        else unique.add(uri);
      }
      if (unique.size > 0) out.set(kind, [...unique]);
    }
    return out;
  }

  /** The listen result of a stream (Graceful Closure: it carries the subscription id too). */
  #result(id: RequestId): JsonObject {
    return { ...this.#table.completeResult, _meta: { [this.#table.subscriptionIdKey]: id } };
  }

  #enqueue(stream: ListenStream, key: string, note: Note): void {
    if (!stream.sending) return this.#send(stream, note);
    if (stream.pending.has(key)) {
      // The same change again before the stream took the last one: one notification says both
      // (the newer params win; the place in the queue is kept).
      stream.pending.set(key, note);
      return;
    }
    if (stream.pending.size >= this.#maxPending) {
      return this.#endAbruptly(stream, "overflow", `${this.#table.listen} ended: more than ${this.#maxPending} notifications waiting for this stream`);
    }
    stream.pending.set(key, note);
  }

  /** Hands one message of the stream to the transport; the next waits until it is taken. */
  #send(stream: ListenStream, note: Note): void {
    stream.sending = true;
    const { _meta: meta, ...rest } = note.params ?? {};
    // Every message of the stream carries the subscription id (Receiving Notifications).
    const tagged: JsonObject = { _meta: { ...(isObject(meta) ? meta : undefined), [this.#table.subscriptionIdKey]: stream.id }, ...rest };
    let sent: Promise<void>;
    try {
      sent = Promise.resolve(stream.ctx.notify(note.method, tagged));
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      () => this.#next(stream),
      (error: unknown) => {
        if (!stream.live) return;
        this.#error(error);
        this.#endAbruptly(stream, "send-failed", error);
      },
    );
  }

  #next(stream: ListenStream): void {
    if (!stream.live) return;
    const first = stream.pending.entries().next();
    if (first.done === true) {
      stream.sending = false;
      return;
    }
    const [key, note] = first.value;
    stream.pending.delete(key);
    this.#send(stream, note);
  }

  /**
   * Ends a stream from the server without a result: ctx.end() sends notifications/cancelled for
   * it (Cancellation: "A server MUST send notifications/cancelled referencing a
   * subscriptions/listen request ID when it tears down that subscription stream"), which an
   * abrupt end asks the client to treat as one (it may reconnect and list again). Where the
   * revision does not let the server end it that way, it gets the graceful result instead.
   */
  #endAbruptly(stream: ListenStream, cause: SubscriptionEndCause, reason: unknown): void {
    if (!stream.live) return;
    stream.ending = cause;
    stream.pending.clear();
    let ended: Promise<void>;
    try {
      ended = Promise.resolve(stream.ctx.end(typeof reason === "string" ? reason : `${this.#table.listen} ended by the server (${cause})`));
    } catch (error) {
      ended = Promise.reject(error);
    }
    // ctx.end aborts the signal at once (onAbort drops the stream with `cause`); if it could not,
    // the stream still ends, with its result.
    if (stream.live) this.#drop(stream, cause, reason);
    ended.catch((error: unknown) => this.#error(error));
  }

  /** Frees a stream: nothing more is sent for it; its handler settles with the listen result. */
  #drop(stream: ListenStream, cause: SubscriptionEndCause, reason: unknown): void {
    if (!stream.live) return;
    stream.live = false;
    stream.pending.clear();
    this.#streams.delete(stream);
    const left = (this.#byPrincipal.get(stream.owner) ?? 1) - 1;
    if (left > 0) this.#byPrincipal.set(stream.owner, left);
    else this.#byPrincipal.delete(stream.owner);
    stream.detach();
    // After a cancel or an end the endpoint sends no response; after close() it sends this one.
    stream.settle(this.#result(stream.id));
    const onEnd = this.#options.onEnd;
    if (onEnd === undefined) return;
    try {
      onEnd({ subscriptionId: stream.id, cause, reason });
    } catch (error) {
      this.#error(error);
    }
  }

  #error(error: unknown): void {
    try {
      this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing onError must not break delivery.
    }
  }
}
