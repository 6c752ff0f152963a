/**
 * Tools registered on the generated 2025-11-25 server (registerTool), on the wire over an
 * in-memory pair: tools/list shows them with their schemas, tools/call validates arguments before
 * the handler (an invalid call is a tool execution error naming the JSON pointer, SEP-1303), a
 * structured result that breaks outputSchema is never a success, pagination, list_changed on each
 * change, capabilities declared when the client initializes; arguments the validator's budget
 * does not suffice to check (a 4 MiB string against a pattern, 20 patternProperties over 2,000
 * long keys) are refused with -32602 "validation budget exceeded", with less than 50 ms of CPU
 * per call (test/helpers/blocking.ts; the old code blocked for 2.3 s to 28 s).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as R from "../../../generated/2025-11-25/index.js";
import { connectPair, settle } from "../../../helpers/harness.js";
import { INITIALIZE_PARAMS } from "../../../helpers/fixtures.js";
import { loopBlockMs } from "../../../helpers/blocking.js";

const ADD_INPUT = {
  type: "object",
  properties: { a: { type: "number" }, b: { type: "number", minimum: 0 } },
  required: ["a", "b"],
  additionalProperties: false,
} as const;
const ADD_OUTPUT = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } as const;

function withAdd(server: R.McpServer, handler?: (args: { a: number; b: number }) => unknown) {
  const calls: Array<{ a: number; b: number }> = [];
  const registered = server.registerTool("add", { description: "adds", inputSchema: ADD_INPUT, outputSchema: ADD_OUTPUT }, (args) => {
    calls.push(args);
    if (handler !== undefined) return handler(args) as never;
    return { content: [], structuredContent: { sum: args.a + args.b } };
  });
  return { calls, registered };
}

describe("registered tools on the wire (2025-11-25)", () => {
  it("lists the tool with its schemas and declares tools with listChanged at initialize", async () => {
    const { client, server } = await connectPair();
    withAdd(server);
    const init = await client.initialize(INITIALIZE_PARAMS);
    expect(init.capabilities.tools).toEqual({ listChanged: true });
    const list = await client.listTools({});
    expect(list.tools).toEqual([{ name: "add", description: "adds", inputSchema: ADD_INPUT, outputSchema: ADD_OUTPUT }]);
    expect(list.nextCursor).toBeUndefined();
  });

  it("calls the handler with validated arguments and sends the structured result, with content written from it", async () => {
    const { client, server } = await connectPair();
    const { calls } = withAdd(server, (args) => ({ structuredContent: { sum: args.a + args.b } }));
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    expect(result).toEqual({ structuredContent: { sum: 5 }, content: [{ type: "text", text: '{"sum":5}' }] });
  });

  it("answers arguments that break the schema with isError naming the pointer, and never runs the handler", async () => {
    const { client, server, serverWire } = await connectPair();
    const { calls } = withAdd(server);
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: -1 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: "Invalid arguments for tool add: /b: must be ≥ 0" }]);
    const missing = await client.callTool({ name: "add", arguments: { a: 1 } });
    expect(missing.content).toEqual([{ type: "text", text: 'Invalid arguments for tool add: (root): must have the property "b"' }]);
    const extra = await client.callTool({ name: "add", arguments: { a: 1, b: 2, c: 3 } });
    expect(extra.content).toEqual([{ type: "text", text: "Invalid arguments for tool add: /c: is not an allowed property" }]);
    expect(calls).toEqual([]);
    // On the wire: results, not errors.
    expect(serverWire.sent.filter((m) => "error" in m)).toEqual([]);
  });

  it("refuses an unknown tool and arguments that are not an object with -32602", async () => {
    const { client, server } = await connectPair();
    withAdd(server);
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602, message: "Unknown tool: nope" });
    await expect(client.request("tools/call", { name: "add", arguments: [1, 2] } as never)).rejects.toMatchObject({ code: -32602 });
  });

  it("never sends a structured result that breaks outputSchema as a success: -32603", async () => {
    const { client, server, serverWire } = await connectPair();
    withAdd(server, () => ({ content: [], structuredContent: { sum: "five" } }));
    await expect(client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).rejects.toMatchObject({
      code: -32603,
      message: "tool add returned structuredContent that breaks its outputSchema at /sum: must be number, got string",
    });
    expect(serverWire.sent.filter((m) => "result" in m && (m.result as { structuredContent?: unknown }).structuredContent !== undefined)).toEqual([]);
  });

  it("turns a thrown error into a tool execution error, and passes an McpError through", async () => {
    const { client, server } = await connectPair();
    server.registerTool("boom", {}, () => {
      throw new Error("disk on fire");
    });
    server.registerTool("refuse", {}, () => {
      throw new R.McpError(-32001, "not you");
    });
    expect(await client.callTool({ name: "boom", arguments: {} })).toEqual({ content: [{ type: "text", text: "disk on fire" }], isError: true });
    await expect(client.callTool({ name: "refuse", arguments: {} })).rejects.toMatchObject({ code: -32001, message: "not you" });
  });

  it("validates with a Standard Schema's own validate and lists its JSON Schema view", async () => {
    const { client, server } = await connectPair();
    const seen: unknown[] = [];
    server.registerTool("greet", { inputSchema: z.object({ name: z.string().min(2) }) }, (args) => {
      seen.push(args.name.toUpperCase());
      return { content: [{ type: "text", text: `hi ${args.name}` }] };
    });
    const list = await client.listTools({});
    expect(list.tools[0]?.inputSchema).toMatchObject({ type: "object", properties: { name: { type: "string", minLength: 2 } }, required: ["name"] });
    expect(await client.callTool({ name: "greet", arguments: { name: "ann" } })).toEqual({ content: [{ type: "text", text: "hi ann" }] });
    const bad = await client.callTool({ name: "greet", arguments: { name: "a" } });
    expect(bad.isError).toBe(true);
    expect((bad.content[0] as { text: string }).text).toMatch(/^Invalid arguments for tool greet: \/name: /);
    expect(seen).toEqual(["ANN"]);
  });

  it("skips validation when told to (registrations.validate: false)", async () => {
    const { client, server } = await connectPair({ server: { registrations: { validate: false } } });
    const { calls } = withAdd(server);
    await client.callTool({ name: "add", arguments: { a: 1, b: -1 } });
    expect(calls).toEqual([{ a: 1, b: -1 }]);
  });

  it("pages the list with an opaque cursor, and refuses a bad cursor with -32602", async () => {
    const { client, server } = await connectPair({ server: { registrations: { pageSize: 2 } } });
    for (const name of ["a", "b", "c", "d", "e"]) server.registerTool(name, {}, () => ({ content: [] }));
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(names).toEqual(["a", "b", "c", "d", "e"]);
    expect(pages).toBe(3);
    await expect(client.listTools({ cursor: "not a cursor" })).rejects.toMatchObject({ code: -32602, message: "Invalid cursor" });
  });

  it("announces each burst of changes once: add, update, disable, enable, remove", async () => {
    const { client, server, serverWire } = await connectPair();
    const changed = () => serverWire.sent.filter((m) => "method" in m && m.method === "notifications/tools/list_changed").length;
    const { registered } = withAdd(server);
    server.registerTool("two", {}, () => ({ content: [] }));
    await settle();
    expect(changed()).toBe(1);
    registered.update({ description: "adds two numbers" });
    await settle();
    expect((await client.listTools({})).tools[0]?.description).toBe("adds two numbers");
    registered.disable();
    await settle();
    expect((await client.listTools({})).tools.map((t) => t.name)).toEqual(["two"]);
    await expect(client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).rejects.toMatchObject({ code: -32602 });
    registered.enable();
    await settle();
    registered.remove();
    await settle();
    expect(changed()).toBe(5);
    expect((await client.listTools({})).tools.map((t) => t.name)).toEqual(["two"]);
  });

  it("refuses a duplicate name, a root that is not an object, and a schema the validator refuses, at registration", () => {
    const server = new R.McpServer();
    withAdd(server);
    expect(() => withAdd(server)).toThrow('tools: "add" is already registered');
    expect(() => server.registerTool("s", { inputSchema: { type: "string" } }, () => ({ content: [] }))).toThrow(/root must be \{ type: "object" \}/);
    expect(() => server.registerTool("u", { inputSchema: { type: "object", unevaluatedProperties: false } }, () => ({ content: [] }))).toThrow(/unevaluatedProperties is not supported/);
    expect(() => server.registerTool("p", { inputSchema: { type: "object", properties: { x: { type: "string", pattern: "(?=a)" } } } }, () => ({ content: [] }))).toThrow(/lookaround/);
  });

  it("answers -32601 for tools/list while nothing is registered, and handlers of the user's win over the registry's", async () => {
    const { client } = await connectPair();
    await expect(client.listTools({})).rejects.toMatchObject({ code: -32601 });
    const own = await connectPair({ server: { handlers: { "tools/list": () => ({ tools: [] }) } } });
    withAdd(own.server);
    expect(await own.client.listTools({})).toEqual({ tools: [] });
  });
});

describe("the validation budget of tools/call (issue 41)", () => {
  it.each([
    ["a 4 MiB string against a pattern", { type: "object", properties: { s: { type: "string", pattern: "^(\\w+\\s?)*$" } } }, () => ({ s: `${"a".repeat(4 * 1024 * 1024)}!` })],
    [
      "20 patternProperties over 2,000 keys of 1 KiB",
      { type: "object", patternProperties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`(k|kk)+x${i}`, { type: "number" }])) },
      () => Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${"k".repeat(1024)}${i}`, i])),
    ],
  ] as const)("%s: -32602 validation budget exceeded (not a tool error), the handler never runs, < 50 ms of event-loop block", async (_what, inputSchema, args) => {
    const { client, server } = await connectPair();
    let ran = 0;
    server.registerTool("hostile", { inputSchema }, () => {
      ran++;
      return { content: [] };
    });
    const value = args();
    const { cpuMs, loopMs, result } = await loopBlockMs(() => client.callTool({ name: "hostile", arguments: value }).catch((error: unknown) => error));
    expect(result).toMatchObject({ code: -32602, message: expect.stringMatching(/^Invalid arguments for tool hostile: validation budget exceeded at /) });
    expect(ran).toBe(0);
    // The whole call's CPU time bounds its longest block; the loop's own delay is wall time, other processes' share included.
    expect(cpuMs).toBeLessThan(50);
    expect(loopMs).toBeLessThan(250);
  });
});
