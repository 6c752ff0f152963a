/**
 * The client caches list results and refreshes them on list_changed (issue 42, item 3): a raw
 * stdio server counts the list requests it reads and sends list_changed when told. Session era:
 * a page is reused only where the server declared listChanged, until its list_changed. 2026-07-28:
 * the result's ttlMs decides (0: never reused). Bounded; `listCache: false` turns it off.
 */
import { PassThrough } from "node:stream";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../generated/2025-11-25/index.js";
import * as R26 from "../../generated/2026-07-28/index.js";
import { StdioTransport } from "../../generated/2025-11-25/stdio.js";
import { StdioTransport as StdioTransport26 } from "../../generated/2026-07-28/stdio.js";
import { ListCache } from "../../../templates/runtime/features/list-cache.js";

type Message = { id?: number | string; method?: string; params?: Record<string, unknown> };

/** A raw server: counts requests by method, answers through `answer`, and can send a notification. */
function rawServer(answer: (message: Message) => unknown) {
  const c2s = new PassThrough();
  const s2c = new PassThrough();
  const counts: Record<string, number> = {};
  const held: (() => void)[] = [];
  createInterface({ input: c2s }).on("line", (line) => {
    const message = JSON.parse(line) as Message;
    if (message.id === undefined || message.method === undefined) return;
    counts[message.method] = (counts[message.method] ?? 0) + 1;
    const result = answer(message);
    const reply = (r: unknown) => s2c.write(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: r }) + "\n");
    if (result === "hold") held.push(() => reply(answer({ ...message, method: `${message.method}:released` })));
    else if (result !== undefined) reply(result);
  });
  const notify = (method: string) => s2c.write(JSON.stringify({ jsonrpc: "2.0", method }) + "\n");
  return { c2s, s2c, counts, notify, held };
}

const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close().catch(() => undefined);
});

const TOOLS = { tools: [{ name: "t", inputSchema: { type: "object" } }] };
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

async function sessionClient(capabilities: object, options: R.McpClientOptions = {}, hold = false) {
  const raw = rawServer((m) => {
    if (m.method === "initialize") return { protocolVersion: "2025-11-25", capabilities, serverInfo: { name: "raw", version: "1" } };
    if (m.method === "tools/list" && hold) return "hold";
    if (m.method === "tools/list" || m.method === "tools/list:released") return { ...TOOLS, ...(m.params?.["cursor"] === undefined ? {} : { nextCursor: undefined }) };
    if (m.method === "resources/templates/list") return { resourceTemplates: [] };
    return {};
  });
  const heard: string[] = [];
  const client = new R.McpClient({ logger: null, notificationHandlers: { "notifications/tools/list_changed": () => void heard.push("tools") }, ...options });
  clients.push(client);
  await client.connect(new StdioTransport({ input: raw.s2c, output: raw.c2s }));
  return { raw, client, heard };
}

describe("the list cache, session era (2025-11-25)", () => {
  it("reuses tools/list until notifications/tools/list_changed, which the application's handler still hears; a cursor is a page of its own", async () => {
    const { raw, client, heard } = await sessionClient({ tools: { listChanged: true } });
    expect(await client.listTools()).toEqual(TOOLS);
    expect(await client.listTools()).toEqual(TOOLS);
    expect(await client.listTools({})).toEqual(TOOLS);
    expect(raw.counts["tools/list"]).toBe(1);
    await client.listTools({ cursor: "p2" });
    expect(raw.counts["tools/list"]).toBe(2);
    raw.notify("notifications/tools/list_changed");
    await expect.poll(() => heard).toEqual(["tools"]);
    await client.listTools();
    await client.listTools({ cursor: "p2" });
    expect(raw.counts["tools/list"]).toBe(4);
    await client.listTools();
    expect(raw.counts["tools/list"]).toBe(4);
  });

  it("resources/list_changed refreshes resources/templates/list too", async () => {
    const { raw, client } = await sessionClient({ resources: { listChanged: true } });
    await client.listResourceTemplates();
    await client.listResourceTemplates();
    expect(raw.counts["resources/templates/list"]).toBe(1);
    raw.notify("notifications/resources/list_changed");
    await tick();
    await client.listResourceTemplates();
    expect(raw.counts["resources/templates/list"]).toBe(2);
  });

  it("a server that did not declare listChanged is asked every time (nothing would say its list changed)", async () => {
    const { raw, client } = await sessionClient({ tools: {} });
    await client.listTools();
    await client.listTools();
    expect(raw.counts["tools/list"]).toBe(2);
  });

  it("listCache: false asks every time", async () => {
    const { raw, client } = await sessionClient({ tools: { listChanged: true } }, { listCache: false });
    await client.listTools();
    await client.listTools();
    expect(raw.counts["tools/list"]).toBe(2);
  });

  it("a page requested before a list_changed and answered after it is not kept", async () => {
    const { raw, client } = await sessionClient({ tools: { listChanged: true } }, {}, true);
    const first = client.listTools();
    await expect.poll(() => raw.held.length).toBe(1);
    raw.notify("notifications/tools/list_changed");
    await tick();
    raw.held.shift()!();
    await first;
    const second = client.listTools();
    await expect.poll(() => raw.held.length).toBe(1);
    raw.held.shift()!();
    await second;
    expect(raw.counts["tools/list"]).toBe(2);
  });
});

describe("the list cache, 2026-07-28 (ttlMs, cacheScope)", () => {
  async function statelessClient(ttlMs: number, cacheScope: "public" | "private") {
    const raw = rawServer((m) => {
      if (m.method === "server/discover") return { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {} }, cacheScope: "public", ttlMs: 0 };
      if (m.method === "tools/list") return { resultType: "complete", ttlMs, cacheScope, ...TOOLS };
      return undefined;
    });
    const client = new R26.McpClient({ logger: null });
    clients.push(client);
    await client.connect(new StdioTransport26({ input: raw.s2c, output: raw.c2s }));
    return { raw, client };
  }

  it("ttlMs 0: never reused", async () => {
    const { raw, client } = await statelessClient(0, "public");
    await client.listTools();
    await client.listTools();
    expect(raw.counts["tools/list"]).toBe(2);
  });

  it("ttlMs 80, private: reused within this client for 80 ms, then asked again", async () => {
    const { raw, client } = await statelessClient(80, "private");
    await client.listTools();
    await client.listTools();
    expect(raw.counts["tools/list"]).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await client.listTools();
    expect(raw.counts["tools/list"]).toBe(2);
  });
});

describe("ListCache", () => {
  const LISTS = [{ method: "tools/list", changed: "notifications/tools/list_changed", capability: "tools" }];

  it("is bounded: past maxEntries the oldest page goes", () => {
    const cache = new ListCache(LISTS, { maxEntries: 2 });
    for (const cursor of ["a", "b", "c"]) cache.set("tools/list", { cursor }, { tools: [], ttlMs: 60_000 });
    expect(cache.size).toBe(2);
    expect(cache.get("tools/list", { cursor: "a" })).toBeUndefined();
    expect(cache.get("tools/list", { cursor: "c" })).toEqual({ tools: [], ttlMs: 60_000 });
  });

  it("keeps nothing for params besides a cursor, nor for methods it does not know", () => {
    const cache = new ListCache(LISTS);
    cache.set("tools/list", { cursor: "a", filter: "x" }, { tools: [], ttlMs: 60_000 });
    cache.set("prompts/list", {}, { prompts: [], ttlMs: 60_000 });
    expect(cache.size).toBe(0);
  });

  it("maxEntries below 1 is a RangeError naming it", () => {
    expect(() => new ListCache(LISTS, { maxEntries: 0 })).toThrow(/maxEntries/);
  });
});
