/**
 * McpServer answers the request that opens a conversation by default: initialize (2024-11-05 …
 * 2025-11-25: Lifecycle, Initialization) and server/discover (2026-07-28), with capabilities
 * derived from the registered handlers; a handler of the user's wins. Checked at the wire level.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import * as S from "../../../generated/2026-07-28/index.js";
import * as Old from "../../../generated/2024-11-05/index.js";
import { INITIALIZE_PARAMS, serverWithRawPeer, settle } from "../../../helpers/harness.js";

const DEFAULT_INFO = { name: "mcp-server", version: "0.0.0" };

async function initializeOn(options: R.McpServerOptions, params: object = INITIALIZE_PARAMS) {
  const { peer } = await serverWithRawPeer(options);
  await peer.send({ jsonrpc: "2.0", id: 1, method: "initialize", params });
  await settle();
  return peer.received;
}

describe("2025-11-25: default initialize", () => {
  it("a server with no handlers answers with the revision, empty capabilities and the default serverInfo", async () => {
    expect(await initializeOn({})).toEqual([
      { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: DEFAULT_INFO } },
    ]);
  });

  it("capabilities follow the handlers; serverInfo and instructions come from the options", async () => {
    const received = await initializeOn({
      serverInfo: { name: "files", version: "3.1.0" },
      instructions: "Use search first.",
      handlers: {
        "tools/call": () => ({ content: [] }),
        "resources/read": () => ({ contents: [] }),
        "resources/subscribe": () => ({}),
        "prompts/list": () => ({ prompts: [] }),
        "logging/setLevel": () => ({}),
        "completion/complete": () => ({ completion: { values: [] } }),
        "tasks/list": () => ({ tasks: [] }),
      },
    });
    expect(received).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {}, tasks: { list: {} } },
          serverInfo: { name: "files", version: "3.1.0" },
          instructions: "Use search first.",
        },
      },
    ]);
  });

  it("explicit capabilities replace the derived ones", async () => {
    const received = await initializeOn({ capabilities: { tools: { listChanged: true } }, handlers: { "prompts/get": () => ({ messages: [] }) } });
    expect(received[0]).toMatchObject({ result: { capabilities: { tools: { listChanged: true } } } });
  });

  it.each([
    ["a version it speaks is echoed", ["2025-11-25", "2025-06-18"], "2025-06-18", "2025-06-18"],
    ["an unknown version gets its newest", ["2025-11-25", "2025-06-18"], "1999-01-01", "2025-11-25"],
  ])("version negotiation: %s", async (_name, protocolVersions, requested, answered) => {
    const received = await initializeOn(protocolVersions === undefined ? {} : { protocolVersions }, { ...INITIALIZE_PARAMS, protocolVersion: requested });
    expect(received[0]).toMatchObject({ result: { protocolVersion: answered } });
  });

  it("version negotiation: a missing version is refused before the default handler runs (InitializeRequestParams requires it); with validation off, it gets the newest", async () => {
    const refused = await initializeOn({}, { ...INITIALIZE_PARAMS, protocolVersion: undefined });
    expect(refused[0]).toMatchObject({ error: { code: -32602, data: { pointer: "/protocolVersion", expected: "a string (required)" } } });
    const lenient = await initializeOn({ validate: false }, { ...INITIALIZE_PARAMS, protocolVersion: undefined });
    expect(lenient[0]).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  });

  it("a user initialize handler wins", async () => {
    const received = await initializeOn({
      handlers: { initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { logging: {} }, serverInfo: { name: "mine", version: "1" } }) },
    });
    expect(received).toEqual([
      { jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25", capabilities: { logging: {} }, serverInfo: { name: "mine", version: "1" } } },
    ]);
  });

  it("the typed client gets the result through initialize()", async () => {
    const [a, b] = R.createInMemoryTransportPair();
    const server = new R.McpServer({ logger: null, serverInfo: { name: "s", version: "1" }, handlers: { "tools/list": () => ({ tools: [] }) } });
    const client = new R.McpClient({ logger: null });
    await server.connect(b);
    await client.connect(a, { initialize: false });
    await expect(client.initialize(INITIALIZE_PARAMS)).resolves.toEqual({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "s", version: "1" } });
    expect(R.deriveServerCapabilities({ "tools/call": () => ({}), toString: "not a function" })).toEqual({ tools: {} });
  });
});

describe("2024-11-05: only the capabilities that revision declares", () => {
  it("completion/complete does not declare `completions` (not in its ServerCapabilities)", () => {
    expect(Old.deriveServerCapabilities({ "completion/complete": () => ({}), "tools/list": () => ({}) })).toEqual({ tools: {} });
  });
});

describe("2026-07-28: default server/discover", () => {
  it("answers with the versions, derived capabilities and serverInfo in _meta", async () => {
    const [a, b] = S.createInMemoryTransportPair();
    const server = new S.McpServer({
      logger: null,
      serverInfo: { name: "files", version: "3" },
      handlers: { "tools/call": () => ({ resultType: "complete", content: [] }) },
    });
    const client = new S.McpClient({ logger: null });
    await server.connect(b);
    await client.connect(a, { initialize: false });
    await expect(client.discover()).resolves.toEqual({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {} },
      cacheScope: "public",
      ttlMs: 0,
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "files", version: "3" } },
    });
  });
});
