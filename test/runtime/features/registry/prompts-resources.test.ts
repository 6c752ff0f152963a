/**
 * Prompts, resources, resource templates and completion registered on the generated 2025-11-25
 * server, on the wire: lists, get/read, required and schema-checked prompt arguments (-32602),
 * template variables, resource not found (-32002), subscribe and resourceUpdated, completion of
 * prompt arguments and template variables (at most 100 values), capabilities declared.
 */
import { describe, expect, it } from "vitest";
import { connectPair, settle } from "../../../helpers/harness.js";
import { INITIALIZE_PARAMS } from "../../../helpers/fixtures.js";
import type * as R from "../../../generated/2025-11-25/index.js";

const text = (t: string) => ({ role: "user" as const, content: { type: "text" as const, text: t } });

function register(server: R.McpServer) {
  const reads: Array<[string, Readonly<Record<string, string>>]> = [];
  server.registerPrompt(
    "review",
    {
      description: "review code",
      argsSchema: { type: "object", properties: { code: { type: "string", description: "the code" }, style: { type: "string", enum: ["terse", "long"] } }, required: ["code"] },
      complete: { style: (value) => ["terse", "long"].filter((s) => s.startsWith(value)) },
    },
    (args) => ({ messages: [text(`review (${args.style ?? "any"}): ${args.code}`)] }),
  );
  server.registerResource("readme", "file:///readme.md", { mimeType: "text/markdown" }, (uri) => ({ contents: [{ uri, text: "# hi" }] }));
  server.registerResourceTemplate(
    "user",
    "users://{id}/profile",
    { description: "a user", complete: { id: (value) => Array.from({ length: 150 }, (_, i) => `${value}${i}`) } },
    (uri, variables) => {
      reads.push([uri, variables]);
      return { contents: [{ uri, text: `user ${variables["id"]}` }] };
    },
  );
  return { reads };
}

describe("registered prompts, resources and completion (2025-11-25)", () => {
  it("declares prompts, resources (listChanged, subscribe) and completions", async () => {
    const { client, server } = await connectPair();
    register(server);
    const init = await client.initialize(INITIALIZE_PARAMS);
    expect(init.capabilities).toEqual({ prompts: { listChanged: true }, resources: { listChanged: true, subscribe: true }, completions: {} });
  });

  it("lists a prompt's arguments from its schema, gets it with validated arguments, refuses missing and bad ones with -32602", async () => {
    const { client, server } = await connectPair();
    register(server);
    expect((await client.listPrompts({})).prompts).toEqual([
      { name: "review", description: "review code", arguments: [{ name: "code", description: "the code", required: true }, { name: "style" }] },
    ]);
    expect(await client.getPrompt({ name: "review", arguments: { code: "x=1", style: "terse" } })).toEqual({ messages: [text("review (terse): x=1")] });
    await expect(client.getPrompt({ name: "review", arguments: {} })).rejects.toMatchObject({ code: -32602, message: 'prompt review: missing required argument "code"' });
    await expect(client.getPrompt({ name: "review", arguments: { code: "x", style: "loud" } })).rejects.toMatchObject({
      code: -32602,
      message: 'Invalid arguments for prompt review: /style: must be one of ["terse","long"]',
      data: { pointer: "/style" },
    });
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602, message: "Unknown prompt: nope" });
  });

  it("reads a fixed resource and a template's with its variables; an unknown URI is -32002", async () => {
    const { client, server } = await connectPair();
    const { reads } = register(server);
    expect((await client.listResources({})).resources).toEqual([{ name: "readme", uri: "file:///readme.md", mimeType: "text/markdown" }]);
    expect((await client.listResourceTemplates({})).resourceTemplates).toEqual([{ name: "user", uriTemplate: "users://{id}/profile", description: "a user" }]);
    expect(await client.readResource({ uri: "file:///readme.md" })).toEqual({ contents: [{ uri: "file:///readme.md", text: "# hi" }] });
    expect(await client.readResource({ uri: "users://a%20b/profile" })).toEqual({ contents: [{ uri: "users://a%20b/profile", text: "user a b" }] });
    expect(reads).toEqual([["users://a%20b/profile", { id: "a b" }]]);
    // A {name} variable takes no "/": this URI matches nothing.
    await expect(client.readResource({ uri: "users://a/b/profile" })).rejects.toMatchObject({ code: -32002, message: "Resource not found: users://a/b/profile" });
  });

  it("sends notifications/resources/updated to a subscribed client only", async () => {
    const { client, server, serverWire } = await connectPair();
    register(server);
    const updates = () => serverWire.sent.filter((m) => "method" in m && m.method === "notifications/resources/updated").map((m) => ("params" in m ? m.params : undefined));
    server.resourceUpdated("file:///readme.md");
    await settle();
    expect(updates()).toEqual([]);
    await client.subscribe({ uri: "file:///readme.md" });
    server.resourceUpdated("file:///readme.md");
    await settle();
    expect(updates()).toEqual([{ uri: "file:///readme.md" }]);
    await client.unsubscribe({ uri: "file:///readme.md" });
    server.resourceUpdated("file:///readme.md");
    await settle();
    expect(updates()).toHaveLength(1);
  });

  it("completes prompt arguments and template variables, at most 100 values with total and hasMore", async () => {
    const { client, server } = await connectPair();
    register(server);
    expect(await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "style", value: "t" } })).toEqual({
      completion: { values: ["terse"], total: 1, hasMore: false },
    });
    const many = await client.complete({ ref: { type: "ref/resource", uri: "users://{id}/profile" }, argument: { name: "id", value: "u" } });
    expect(many.completion.values).toHaveLength(100);
    expect(many.completion).toMatchObject({ total: 150, hasMore: true });
    expect(await client.complete({ ref: { type: "ref/prompt", name: "review" }, argument: { name: "code", value: "" } })).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    await expect(client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "a", value: "" } })).rejects.toMatchObject({ code: -32602 });
  });

  it("announces prompt and resource list changes", async () => {
    const { server, serverWire } = await connectPair();
    register(server);
    await settle();
    const methods = serverWire.sent.flatMap((m) => ("method" in m ? [m.method] : []));
    expect(methods).toEqual(["notifications/prompts/list_changed", "notifications/resources/list_changed"]);
  });

  it("refuses URI templates it cannot match in one scan, and a second resource at the same URI", async () => {
    const { server } = await connectPair();
    const read = (uri: string) => ({ contents: [{ uri, text: "" }] });
    expect(() => server.registerResourceTemplate("a", "x://{a}{b}", {}, read)).toThrow(/two variables must be separated by literal text/);
    expect(() => server.registerResourceTemplate("q", "x://{?query}", {}, read)).toThrow(/only \{name\} and \{\+name\}/);
    expect(() => server.registerResourceTemplate("u", "x://{open", {}, read)).toThrow(/an unclosed \{/);
    server.registerResource("one", "x://one", {}, read);
    expect(() => server.registerResource("two", "x://one", {}, read)).toThrow('resources: "x://one" is already registered');
  });
});
