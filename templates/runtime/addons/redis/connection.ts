// The Redis add-on's connection (node-redis, package `redis`): one command client and, when a
// store needs pub/sub, one subscriber client, shared by every store made from it; key names under
// one prefix, so that several servers share one Redis; and the bounds every command keeps.
//
// Bounded waits: a command is refused at once while the client is reconnecting (no offline queue:
// a request that needs Redis fails with a clear error instead of waiting for it), and one that
// Redis does not answer within `commandTimeoutMs` fails the same way (a slow Redis). The client
// reconnects on its own, with a backoff capped at one second, so a server recovers without a
// restart once Redis is back. Standalone Redis only: the scripts name keys they derive (no Cluster).

import { createClient } from "redis";
import { numberOption } from "../../core/options.js";
import { ErrorCode, McpError } from "../../core/protocol.js";

/** What the add-on uses of a node-redis client (its own types are generic over modules and RESP versions). */
interface Client {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  sendCommand<T>(args: string[]): Promise<T>;
  on(event: "error", listener: (error: unknown) => void): unknown;
  on(event: "ready", listener: () => void): unknown;
  connect(): Promise<unknown>;
  close(): Promise<unknown>;
  destroy(): unknown;
  duplicate(): Client;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
}

export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]` (default `redis://127.0.0.1:6379`). */
  readonly url?: string | undefined;
  /** Put before every key and channel (default `mcp:`); servers that share a Redis use different ones. */
  readonly prefix?: string | undefined;
  /** Longest wait for one command, in ms (default 2000, at least 1). */
  readonly commandTimeoutMs?: number | undefined;
  /** Longest wait for the connection, at open and at each reconnect attempt, in ms (default 5000, at least 1). */
  readonly connectTimeoutMs?: number | undefined;
  /** Failures no caller sees: the connection dropped, a subscriber message that is not ours. */
  readonly onError?: ((error: Error) => void) | undefined;
}

/**
 * Redis could not answer: it is unreachable, reconnecting, or slower than commandTimeoutMs. An
 * McpError (-32603), so that a handler that needed Redis answers its client with this message
 * rather than a bare "Internal error".
 */
export class RedisUnavailableError extends McpError {
  override name = "RedisUnavailableError";
  constructor(message: string) {
    super(ErrorCode.InternalError, message);
  }
}

const MAX_BACKOFF_MS = 1000;
const SCRIPT_MISSING = /^NOSCRIPT/;

/**
 * A connection to Redis for the add-on's stores (RedisTaskStore, RedisSubscriptionBus,
 * RedisEventStore, RedisSessionRegistry, RedisReplayGuard). Open it with `connectRedis()`; close
 * it once, after the stores are no longer used.
 */
export class RedisConnection {
  readonly prefix: string;
  readonly #client: Client;
  #subscriber: Promise<Client> | undefined;
  /** Called each time the subscriber is connected again after a drop (what was published meanwhile was missed). */
  readonly #resynced = new Set<() => void>();
  readonly #timeoutMs: number;
  readonly #onError: (error: Error) => void;
  readonly #shas = new Map<string, string>();
  #closed = false;

  constructor(client: Client, prefix: string, timeoutMs: number, onError: (error: Error) => void) {
    this.#client = client;
    this.prefix = prefix;
    this.#timeoutMs = timeoutMs;
    this.#onError = onError;
  }

  /** A key (or channel) under the prefix. */
  key(...parts: string[]): string {
    return this.prefix + parts.join(":");
  }

  /** Whether commands can be sent now (false while reconnecting or after close). */
  get ready(): boolean {
    return this.#client.isReady;
  }

  /** One command, bounded: a RedisUnavailableError when Redis cannot answer in time; Redis's own error replies as they are. */
  async command<T>(args: readonly string[]): Promise<T> {
    if (this.#closed) throw new RedisUnavailableError("Redis: the connection was closed");
    if (!this.#client.isReady) throw new RedisUnavailableError(`Redis is unavailable (reconnecting); ${args[0] ?? "the command"} was not sent`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisUnavailableError(`Redis did not answer ${args[0] ?? "a command"} within ${this.#timeoutMs} ms (commandTimeoutMs)`)), this.#timeoutMs);
    });
    try {
      return await Promise.race([this.#client.sendCommand<T>([...args]), late]);
    } catch (error) {
      if (error instanceof RedisUnavailableError || isRedisReply(error)) throw error;
      throw new RedisUnavailableError(`Redis is unavailable: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a Lua script (EVALSHA, loading it once per connection). Keys are derived inside it from the prefix (ARGV[1]). */
  async script<T>(source: string, args: readonly string[]): Promise<T> {
    const sha = this.#shas.get(source);
    if (sha !== undefined) {
      try {
        return await this.command<T>(["EVALSHA", sha, "0", this.prefix, ...args]);
      } catch (error) {
        if (!(isRedisReply(error) && SCRIPT_MISSING.test(error.message))) throw error;
      }
    }
    const loaded = await this.command<string>(["SCRIPT", "LOAD", source]);
    this.#shas.set(source, loaded);
    return this.command<T>(["EVALSHA", loaded, "0", this.prefix, ...args]);
  }

  /**
   * Subscribes to a channel (on a second client, made at the first call); returns the function
   * that unsubscribes. The client subscribes again by itself after a reconnect; `resynced` is
   * called then, since pub/sub does not replay what was published while it was away.
   */
  async subscribe(channel: string, listener: (message: string) => void, resynced?: () => void): Promise<() => Promise<void>> {
    if (resynced !== undefined) this.#resynced.add(resynced);
    this.#subscriber ??= (async () => {
      const subscriber = this.#client.duplicate();
      subscriber.on("error", (error: unknown) => this.#onError(asError(error)));
      let connected = false;
      subscriber.on("ready", () => {
        if (!connected) return void (connected = true);
        // Give the client a moment to send its SUBSCRIBE commands again before the stores re-read.
        setTimeout(() => {
          for (const callback of [...this.#resynced]) {
            try {
              callback();
            } catch (error) {
              this.#onError(asError(error));
            }
          }
        }, 50);
      });
      await subscriber.connect();
      return subscriber;
    })();
    const subscriber = await this.#subscriber;
    const guarded = (message: string): void => {
      try {
        listener(message);
      } catch (error) {
        this.#onError(asError(error));
      }
    };
    await subscriber.subscribe(channel, guarded);
    return async () => {
      if (resynced !== undefined) this.#resynced.delete(resynced);
      if (subscriber.isOpen) await subscriber.unsubscribe(channel, guarded);
    };
  }

  /** Closes both clients. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const subscriber = await this.#subscriber?.catch(() => undefined);
    await Promise.allSettled([this.#client.isOpen ? this.#client.close() : undefined, subscriber?.isOpen === true ? subscriber.close() : undefined]);
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** An error Redis replied with (a script's error, a wrong type): not a connection problem. */
function isRedisReply(error: unknown): error is Error {
  return error instanceof Error && (error.constructor.name === "ErrorReply" || error.constructor.name === "SimpleError" || error.constructor.name === "BlobError");
}

/**
 * Opens a connection; rejects with RedisUnavailableError when Redis cannot be reached within
 * connectTimeoutMs. Options are validated here.
 */
export async function connectRedis(options: RedisConnectionOptions = {}): Promise<RedisConnection> {
  const timeoutMs = numberOption("commandTimeoutMs", options.commandTimeoutMs, 2000, { min: 1 });
  const connectTimeoutMs = numberOption("connectTimeoutMs", options.connectTimeoutMs, 5000, { min: 1 });
  const prefix = options.prefix ?? "mcp:";
  if (typeof prefix !== "string") throw new TypeError(`prefix must be a string, got ${typeof prefix}`);
  const onError = (error: Error): void => {
    try {
      options.onError?.(error);
    } catch {
      // The error callback is user code; its own failure stops here.
    }
  };
  const client = createClient({
    url: options.url ?? "redis://127.0.0.1:6379",
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: (retries: number) => Math.min(MAX_BACKOFF_MS, 50 * 2 ** Math.min(retries, 5)) },
  }) as unknown as Client;
  // node-redis emits every connection failure as an 'error' event; without a listener it would throw.
  client.on("error", (error: unknown) => onError(asError(error)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RedisUnavailableError(`Redis at ${options.url ?? "redis://127.0.0.1:6379"} could not be reached within ${connectTimeoutMs} ms (connectTimeoutMs)`)), connectTimeoutMs);
      }),
    ]);
  } catch (error) {
    void client.destroy();
    throw error instanceof RedisUnavailableError ? error : new RedisUnavailableError(`Redis is unavailable: ${asError(error).message}`);
  } finally {
    clearTimeout(timer);
  }
  return new RedisConnection(client, prefix, timeoutMs, onError);
}
