/**
 * The README's "Serve over HTTP" block (```ts every-era-example), run as written against out/
 * (2025-11-25 and 2026-07-28, as test/prepare.mjs generates it): SDK v2 with default options
 * (a 2025-11-25 session) and pinned to 2026-07-28 (stateless) both list and call its tool.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { importCodeBlock } from "../../../helpers/readme-snippets.js";
import { within } from "../../../helpers/async.js";

interface Snippet {
  readonly server: { close(): Promise<void>; readonly served: readonly string[] };
  readonly handler: { close(): Promise<void> };
  readonly http: Server;
}

describe("README: Serve over HTTP (McpServers on one URL)", () => {
  it("SDK v2, default and pinned to 2026-07-28, list and call the tool registered once", async () => {
    const { server, handler, http } = await importCodeBlock<Snippet>("README.md", "every-era-example");
    // test/prepare.mjs generates these two; `npm run generate` (every revision) may have added more.
    expect(server.served).toEqual(expect.arrayContaining(["2026-07-28", "2025-11-25"]));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    try {
      for (const [options, version] of [[{}, "2025-11-25"], [{ versionNegotiation: { mode: { pin: "2026-07-28" } } }, "2026-07-28"]] as const) {
        const client = new Client({ name: "readme", version: "1.0.0" }, options);
        await within("connect", client.connect(new StreamableHTTPClientTransport(url)));
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["greet"]);
        expect(await client.callTool({ name: "greet", arguments: { name: "Ada" } })).toMatchObject({ content: [{ type: "text", text: "Hello, Ada!" }] });
        await client.close();
      }
    } finally {
      await handler.close();
      await server.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
