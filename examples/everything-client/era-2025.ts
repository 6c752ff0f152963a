// The conformance client scenarios of the session revisions (2025-11-25), on the generated
// 2025-11-25 McpClient over the Streamable HTTP session transport. Each runner plays what its
// scenario's server expects a client to do; the checks themselves are the suite's.
import {
  createSessionHttpClientTransport,
  McpClient,
  type ElicitRequestParams,
  type ElicitResult,
  type McpClientOptions,
  type SessionHttpClientTransportOptions,
} from "../../out/2025-11-25/index.js";
import { authExtensionScenarios, type PlayAuthorized } from "./auth-extensions.js";
import { AUTH_SCENARIOS_2025_03_26, AUTH_SCENARIOS_2026, conformanceAuth } from "./auth.js";
import type { ScenarioRunner, ScenarioTable } from "./scenario.js";

const CLIENT_INFO = { name: "mcp-stubgen-everything-client", version: "1.0.0" } as const;
/**
 * The version the client asks for in initialize: the one the suite names (a session revision its
 * scenario runs at: 2025-06-18 for initialize, tools_call and the token-endpoint ones), else 2025-11-25.
 */
const PROTOCOL_VERSION = ["2025-06-18", "2025-11-25"].find((v) => v === process.env["MCP_CONFORMANCE_PROTOCOL_VERSION"]) ?? "2025-11-25";

/** Bound of every request a scenario sends: a silent server fails the scenario, it does not hang it. */
const TIMEOUT_MS = 10_000;

/**
 * A 2025-11-25 McpClient connected to `url` over Streamable HTTP, with the session set up
 * (basic/lifecycle, Initialization: initialize, then notifications/initialized).
 */
async function connect(
  url: string,
  options: McpClientOptions,
  capabilities: Record<string, object>,
  transport: Omit<SessionHttpClientTransportOptions, "url"> = {},
): Promise<McpClient> {
  // Transport errors (a GET stream the server does not offer, say) are not the scenario's.
  const client = new McpClient({ logger: null, defaultTimeoutMs: TIMEOUT_MS, onError: () => {}, protocolVersion: PROTOCOL_VERSION, capabilities, clientInfo: CLIENT_INFO, ...options });
  // connect() performs the handshake (initialize, then notifications/initialized) and closes the transport when it fails.
  await client.connect(createSessionHttpClientTransport({ url, ...transport }));
  return client;
}

/** Runs `body` with a connected client and closes the client (ending the session) whatever happens. */
async function withClient(
  url: string,
  options: McpClientOptions,
  capabilities: Record<string, object>,
  body: (client: McpClient) => Promise<void>,
  transport: Omit<SessionHttpClientTransportOptions, "url"> = {},
): Promise<void> {
  const client = await connect(url, options, capabilities, transport);
  try {
    await body(client);
  } finally {
    await client.close();
  }
}

/** initialize: the handshake, then a tools/list. */
const initialize: ScenarioRunner = (url) =>
  withClient(url, {}, {}, async (client) => {
    await client.listTools({});
  });

/** tools_call: list the tools, call add_numbers. */
const toolsCall: ScenarioRunner = (url) =>
  withClient(url, {}, {}, async (client) => {
    const { tools } = await client.listTools({});
    if (!tools.some((t) => t.name === "add_numbers")) throw new Error("the server lists no add_numbers tool");
    await client.callTool({ name: "add_numbers", arguments: { a: 5, b: 3 } });
  });

/**
 * An accepted form elicitation whose content is the requested schema's defaults: what a user who
 * accepts without touching a field sends (client/elicitation, SEP-1034: the client applies the
 * `default` of each omitted field).
 */
function acceptDefaults(params: ElicitRequestParams): ElicitResult {
  const content: Record<string, string | number | boolean | string[]> = {};
  const properties = "requestedSchema" in params ? params.requestedSchema.properties : {};
  for (const [name, schema] of Object.entries(properties)) {
    const value = (schema as { default?: unknown }).default;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") content[name] = value;
    else if (Array.isArray(value) && value.every((v): v is string => typeof v === "string")) content[name] = value;
  }
  return { action: "accept", content };
}

/** elicitation-sep1034-client-defaults: call the tool; its elicitation is answered with the defaults. */
const elicitationDefaults: ScenarioRunner = (url) =>
  withClient(url, { handlers: { "elicitation/create": (params) => acceptDefaults(params) } }, { elicitation: { form: {} } }, async (client) => {
    const { tools } = await client.listTools({});
    const tool = tools.find((t) => t.name === "test_client_elicitation_defaults");
    if (tool === undefined) throw new Error("the server lists no test_client_elicitation_defaults tool");
    await client.callTool({ name: tool.name, arguments: {} });
  });

/**
 * sse-retry: the server closes the tools/call stream after a priming event (`id:`, `retry:`);
 * the transport reconnects with GET + Last-Event-ID after the retry time and gets the response
 * there.
 */
const sseRetry: ScenarioRunner = (url) =>
  withClient(url, {}, {}, async (client) => {
    const { tools } = await client.listTools({});
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: {} });
  });

/** The authorization extension scenarios (auth-extensions.ts): the same client, their provider and middleware. */
const playAuthorized: PlayAuthorized = (url, transport) =>
  withClient(
    url,
    {},
    {},
    async (client) => {
      const { tools } = await client.listTools({});
      if (tools.some((tool) => tool.name === "test-tool")) await client.callTool({ name: "test-tool", arguments: {} });
    },
    transport,
  );

/**
 * auth/*: every request goes through the OAuth flow of the `oauth` add-on (auth.ts): the first
 * 401 starts it, a 403 insufficient_scope steps up; then the tools are listed and test-tool
 * called (the suite's protected server checks the token on each).
 */
const authorized: ScenarioRunner = (url, context) => playAuthorized(url, conformanceAuth(context));

/** json-schema-2020-12-preservation: hand the focal tool's inputSchema, as listed, back through the echo tool. */
const schemaPreservation: ScenarioRunner = (url) =>
  withClient(url, {}, {}, async (client) => {
    const { tools } = await client.listTools({});
    const focal = tools.find((t) => t.name === "json_schema_2020_12_tool");
    if (focal === undefined) throw new Error("the server lists no json_schema_2020_12_tool");
    await client.callTool({ name: "json_schema_echo", arguments: { schema: focal.inputSchema } });
  });

/**
 * Every `auth/*` scenario name this client knows (the stable referee 0.1.16 announces 2025-11-25
 * for its 2025-03-26 and draft ones too): the flow is the same.
 */
const AUTH_ALL: readonly string[] = [...new Set<string>([...AUTH_SCENARIOS_2026, ...AUTH_SCENARIOS_2025_03_26])];

export const SCENARIOS: ScenarioTable = {
  ...Object.fromEntries(AUTH_ALL.map((name) => [name, authorized])),
  ...authExtensionScenarios(playAuthorized),
  "json-schema-2020-12-preservation": schemaPreservation,
  initialize,
  tools_call: toolsCall,
  "elicitation-sep1034-client-defaults": elicitationDefaults,
  "sse-retry": sseRetry,
};

/** The 2025-03-26 back-compat scenarios of the suite (no protected resource metadata): the same client and flow. */
export const SCENARIOS_2025_03_26: ScenarioTable = Object.fromEntries(AUTH_SCENARIOS_2025_03_26.map((name) => [name, authorized]));
