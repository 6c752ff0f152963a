// The client's cache of list results (tools/list, prompts/list, resources/list,
// resources/templates/list): a page is reused while it is fresh and dropped when the server says
// its list changed. Fresh means: where the result carries the 2026-07-28 caching hint `ttlMs`,
// for that long (0: never reused; "the response SHOULD be considered immediately stale"); where
// it carries none (the session era), until the list's list_changed notification, and only where
// the server declared `listChanged` for that list (else nothing would tell the client). The cache
// belongs to one client, one authorization context, so `cacheScope` "private" and "public" pages
// are both reusable here (neither is ever shared with another client). Bounded: the oldest page
// goes first. A cached page is handed back as it was received: treat it as read-only.

import type { JsonObject } from "../core/protocol.js";
import { numberOption } from "../core/options.js";

/** One cacheable list request, as data (client.ts's CLIENT.lists). */
export interface CachedList {
  /** The list request (`tools/list`). */
  readonly method: string;
  /** The notification that says the list changed (`notifications/tools/list_changed`). */
  readonly changed: string;
  /** The server capability whose `listChanged` promises that notification (`tools`). */
  readonly capability: string;
}

export interface ListCacheOptions {
  /** Pages kept at most, over every list (default 100); the oldest goes first. */
  readonly maxEntries?: number | undefined;
}

/** Pages kept where the client sets no bound. */
export const DEFAULT_LIST_CACHE_ENTRIES = 100;

interface Entry {
  readonly result: JsonObject;
  /** Reused until (ms since the epoch); Infinity: until its list_changed. */
  readonly until: number;
}

export class ListCache {
  readonly #lists: ReadonlyMap<string, CachedList>;
  readonly #byChange: ReadonlyMap<string, readonly string[]>;
  readonly #max: number;
  readonly #entries: Map<string, Entry> = new Map();
  /** Bumped by every list_changed: a page requested before one is not kept (it may predate the change). */
  #generation: number = 0;
  /** The server's capabilities (from connect()); undefined: not known, no page is kept without a ttlMs. */
  capabilities: JsonObject | undefined;

  constructor(lists: readonly CachedList[], options: ListCacheOptions = {}) {
    this.#max = numberOption("maxEntries", options.maxEntries, DEFAULT_LIST_CACHE_ENTRIES, { min: 1 });
    this.#lists = new Map(lists.map((l) => [l.method, l]));
    const byChange = new Map<string, string[]>();
    for (const l of lists) byChange.set(l.changed, [...(byChange.get(l.changed) ?? []), l.method]);
    this.#byChange = byChange;
  }

  /** Pages cached now. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * The key of a request's page, or undefined where it is not cacheable: only a request whose
   * params hold nothing but a cursor (and `_meta`, which the client fills the same each time).
   */
  #key(method: string, params: object | undefined): string | undefined {
    const fields = Object.entries(params ?? {}).filter(([k]) => k !== "_meta");
    if (fields.some(([k, v]) => k !== "cursor" || (v !== undefined && typeof v !== "string"))) return undefined;
    const cursor = (params as { cursor?: string } | undefined)?.cursor;
    return `${method}\u0000${cursor ?? ""}`;
  }

  /** The fresh cached page of this request, if any. */
  get(method: string, params: object | undefined, now: number = Date.now()): JsonObject | undefined {
    const key = this.#key(method, params);
    const entry = key === undefined ? undefined : this.#entries.get(key);
    if (entry === undefined || key === undefined) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.result;
  }

  /** Keeps a page the server sent, where its hints or the server's capabilities allow reuse. */
  set(method: string, params: object | undefined, result: unknown, now: number = Date.now()): void {
    const list = this.#lists.get(method);
    const key = this.#key(method, params);
    if (list === undefined || key === undefined || typeof result !== "object" || result === null) return;
    const until = this.#freshUntil(list, result as JsonObject, now);
    if (until <= now) return;
    this.#entries.delete(key);
    this.#entries.set(key, { result: result as JsonObject, until });
    while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  #freshUntil(list: CachedList, result: JsonObject, now: number): number {
    const ttl = result["ttlMs"];
    if (typeof ttl === "number") return Number.isFinite(ttl) && ttl > 0 ? now + ttl : now;
    const offered = this.capabilities?.[list.capability];
    return typeof offered === "object" && offered !== null && (offered as JsonObject)["listChanged"] === true ? Infinity : now;
  }

  /** A notification arrived: a list_changed drops every page of its lists. Returns whether it was one. */
  changed(notification: string): boolean {
    const methods = this.#byChange.get(notification);
    if (methods === undefined) return false;
    this.#generation++;
    for (const key of [...this.#entries.keys()]) {
      if (methods.some((m) => key.startsWith(`${m}\u0000`))) this.#entries.delete(key);
    }
    return true;
  }

  /** Drops every page (the client closed or reconnected). */
  clear(): void {
    this.#entries.clear();
  }

  /**
   * The request through the cache: a fresh page at once, else the request, its page kept.
   * Concurrent misses each send (no coalescing): the cache never holds a request back.
   */
  async request(send: () => Promise<unknown>, method: string, params: object | undefined): Promise<unknown> {
    const cached = this.get(method, params);
    if (cached !== undefined) return cached;
    const generation = this.#generation;
    const result = await send();
    if (generation === this.#generation) this.set(method, params, result);
    return result;
  }
}
