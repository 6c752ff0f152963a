// resources/subscribe and resources/unsubscribe of the 2025 revisions (server/resources,
// Subscriptions: "The protocol supports optional subscriptions to resource changes. Clients can
// subscribe to specific resources and receive notifications when they change"), kept per
// subscriber: per session (a transport with a `sessionId`, as the session server's), else per
// connection (stdio, in memory). notifications/resources/updated goes to the subscribers of its
// URI and no other.
//
// Several instances: with a bus (RegistryOptions.resourceBus, the Redis add-on's
// RedisSubscriptionBus on a channel of its own), each change of a session's subscriptions is
// published before it is answered, so every instance knows what each session subscribed to
// wherever its next request or its GET stream lands; and resourceUpdated() on any instance is
// published on the same bus and delivered by every instance, this one included, as it comes back:
// one channel orders both (Redis delivers a channel's messages in the order they were published),
// so an update made after a subscribe or an unsubscribe was answered finds it applied on every
// instance. What comes in on the bus is checked like a peer's. Bounded: URIs per subscriber (MAX_URIS_PER_SUBSCRIBER), and sessions known at most
// (MAX_SESSIONS; past it, the one changed longest ago is forgotten: a session that ended leaves
// no trace anywhere else).

import { isObject } from "../core/json.js";
import { describeValue, ErrorCode, McpError, type JsonObject, type Transport } from "../core/protocol.js";
import { RequestContext } from "../core/request-context.js";
import type { HandlerContext } from "../core/endpoint-contract.js";
import type { BusMessage, SubscriptionBus } from "./subscriptions.js";

/** URIs one session or connection subscribes to at most; one more is -32602. */
export const MAX_URIS_PER_SUBSCRIBER: number = 1024;
/** Sessions whose subscriptions an instance keeps at most (its own and the other instances'). */
export const MAX_SESSIONS: number = 10_000;
/** Longest URI subscribed to, in characters. */
export const MAX_URI_LENGTH: number = 4096;

const UPDATED = "notifications/resources/updated";
const SUBSCRIBE = "resources/subscribe";
const UNSUBSCRIBE = "resources/unsubscribe";
/** The key of requests that came on no connection this process can name (a handler called directly). */
const NO_CONNECTION: object = Object.freeze({});

/** Whom a notification goes to: the connections (their transports) it is due on. */
export type Recipients = (transport: Transport) => boolean;

/** Delivers notifications/resources/updated to the connections of this instance that `recipients` picks. */
export type LocalDelivery = (uri: string, recipients: Recipients) => void;

export class ResourceSubscriptions {
  /** Connections without a session: their URIs, for as long as the connection lives. */
  readonly #byConnection = new WeakMap<object, Set<string>>();
  /** Sessions (on any instance) → their URIs, the one changed longest ago first. */
  readonly #bySession = new Map<string, Set<string>>();
  readonly #bus: SubscriptionBus | undefined;
  readonly #deliver: LocalDelivery;
  readonly #onError: (error: unknown) => void;
  readonly #origin: string = globalThis.crypto.randomUUID();

  constructor(bus: SubscriptionBus | undefined, deliver: LocalDelivery, onError: (error: unknown) => void = () => undefined) {
    if (bus !== undefined && (!isObject(bus) || typeof bus.publish !== "function" || typeof bus.subscribe !== "function")) {
      throw new TypeError(`resourceBus must be a SubscriptionBus (publish, subscribe), got ${describeValue(bus)}`);
    }
    this.#bus = bus;
    this.#deliver = deliver;
    this.#onError = onError;
    bus?.subscribe((message) => this.#fromBus(message));
  }

  /** resources/subscribe (`on`) or unsubscribe of the request `ctx`; resolves once every instance can know (the bus took it). */
  async change(uri: unknown, on: boolean, ctx: HandlerContext): Promise<JsonObject> {
    if (typeof uri !== "string" || uri.length > MAX_URI_LENGTH) throw new McpError(ErrorCode.InvalidParams, `uri must be a string of at most ${MAX_URI_LENGTH} characters`);
    const key = subscriberOf(RequestContext.connectionOf(ctx));
    if (!this.#apply(key, uri, on)) throw new McpError(ErrorCode.InvalidParams, `too many subscriptions (at most ${MAX_URIS_PER_SUBSCRIBER} of one session)`);
    if (typeof key === "string" && this.#bus !== undefined) {
      try {
        await this.#bus.publish({ origin: this.#origin, method: on ? SUBSCRIBE : UNSUBSCRIBE, params: { sessionId: key, uri } });
      } catch (error) {
        // This instance keeps it; the others learn of it only if the session's requests come back here.
        this.#onError(error);
      }
    }
    return {};
  }

  /**
   * A resource changed: its subscribers here, and with a bus on every instance, this one when its
   * message comes back (after every subscription change published before it); when the bus
   * refuses it, here at once.
   */
  updated(uri: string): void {
    if (this.#bus === undefined) return this.#local(uri);
    const failed = (error: unknown): void => {
      this.#onError(error);
      this.#local(uri);
    };
    try {
      Promise.resolve(this.#bus.publish({ origin: this.#origin, method: UPDATED, params: { uri } })).catch(failed);
    } catch (error) {
      failed(error);
    }
  }

  /** notifications/resources/updated on the connections of this instance whose subscriber has `uri`. */
  #local(uri: string): void {
    this.#deliver(uri, (transport) => this.#of(subscriberOf(transport))?.has(uri) === true);
  }

  #of(key: string | object): Set<string> | undefined {
    return typeof key === "string" ? this.#bySession.get(key) : this.#byConnection.get(key);
  }

  /** Applies a change; false when the subscriber is at its bound. */
  #apply(key: string | object, uri: string, on: boolean): boolean {
    let uris = this.#of(key);
    if (!on) {
      uris?.delete(uri);
      if (uris?.size === 0 && typeof key === "string") this.#bySession.delete(key);
      return true;
    }
    if (uris !== undefined && !uris.has(uri) && uris.size >= MAX_URIS_PER_SUBSCRIBER) return false;
    if (typeof key !== "string") {
      if (uris === undefined) this.#byConnection.set(key, (uris = new Set()));
      uris.add(uri);
      return true;
    }
    // The most recently changed session goes last; past the bound, the one changed longest ago goes.
    this.#bySession.delete(key);
    if (uris === undefined && this.#bySession.size >= MAX_SESSIONS) this.#bySession.delete(this.#bySession.keys().next().value as string);
    this.#bySession.set(key, (uris ??= new Set()));
    uris.add(uri);
    return true;
  }

  /** A message of another instance: checked, then applied or delivered here. */
  #fromBus(message: BusMessage): void {
    if (!isObject(message)) return;
    const params = isObject(message.params) ? message.params : {};
    const { uri, sessionId } = params;
    if (typeof uri !== "string" || uri.length > MAX_URI_LENGTH) return this.#onError(new Error(`resource bus: dropped ${describeValue(message.method)} without a valid uri`));
    // Updates are delivered as they come back, this instance's own included (updated()).
    if (message.method === UPDATED) return this.#local(uri);
    // A change of this instance's was applied before it was published.
    if (message.origin === this.#origin) return;
    if ((message.method !== SUBSCRIBE && message.method !== UNSUBSCRIBE) || typeof sessionId !== "string" || sessionId === "" || sessionId.length > 256) {
      return this.#onError(new Error(`resource bus: dropped a message that is not a subscription change (${describeValue(message.method)})`));
    }
    // A subscription of another instance past the bound is not kept here (that instance refused it already if it was).
    this.#apply(sessionId, uri, message.method === SUBSCRIBE);
  }
}

/** The subscriber of a connection: its session id where it has one (the session server's), else the connection itself. */
function subscriberOf(transport: Transport | undefined): string | object {
  if (transport === undefined) return NO_CONNECTION;
  const sessionId = transport.sessionId;
  return typeof sessionId === "string" && sessionId !== "" ? sessionId : transport;
}
