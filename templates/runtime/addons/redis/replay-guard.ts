// A ReplayGuard in Redis (features/mrtr-replay-guard.ts): single-use requestState over every instance. A
// state's key is claimed with one SET NX that expires with the state (PXAT), so two instances
// given the same state at once accept it on one of them only.

import type { ReplayGuard } from "../../features/mrtr-replay-guard.js";
import type { RedisConnection } from "./connection.js";

/** `requestState: { key, singleUse: new RedisReplayGuard(redis) }` on every instance. */
export class RedisReplayGuard implements ReplayGuard {
  readonly #redis: RedisConnection;
  readonly #now: () => number;

  constructor(redis: RedisConnection, options: { readonly now?: (() => number) | undefined } = {}) {
    this.#redis = redis;
    this.#now = options.now ?? Date.now;
  }

  async claim(key: string, expiresAt: number): Promise<boolean> {
    if (!Number.isFinite(expiresAt) || expiresAt <= this.#now()) return false;
    const reply = await this.#redis.command<string | null>(["SET", this.#redis.key("replay", key), "1", "NX", "PXAT", String(Math.ceil(expiresAt))]);
    return reply === "OK";
  }
}
