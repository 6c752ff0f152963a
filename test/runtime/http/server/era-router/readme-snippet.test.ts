/**
 * The first block of docs/one-endpoint.md (`one-endpoint-example`), run as written
 * (test/helpers/readme-snippets.ts) and served as its comment says on a free loopback port, on
 * both faces of its router (test/helpers/faces.ts): the SDK v2 client with no options gets a
 * 2025-11-25 session, pinned to 2026-07-28 it is served statelessly, and the SDK 1.32 HTTP+SSE
 * client connects at /sse; all see the block's tool. The block also type-checks under the
 * strictest options users vendor the output with.
 */
import { join } from "node:path";
import { Client as SdkV2Client, StreamableHTTPClientTransport as SdkV2Http } from "@modelcontextprotocol/client";
import { Client as SdkV1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../../../../generator/project.js";
import { within } from "../../../../helpers/async.js";
import { describeFaces, listen, type Listening } from "../../../../helpers/faces.js";
import { importCodeBlock } from "../../../../helpers/readme-snippets.js";
import { typecheckFiles } from "../../../../helpers/typecheck.js";
import type { R25 } from "./support.js";

interface Block {
  readonly router: R25.ServedHandler;
}

const INFO = { name: "docs-client", version: "1.0.0" };

describeFaces("docs/one-endpoint.md, one-endpoint-example", (face) => {
  let served: Listening;
  let origin = "";
  beforeAll(async () => {
    const block = await importCodeBlock<Block>("docs/one-endpoint.md", "one-endpoint-example");
    // As the block's comment says: node:http, through toNodeListener (on the web face: its bridge).
    served = await listen(face, block.router);
    origin = served.origin;
  });
  afterAll(async () => {
    await served.close();
  });

  it("SDK v2 with no options: a 2025-11-25 session; pinned to 2026-07-28: the stateless server", async () => {
    const legacy = new SdkV2Client(INFO);
    await within("connect", legacy.connect(new SdkV2Http(new URL(`${origin}/mcp`))));
    expect(legacy.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect((await legacy.listTools()).tools.map((t) => t.name)).toEqual(["hello"]);
    await legacy.close();

    const modern = new SdkV2Client(INFO, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await within("connect", modern.connect(new SdkV2Http(new URL(`${origin}/mcp`))));
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect((await modern.listTools()).tools.map((t) => t.name)).toEqual(["hello"]);
    await modern.close();
  });

  it("SDK 1.32 over HTTP+SSE at /sse", async () => {
    const client = new SdkV1Client(INFO);
    await within("connect", client.connect(new SSEClientTransport(new URL(`${origin}/sse`))));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["hello"]);
    await client.close();
  });
});

describe("docs/one-endpoint.md, one-endpoint-example as code", () => {
  it("type-checks under the strictest options", async () => {
    await importCodeBlock<Block>("docs/one-endpoint.md", "one-endpoint-example");
    expect(typecheckFiles([join(PACKAGE_ROOT, "out", "readme-snippets", "one-endpoint-example.ts")])).toEqual([]);
  });
});
