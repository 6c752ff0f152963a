/**
 * A resource template's `list` callback (TemplateConfig.list, features/registry-requests.ts
 * listResources), against the official SDK 1.x Client over session HTTP on loopback: the
 * template's resources come after the fixed ones in resources/list, with the template's listed
 * fields under their own; the callback is asked on every list (its answer changes without a
 * registration changing) and gets the request's ctx; pages across both (pageSize); a disabled
 * template lists none; update() swaps the callback; a malformed answer is an error naming the template.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import * as Sessions from "../generated/2025-11-25/index.js";
import { listen } from "../helpers/faces.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function serve(pageSize?: number) {
  const server = new Sessions.McpServer({ serverInfo: { name: "ours", version: "1.0.0" }, logger: null, ...(pageSize === undefined ? {} : { registrations: { pageSize } }) });
  const handler = Sessions.createSessionHttpHandler(server);
  const served = await listen("native", handler);
  closers.push(() => served.close(), () => handler.close());
  const client = new Client({ name: "sdk-client", version: "1.0.0" });
  return {
    server,
    client,
    connect: async () => {
      await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
      closers.push(() => client.close());
    },
  };
}

const read = (uri: string) => ({ contents: [{ uri, text: uri }] });

describe("resource templates with a list callback", () => {
  it("lists the template's resources after the fixed ones, asked anew on every resources/list, with the request's ctx", async () => {
    const { server, client, connect } = await serve();
    let users = ["ada", "bob"];
    const methods: string[] = [];
    server.registerResource("readme", "file:///readme.md", { mimeType: "text/markdown" }, read);
    server.registerResourceTemplate(
      "user",
      "users://{id}/profile",
      {
        description: "a user",
        mimeType: "application/json",
        list: (ctx) => {
          methods.push(ctx.method);
          return { resources: users.map((id) => ({ uri: `users://${id}/profile`, name: id, ...(id === "ada" ? { description: "the first" } : {}) })) };
        },
      },
      read,
    );
    await connect();
    expect((await client.listResources()).resources).toEqual([
      { name: "readme", uri: "file:///readme.md", mimeType: "text/markdown" },
      { uri: "users://ada/profile", name: "ada", description: "the first", mimeType: "application/json" },
      { uri: "users://bob/profile", name: "bob", description: "a user", mimeType: "application/json" },
    ]);
    users = ["cy"];
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(["readme", "cy"]);
    expect(methods).toEqual(["resources/list", "resources/list"]);
    // the template itself is still listed by resources/templates/list, without its callback
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([{ name: "user", uriTemplate: "users://{id}/profile", description: "a user", mimeType: "application/json" }]);
    // and a listed resource reads through the template
    expect(await client.readResource({ uri: "users://cy/profile" })).toEqual({ contents: [{ uri: "users://cy/profile", text: "users://cy/profile" }] });
  });

  it("pages across fixed and listed resources; a disabled template lists none; update() swaps the callback", async () => {
    const { server, client, connect } = await serve(2);
    server.registerResource("a", "file:///a", {}, read);
    const template = server.registerResourceTemplate("n", "n://{i}", { list: () => ({ resources: [1, 2, 3].map((i) => ({ uri: `n://${i}`, name: `n${i}` })) }) }, read);
    await connect();
    const first = await client.listResources();
    expect(first.resources.map((r) => r.name)).toEqual(["a", "n1"]);
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.resources.map((r) => r.name)).toEqual(["n2", "n3"]);
    expect(second.nextCursor).toBeUndefined();
    template.disable();
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(["a"]);
    template.enable();
    template.update({ list: async () => ({ resources: [{ uri: "n://9", name: "n9" }] }) });
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(["a", "n9"]);
  });

  it("answers a malformed list with an error naming the template; refuses a list that is not a function", async () => {
    const { server, client, connect } = await serve();
    server.registerResourceTemplate("broken", "b://{x}", { list: () => ({ resources: [{ uri: "b://1" }] }) as never }, read);
    expect(() => server.registerResourceTemplate("odd", "o://{x}", { list: "nope" as never }, read)).toThrow(new TypeError('resource template "odd": list must be a function'));
    await connect();
    await expect(client.listResources()).rejects.toThrow('resource template "broken": a listed resource needs a string uri and name');
  });
});
