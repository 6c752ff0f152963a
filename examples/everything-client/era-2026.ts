// The conformance client scenarios of the stateless revision (2026-07-28), on the generated
// 2026-07-28 McpClient over the Streamable HTTP client transport. Each runner plays what its
// scenario's server expects a client to do; the checks themselves are the suite's.
import {
  createHttpClientTransport,
  McpClient,
  type HttpClientTransportOptions,
  type McpClientOptions,
} from "../../out/2026-07-28/index.js";
import { authExtensionScenarios, type PlayAuthorized } from "./auth-extensions.js";
import { AUTH_SCENARIOS_2026, conformanceAuth } from "./auth.js";
import type { ScenarioContext, ScenarioRunner, ScenarioTable } from "./scenario.js";
import { skillsScenarios } from "./skills.js";

const CLIENT_INFO = { name: "mcp-stubgen-everything-client", version: "1.0.0" } as const;

/** Bound of every request a scenario sends: a silent server fails the scenario, it does not hang it. */
const TIMEOUT_MS = 10_000;

/**
 * A 2026-07-28 McpClient connected to `url` over Streamable HTTP (no session). `handshake`:
 * connect()'s own server/discover (asked again when refused with -32022); otherwise the client
 * only attaches, as most scenario servers expect no discovery.
 */
async function connect(url: string, options: McpClientOptions = {}, transport: Omit<HttpClientTransportOptions, "url"> = {}, handshake = false): Promise<McpClient> {
  const client = new McpClient({ clientInfo: CLIENT_INFO, logger: null, defaultTimeoutMs: TIMEOUT_MS, ...options });
  await client.connect(createHttpClientTransport({ url, ...transport }), { initialize: handshake });
  return client;
}

/** Runs `body` with a connected client (`handshake`: as connect()'s) and closes the client whatever happens. */
async function withClient(
  url: string,
  options: McpClientOptions,
  body: (client: McpClient) => Promise<void>,
  transport: Omit<HttpClientTransportOptions, "url"> = {},
  handshake = false,
): Promise<void> {
  const client = await connect(url, options, transport, handshake);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** The tool calls the suite asks for in MCP_CONFORMANCE_CONTEXT (`toolCalls`), checked. */
function toolCalls(context: ScenarioContext): Array<{ name: string; arguments: Record<string, unknown> }> {
  const calls = context["toolCalls"];
  if (calls === undefined) return [];
  if (!Array.isArray(calls)) throw new Error("MCP_CONFORMANCE_CONTEXT.toolCalls is not an array");
  return calls.map((call: unknown, i) => {
    const c = call as { name?: unknown; arguments?: unknown } | null;
    if (typeof c?.name !== "string") throw new Error(`toolCalls[${i}].name is not a string`);
    const args = c.arguments ?? {};
    if (typeof args !== "object" || args === null || Array.isArray(args)) throw new Error(`toolCalls[${i}].arguments is not an object`);
    return { name: c.name, arguments: args as Record<string, unknown> };
  });
}

/** tools_call: list the tools, call add_numbers. */
const toolsCall: ScenarioRunner = (url) =>
  withClient(url, {}, async (client) => {
    const { tools } = await client.listTools({});
    if (!tools.some((t) => t.name === "add_numbers")) throw new Error("the server lists no add_numbers tool");
    await client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } });
  });

/**
 * request-metadata: every request carries MCP-Protocol-Version and the `_meta` fields (the
 * McpClient does that); connect()'s server/discover is refused with -32022 and connect() asks again.
 */
const requestMetadata: ScenarioRunner = (url) =>
  withClient(
    url,
    { capabilities: { roots: {}, sampling: {}, elicitation: {} } },
    async (client) => {
      await client.listTools({});
    },
    {},
    true,
  );

/** sep-2322-client-request-state: input requests answered by the elicitation handler, state echoed. */
const mrtrRequestState: ScenarioRunner = (url) =>
  withClient(
    url,
    {
      capabilities: { elicitation: {} },
      handlers: { "elicitation/create": () => ({ action: "accept", content: { confirmed: true } }) },
    },
    async (client) => {
      for (const name of ["test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"]) {
        await client.callTool({ name, arguments: {} });
      }
    },
  );

/** http-standard-headers: one request of each kind, on every tool, resource and prompt listed. */
const standardHeaders: ScenarioRunner = (url) =>
  withClient(url, {}, async (client) => {
    const { tools } = await client.listTools({});
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
    const { resources } = await client.listResources({});
    for (const resource of resources) await client.readResource({ uri: resource.uri });
    const { prompts } = await client.listPrompts({});
    for (const prompt of prompts) await client.getPrompt({ name: prompt.name, arguments: {} });
  });

/** http-custom-headers: list the tools (learning their x-mcp-header annotations), make the calls asked for. */
const customHeaders: ScenarioRunner = (url, context) =>
  withClient(url, {}, async (client) => {
    await client.listTools({});
    for (const call of toolCalls(context)) await client.callTool(call);
  });

/**
 * http-invalid-tool-headers: tools/list drops the tools whose annotations are invalid; call every
 * tool that is left (only valid_tool must be).
 */
const invalidToolHeaders: ScenarioRunner = (url) =>
  withClient(url, {}, async (client) => {
    const { tools } = await client.listTools({});
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: { region: "us-west1" } });
  });

/** json-schema-ref-no-deref: list the tools; the client never fetches a `$ref` (it resolves no schema at all). */
const refNoDeref: ScenarioRunner = (url) =>
  withClient(url, {}, async (client) => {
    await client.listTools({});
  });

/** json-schema-2020-12-preservation: hand the focal tool's inputSchema, as listed, back through the echo tool. */
const schemaPreservation: ScenarioRunner = (url) =>
  withClient(url, {}, async (client) => {
    const { tools } = await client.listTools({});
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (focal === undefined) throw new Error("the server lists no json_schema_2020_12_tool");
    await client.callTool({ name: "json_schema_echo", arguments: { schema: focal.inputSchema } });
  });

/** The authorization scenarios: the tools listed and test-tool called, over `transport`'s provider (and middleware). */
const playAuthorized: PlayAuthorized = (url, transport) =>
  withClient(
    url,
    {},
    async (client) => {
      const { tools } = await client.listTools({});
      if (tools.some((tool) => tool.name === "test-tool")) await client.callTool({ name: "test-tool", arguments: {} });
    },
    transport,
  );

/**
 * auth/*: the OAuth flow of the `oauth` add-on (auth.ts) on the first 401 and on a 403
 * insufficient_scope; then the tools are listed and test-tool called.
 */
const authorized: ScenarioRunner = (url, context) => playAuthorized(url, conformanceAuth(context));

export const SCENARIOS: ScenarioTable = {
  ...authExtensionScenarios(playAuthorized),
  ...Object.fromEntries(AUTH_SCENARIOS_2026.map((name) => [name, authorized])),
  tools_call: toolsCall,
  "request-metadata": requestMetadata,
  "sep-2322-client-request-state": mrtrRequestState,
  "http-standard-headers": standardHeaders,
  "http-custom-headers": customHeaders,
  "http-invalid-tool-headers": invalidToolHeaders,
  "json-schema-ref-no-deref": refNoDeref,
  "json-schema-2020-12-preservation": schemaPreservation,
};

/**
 * The extension scenarios played on this revision whatever version the suite names (it runs them
 * off the spec timeline, so MCP_CONFORMANCE_PROTOCOL_VERSION says its default): the Skills
 * extension's base revision is 2026-07-28 (SEP-2640, Protocol Revision).
 */
export const EXTENSION_SCENARIOS: ScenarioTable = skillsScenarios(withClient);
