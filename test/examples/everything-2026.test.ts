/**
 * The everything-server's eras on one URL over real HTTP: a 2025-11-25 session and 2026-07-28
 * requests side by side. Which request goes where is the runtime's createEraRouter
 * (test/runtime/http/server/era-router/, where the rules of examples/everything-2026/era.ts moved).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC_META } from "../helpers/fixtures.js";
import { startEverythingServer, type RunningEverythingServer } from "../helpers/everything-server.js";

const META = BASIC_META;

// ---------------------------------------------------------------------------------------------
// Over HTTP: the everything-server serves a 2025-11-25 session and 2026-07-28 requests on /mcp.

let server: RunningEverythingServer | undefined;
let url = "";

beforeAll(async () => {
  server = await startEverythingServer();
  url = server.url;
});

afterAll(async () => {
  await server?.stop();
});

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly sessionId: string | null;
  /** The JSON-RPC messages of the body: the JSON object, or every SSE data line in order. */
  readonly messages: unknown[];
}

async function send(headers: Record<string, string>, body: object): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
  const contentType = response.headers.get("content-type");
  const text = await response.text();
  const messages = contentType?.startsWith("text/event-stream")
    ? [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!) as unknown)
    : text === ""
      ? []
      : [JSON.parse(text) as unknown];
  return { status: response.status, contentType, sessionId: response.headers.get("mcp-session-id"), messages };
}

/** A 2026-07-28 request: the version header, Mcp-Method, Mcp-Name where the method has one, and _meta. */
function modern(id: number, method: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}): Promise<Answer> {
  const name = typeof params["name"] === "string" ? params["name"] : typeof params["uri"] === "string" ? params["uri"] : undefined;
  return send(
    { "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) },
    { jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...META, ...meta } } },
  );
}

const SERVER_INFO_META = { "io.modelcontextprotocol/serverInfo": { name: "mcp-stubgen-everything", version: "0.1.0" } };
const SIMPLE_TEXT = [{ type: "text", text: "This is a simple text response for testing." }];

describe("everything-server: 2025-11-25 sessions and 2026-07-28 requests on one URL", () => {
  it("answers a 2026-07-28 request between the requests of a 2025-11-25 session, each in its own era", async () => {
    const init = await send(
      {},
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } },
    );
    expect(init.status).toBe(200);
    const sessionId = init.sessionId!;
    expect(sessionId).toEqual(expect.any(String));
    expect(init.messages).toEqual([
      expect.objectContaining({ jsonrpc: "2.0", id: 1, result: expect.objectContaining({ protocolVersion: "2025-11-25" }) }),
    ]);
    const legacy = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    expect((await send(legacy, { jsonrpc: "2.0", method: "notifications/initialized" })).status).toBe(202);

    // The same request id as the session's next one: a 2026-07-28 request is its own connection.
    const answer = await modern(2, "tools/call", { name: "test_simple_text" });
    expect(answer).toEqual({
      status: 200,
      contentType: "application/json",
      sessionId: null,
      messages: [{ jsonrpc: "2.0", id: 2, result: { resultType: "complete", content: SIMPLE_TEXT, _meta: SERVER_INFO_META } }],
    });

    const inSession = await send(legacy, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "test_simple_text" } });
    expect(inSession.status).toBe(200);
    expect(inSession.messages).toEqual([{ jsonrpc: "2.0", id: 2, result: { content: SIMPLE_TEXT } }]);

    // server/discover names this revision only and declares the Tasks and Skills extensions; the lists carry caching hints.
    const discover = await modern(3, "server/discover", {});
    expect(discover.messages).toEqual([
      {
        jsonrpc: "2.0",
        id: 3,
        result: expect.objectContaining({
          resultType: "complete",
          supportedVersions: ["2026-07-28"],
          capabilities: {
            tools: { listChanged: true },
            resources: {},
            prompts: { listChanged: true },
            completions: {},
            logging: {},
            extensions: { "io.modelcontextprotocol/tasks": {}, "io.modelcontextprotocol/skills": { directoryRead: true } },
          },
          _meta: SERVER_INFO_META,
        }),
      },
    ]);
    const prompts = await modern(4, "prompts/list", {});
    expect(prompts.messages).toEqual([
      { jsonrpc: "2.0", id: 4, result: expect.objectContaining({ resultType: "complete", ttlMs: 60_000, cacheScope: "public" }) },
    ]);
  });

  it("gives a 2026-07-28 request that era's errors: initialize is an unknown method, an unknown resource is -32602 with its URI", async () => {
    const initialize = await modern(5, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } });
    expect(initialize.status).toBe(404);
    expect(initialize.messages).toEqual([{ jsonrpc: "2.0", id: 5, error: { code: -32601, message: expect.any(String) } }]);

    // A body that is not JSON, under a 2026-07-28 header: the runtime's own Parse error (no id to echo).
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" },
      body: "{not json",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" } });

    const missing = await modern(6, "resources/read", { uri: "test://missing" });
    expect(missing.messages).toEqual([
      { jsonrpc: "2.0", id: 6, error: { code: -32602, message: "Resource not found: test://missing", data: { uri: "test://missing" } } },
    ]);
  });

  it("logs for a 2026-07-28 request only when its _meta asks, at or above the level asked for", async () => {
    const done = { resultType: "complete", content: [{ type: "text", text: "Logged one info message (sent only when the request set io.modelcontextprotocol/logLevel)." }], _meta: SERVER_INFO_META };
    const silent = await modern(7, "tools/call", { name: "test_logging_tool" });
    expect(silent.messages).toEqual([{ jsonrpc: "2.0", id: 7, result: done }]);
    const above = await modern(8, "tools/call", { name: "test_logging_tool" }, { "io.modelcontextprotocol/logLevel": "warning" });
    expect(above.messages).toEqual([{ jsonrpc: "2.0", id: 8, result: done }]);
    const logged = await modern(9, "tools/call", { name: "test_logging_tool" }, { "io.modelcontextprotocol/logLevel": "debug" });
    expect(logged.contentType).toBe("text/event-stream");
    expect(logged.messages).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "everything", data: "test_logging_tool ran" } },
      { jsonrpc: "2.0", id: 9, result: done },
    ]);
  });

  it("asks for input with an InputRequiredResult and completes on the retry that carries the answer (multi round-trip requests)", async () => {
    const elicitation = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    // A client that cannot be asked is refused: MissingRequiredClientCapabilityError, HTTP 400.
    const refused = await modern(9, "tools/call", { name: "test_input_required_result_elicitation", arguments: {} });
    expect(refused.status).toBe(400);
    expect(refused.messages).toEqual([
      { jsonrpc: "2.0", id: 9, error: { code: -32021, message: expect.any(String), data: { requiredCapabilities: { elicitation: {} } } } },
    ]);
    const ask = await modern(10, "tools/call", { name: "test_input_required_result_elicitation", arguments: {} }, elicitation);
    expect(ask.status).toBe(200);
    expect(ask.messages).toEqual([
      {
        jsonrpc: "2.0",
        id: 10,
        result: {
          resultType: "input_required",
          inputRequests: {
            user_name: {
              method: "elicitation/create",
              params: { message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
            },
          },
          _meta: SERVER_INFO_META,
        },
      },
    ]);
    const retry = await modern(11, "tools/call", {
      name: "test_input_required_result_elicitation",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
    }, elicitation);
    expect(retry.messages).toEqual([
      { jsonrpc: "2.0", id: 11, result: { resultType: "complete", content: [{ type: "text", text: "Hello, Alice!" }], _meta: SERVER_INFO_META } },
    ]);
  });
});
