// The `x-mcp-header` annotations of the server's own tools (2026-07-28
// basic/transports/streamable-http, "Server Behavior for Custom Headers"): a tools/call's
// `Mcp-Param-*` headers are checked against the arguments its tool maps to them, so the server
// reads its own tools/list (through a connection of its own, as any client would) and keeps the
// annotations in a map by tool name: a tools/call looks its tool up there, in constant time.
// The map is read again when the list changes: when the server counts its list's changes
// (McpServer.listChanges: registrations), as soon as that count moves; else (a tools/list handler
// of your own) after the list's `ttlMs`, or `toolHeadersTtlMs`.

import { isObject } from "../../core/json.js";
import { describeValue, type JsonObject, type Transport } from "../../core/protocol.js";
import { report as guarded } from "../fetch.js";
import { toolHeaders, type ToolHeader } from "../headers.js";
import { unref } from "../server/sse-stream.js";
import type { HttpBinding, HttpServable } from "./binding.js";

const RESOLVED: Promise<void> = Promise.resolve();
const NONE: readonly ToolHeader[] = [];

/** How long the server's own tools/list may take before the HTTP layer stops waiting (and treats it as failed). */
const OWN_REQUEST_TIMEOUT_MS = 10_000;

/**
 * Sends one request to a new connection of the server and returns its result; past
 * OWN_REQUEST_TIMEOUT_MS the connection closes (the handler's signal aborts) and it rejects.
 */
function callOwn(server: HttpServable, method: string, params: JsonObject): Promise<JsonObject> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${method} did not answer within ${OWN_REQUEST_TIMEOUT_MS} ms`));
      void connection.close().catch(() => undefined);
    }, OWN_REQUEST_TIMEOUT_MS);
    unref(timer);
    // Method shorthand, not arrow properties: nothing to name per call where a transpiler keeps names (tsx).
    const transport: Transport = {
      start() {
        return RESOLVED;
      },
      close() {
        return RESOLVED;
      },
      send(message) {
        if ("method" in message) return RESOLVED;
        clearTimeout(timer);
        if ("error" in message) reject(new Error(`${method} failed: ${message.error.message}`));
        else resolve(message.result);
        void connection.close().catch(() => undefined);
        return RESOLVED;
      },
    };
    const connection = server.openConnection(transport);
    transport.onmessage?.({ jsonrpc: "2.0", id: 1, method, params });
  });
}

const MAX_LIST_PAGES = 100;
const MAX_TOOLS = 10_000;
/** After a tools/list that failed (or a server without one), how long until it is asked again. */
const RETRY_FAILED_LIST_MS = 1000;

/**
 * The `x-mcp-header` annotations of the server's tools, by tool name (at most MAX_TOOLS), read
 * from its own tools/list handler and reused until the list changes (HttpServable.listChanges),
 * or, when the server cannot tell, for `toolHeadersTtlMs` or the `ttlMs` of that handler's
 * result. Reads are shared while one is under way; the annotations of an inputSchema object are
 * scanned once.
 */
export class ToolHeaders {
  readonly #server: HttpServable;
  readonly #binding: HttpBinding;
  readonly #list: string;
  /** The handler's toolHeadersTtlMs (undefined: the list's own ttlMs). */
  readonly #ttlMs: number | undefined;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #scanned = new WeakMap<object, readonly ToolHeader[]>();
  #byTool: ReadonlyMap<string, readonly ToolHeader[]> = new Map();
  #expires = 0;
  /** The server's count of the list's changes when the map was read (undefined: it counts none, or nothing was read). */
  #readAtChange: number | undefined;
  /** Whether the last read failed (kept for RETRY_FAILED_LIST_MS at most, even when the list does not change). */
  #failed = false;
  #reading: Promise<void> | undefined;

  constructor(server: HttpServable, binding: HttpBinding, list: string, ttlMs: number | undefined, onError: ((error: Error) => void) | undefined) {
    this.#server = server;
    this.#binding = binding;
    this.#list = list;
    this.#ttlMs = ttlMs;
    this.#onError = onError;
  }

  /** A tool's annotations while the last read is fresh; undefined when they must be read again first (of). */
  fresh(tool: string): readonly ToolHeader[] | undefined {
    return this.#isFresh() ? this.#byTool.get(tool) ?? NONE : undefined;
  }

  async of(tool: string): Promise<readonly ToolHeader[]> {
    if (!this.#isFresh()) {
      this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
      await this.#reading;
    }
    return this.#byTool.get(tool) ?? NONE;
  }

  /** The server's count of the list's changes; undefined when it counts none (a handler of yours). */
  #changes(): number | undefined {
    return this.#server.listChanges?.(this.#list);
  }

  /**
   * Whether the map read last still holds. When the server counts its list's changes: until the
   * count moves (a failed read: until then or RETRY_FAILED_LIST_MS, whichever comes first); else
   * until its time runs out (the list's ttlMs, or toolHeadersTtlMs).
   */
  #isFresh(): boolean {
    const changes = this.#changes();
    if (changes === undefined) return Date.now() < this.#expires;
    return changes === this.#readAtChange && (!this.#failed || Date.now() < this.#expires);
  }

  async #read(): Promise<void> {
    // Counted before the read: a change made while it runs makes the next call read again.
    const changes = this.#changes();
    const meta = this.#binding.meta;
    const byTool = new Map<string, readonly ToolHeader[]>();
    let ttlMs = 0;
    let failed = false;
    try {
      let cursor: string | undefined;
      const cursors = new Set<string>();
      let count = 0;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const params: JsonObject = { _meta: { [meta.protocolVersion]: this.#binding.revision, [meta.clientCapabilities]: {} } };
        if (cursor !== undefined) params["cursor"] = cursor;
        const result = await callOwn(this.#server, this.#list, params);
        if (page === 0 && typeof result["ttlMs"] === "number" && result["ttlMs"] > 0) ttlMs = result["ttlMs"];
        const tools = Array.isArray(result["tools"]) ? result["tools"] : [];
        for (const tool of tools) {
          if (++count > MAX_TOOLS) break;
          if (!isObject(tool) || typeof tool["name"] !== "string") continue;
          const declarations = this.#declarations(tool["name"], tool["inputSchema"]);
          if (declarations.length > 0) byTool.set(tool["name"], declarations);
        }
        const next = result["nextCursor"];
        if (typeof next !== "string" || cursors.has(next) || count > MAX_TOOLS) break;
        cursors.add(next);
        cursor = next;
      }
    } catch (error) {
      failed = true;
      guarded(this.#onError, error);
    }
    this.#byTool = byTool;
    this.#expires = Date.now() + (this.#ttlMs ?? (failed ? RETRY_FAILED_LIST_MS : ttlMs));
    this.#readAtChange = changes;
    this.#failed = failed;
  }

  /**
   * A tool's annotations, scanned once per inputSchema object with the client's scan (headers.ts):
   * a tool that scan finds invalid is one conforming clients exclude from tools/list, so no
   * header is expected for it; the server's own misdefined tool is reported through onError.
   */
  #declarations(tool: string, inputSchema: unknown): readonly ToolHeader[] {
    if (!isObject(inputSchema)) return NONE;
    let declarations = this.#scanned.get(inputSchema);
    if (declarations === undefined) {
      const scanned = toolHeaders(inputSchema);
      if (typeof scanned === "string") guarded(this.#onError, new Error(`tools/list: tool ${describeValue(tool)} has an invalid x-mcp-header annotation, so clients exclude it: ${scanned}`));
      declarations = typeof scanned === "string" || scanned.length === 0 ? NONE : scanned;
      this.#scanned.set(inputSchema, declarations);
    }
    return declarations;
  }
}
