// A SubscriptionBus on Redis pub/sub (features/subscriptions.ts): the list-changed and
// resource-updated notifications a SubscriptionHub publishes on one instance reach the listen
// streams of every instance whose hub is on the same bus (same Redis, same prefix). Delivery is
// at most once, as pub/sub's: a message published while an instance is disconnected from Redis
// does not reach it (a listener that must not miss a change lists again after a reconnect).

import { isObject } from "../../core/json.js";
import { numberOption } from "../../core/options.js";
import type { BusMessage, SubscriptionBus } from "../../features/subscriptions.js";
import type { RedisConnection } from "./connection.js";

export interface RedisSubscriptionBusOptions {
  /** The channel under the connection's prefix (default `bus`). */
  readonly channel?: string | undefined;
  /** Largest message published or taken, in characters of its JSON (default 65 536); past it, it is dropped (onError). */
  readonly maxMessageBytes?: number | undefined;
  /** Messages that could not be published or that came in malformed. */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** Give it to the SubscriptionHub of every instance: `new Subscriptions({ bus: new RedisSubscriptionBus(redis) })`. */
export class RedisSubscriptionBus implements SubscriptionBus {
  readonly #redis: RedisConnection;
  readonly #channel: string;
  readonly #max: number;
  readonly #onError: (error: Error) => void;
  readonly #listeners = new Set<(message: BusMessage) => void>();
  #unsubscribe: Promise<() => Promise<void>> | undefined;

  constructor(redis: RedisConnection, options: RedisSubscriptionBusOptions = {}) {
    this.#redis = redis;
    this.#channel = redis.key(options.channel ?? "bus");
    this.#max = numberOption("maxMessageBytes", options.maxMessageBytes, 65_536, { min: 64 });
    this.#onError = (error) => {
      try {
        options.onError?.(error);
      } catch {
        // User code; its failure stops here.
      }
    };
  }

  /** Resolves once this instance listens on the channel (a hub made before it still gets what comes after). */
  ready(): Promise<void> {
    return this.#listen().then(() => undefined);
  }

  async publish(message: BusMessage): Promise<void> {
    const json = JSON.stringify(message);
    if (json.length > this.#max) throw new RangeError(`bus: a message of ${json.length} characters is past maxMessageBytes (${this.#max})`);
    await this.#redis.command(["PUBLISH", this.#channel, json]);
  }

  subscribe(listener: (message: BusMessage) => void): () => void {
    this.#listeners.add(listener);
    this.#listen().catch((error: unknown) => this.#onError(error instanceof Error ? error : new Error(String(error))));
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Stops listening on the channel (the connection stays open). */
  async close(): Promise<void> {
    this.#listeners.clear();
    const unsubscribe = await this.#unsubscribe?.catch(() => undefined);
    this.#unsubscribe = undefined;
    await unsubscribe?.();
  }

  #listen(): Promise<() => Promise<void>> {
    if (this.#unsubscribe !== undefined) return this.#unsubscribe;
    const pending = this.#redis.subscribe(this.#channel, (text) => this.#take(text));
    this.#unsubscribe = pending;
    pending.catch(() => {
      if (this.#unsubscribe === pending) this.#unsubscribe = undefined;
    });
    return pending;
  }

  /** A message from the channel: bounded and checked before any hub sees it. */
  #take(text: string): void {
    if (text.length > this.#max) return this.#onError(new RangeError(`bus: dropped a message of ${text.length} characters (maxMessageBytes ${this.#max})`));
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.#onError(new Error("bus: dropped a message that is not JSON"));
    }
    if (!isObject(value) || typeof value["origin"] !== "string" || typeof value["method"] !== "string" || (value["params"] !== undefined && !isObject(value["params"]))) {
      return this.#onError(new Error("bus: dropped a message that is not a BusMessage"));
    }
    const message = value as unknown as BusMessage;
    for (const listener of [...this.#listeners]) {
      try {
        listener(message);
      } catch (error) {
        this.#onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
