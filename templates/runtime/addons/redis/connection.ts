// The Redis add-on's connection (node-redis, package `redis`): a few command clients (two by
// default) and, when a store needs pub/sub, one subscriber client, shared by every store made from
// it; key names under one prefix, so that several servers share one Redis; and the bounds every
// command keeps.
//
// Several command clients, used in turn: while Redis runs the scripts that arrived on one socket,
// this process reads the replies of the other, so neither waits for the other (on one socket the
// two take turns; two measured +30-45 % tasks/s). Commands sent on different clients may run in
// either order: every store here awaits a command before the one that depends on it, and
// the stores' scripts make writes that may race (a session's save against its removal, two
// instances' changes of one task) safe in any order, as they must be across instances anyway.
//
// Bounded waits: a command is refused at once while the client is reconnecting (no offline queue:
// a request that needs Redis fails with a clear error instead of waiting for it), and one that
// Redis does not answer within `commandTimeoutMs` fails the same way (a slow Redis). That bound is
// kept here by one timer for all the commands in flight (CommandDeadlines), not by node-redis's
// own per-command timeout, which it switches off: node-redis arms an AbortSignal.timeout for each
// command, and those signals cost a task created and polled through Redis about a third of its
// client CPU. The client reconnects on its own, with a backoff capped at one second, so a server
// recovers without a restart once Redis is back. Standalone Redis only: the scripts name keys they
// derive (no Cluster).

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
  /** Command clients (sockets) used in turn (default 2, 1 … 16). */
  readonly commandClients?: number | undefined;
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
  readonly #clients: readonly Client[];
  #turn = 0;
  #subscriber: Promise<Client> | undefined;
  /** Called each time the subscriber is connected again after a drop (what was published meanwhile was missed). */
  readonly #resynced = new Set<() => void>();
  readonly #timeoutMs: number;
  readonly #onError: (error: Error) => void;
  readonly #shas = new Map<string, string>();
  readonly #deadlines: CommandDeadlines;
  #closed = false;

  constructor(clients: readonly Client[], prefix: string, timeoutMs: number, onError: (error: Error) => void) {
    this.#clients = clients;
    this.prefix = prefix;
    this.#timeoutMs = timeoutMs;
    this.#deadlines = new CommandDeadlines(timeoutMs);
    this.#onError = onError;
  }

  /** A key (or channel) under the prefix. */
  key(...parts: string[]): string {
    return this.prefix + parts.join(":");
  }

  /** Whether commands can be sent now (false while every client is reconnecting, or after close). */
  get ready(): boolean {
    return this.#clients.some((client) => client.isReady);
  }

  /** The next command client in turn that is ready; undefined when none is. */
  #pick(): Client | undefined {
    const clients = this.#clients;
    for (let tries = 0; tries < clients.length; tries++) {
      const client = clients[this.#turn++ % clients.length];
      if (client?.isReady === true) return client;
    }
    return undefined;
  }

  /** One command, bounded: a RedisUnavailableError when Redis cannot answer in time; Redis's own error replies as they are. */
  command<T>(args: readonly string[]): Promise<T> {
    if (this.#closed) return Promise.reject(new RedisUnavailableError("Redis: the connection was closed"));
    const client = this.#pick();
    if (client === undefined) return Promise.reject(new RedisUnavailableError(`Redis is unavailable (reconnecting); ${args[0] ?? "the command"} was not sent`));
    return new Promise<T>((resolve, reject) => {
      // Whichever comes first settles the promise: the reply, or the deadline (a late reply is dropped).
      const id = this.#deadlines.add(() => reject(new RedisUnavailableError(`Redis did not answer ${args[0] ?? "a command"} within ${this.#timeoutMs} ms (commandTimeoutMs)`)));
      client.sendCommand<T>([...args]).then(
        (reply) => {
          this.#deadlines.done(id);
          resolve(reply);
        },
        (error: unknown) => {
          this.#deadlines.done(id);
          reject(isRedisReply(error) ? error : new RedisUnavailableError(`Redis is unavailable: ${error instanceof Error ? error.message : String(error)}`));
        },
      );
    });
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
      const subscriber = (this.#clients[0] as Client).duplicate();
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
    await Promise.allSettled([...this.#clients, subscriber].map((client) => (client?.isOpen === true ? client.close() : undefined)));
  }
}

/**
 * The deadlines of the commands in flight, all `timeoutMs` after their start: kept in start
 * order, which is also deadline order, with one timer for the earliest. Each command is failed at
 * its own deadline (a timer never fires early); adding and settling a command costs a map
 * operation, not a timer each.
 */
class CommandDeadlines {
  readonly #timeoutMs: number;
  readonly #pending = new Map<number, { readonly at: number; readonly fail: () => void }>();
  #next = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
  }

  /** Starts a command's clock; `fail` runs at its deadline unless `done` came first. */
  add(fail: () => void): number {
    const id = this.#next++;
    this.#pending.set(id, { at: performance.now() + this.#timeoutMs, fail });
    if (this.#timer === undefined) this.#arm(this.#timeoutMs);
    return id;
  }

  done(id: number): void {
    this.#pending.delete(id);
  }

  #arm(delayMs: number): void {
    // Math.ceil: a timer that fires a fraction early would find the head not yet due, and re-arm for ~0 ms.
    const timer = setTimeout(() => this.#fire(), Math.ceil(delayMs));
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (const [id, command] of this.#pending) {
      if (command.at > now) return this.#arm(command.at - now);
      this.#pending.delete(id);
      command.fail();
    }
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
  const count = numberOption("commandClients", options.commandClients, 2, { min: 1, max: 16 });
  const prefix = options.prefix ?? "mcp:";
  if (typeof prefix !== "string") throw new TypeError(`prefix must be a string, got ${typeof prefix}`);
  const onError = (error: Error): void => {
    try {
      options.onError?.(error);
    } catch {
      // The error callback is user code; its own failure stops here.
    }
  };
  const first = createClient({
    url: options.url ?? "redis://127.0.0.1:6379",
    disableOfflineQueue: true,
    // No per-command timeout of node-redis's own (an AbortSignal.timeout per command, until it is written): commandTimeoutMs is kept by CommandDeadlines.
    commandOptions: { timeout: 0 },
    socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: (retries: number) => Math.min(MAX_BACKOFF_MS, 50 * 2 ** Math.min(retries, 5)) },
  }) as unknown as Client;
  const clients = [first, ...Array.from({ length: count - 1 }, () => first.duplicate())];
  // node-redis emits every connection failure as an 'error' event; without a listener it would throw.
  for (const client of clients) client.on("error", (error: unknown) => onError(asError(error)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all(clients.map((client) => client.connect())),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RedisUnavailableError(`Redis at ${options.url ?? "redis://127.0.0.1:6379"} could not be reached within ${connectTimeoutMs} ms (connectTimeoutMs)`)), connectTimeoutMs);
      }),
    ]);
  } catch (error) {
    for (const client of clients) void client.destroy();
    throw error instanceof RedisUnavailableError ? error : new RedisUnavailableError(`Redis is unavailable: ${asError(error).message}`);
  } finally {
    clearTimeout(timer);
  }
  return new RedisConnection(clients, prefix, timeoutMs, onError);
}
