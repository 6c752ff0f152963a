/**
 * Support of the MRTR tests: a 2026-07-28 server whose handlers follow the input-required-result
 * conformance scenarios (written with ctx.input), and a raw client on the in-memory transport
 * that sends exact JSON and reads the exact responses.
 */
import * as R from "../../../generated/2026-07-28/index.js";
import type * as T from "../../../generated/2026-07-28/index.js";
import { META_KEYS, requestMeta } from "../../../helpers/fixtures.js";

export const KEY = "a test key of thirty-two bytes or more!";
export const CAPS_KEY = META_KEYS.clientCapabilities;

/** Every optional input capability: what the conformance client declares by default. */
export const ALL_CAPS = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

export const meta = (capabilities: object = ALL_CAPS) => requestMeta({ capabilities });

/** An elicitation of one string field. */
export const askString = (message: string, field: string) =>
  ({
    method: "elicitation/create",
    params: { message, requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] } },
  }) satisfies T.InputRequest;

const text = (t: string): T.CallToolResult => ({ resultType: "complete", content: [{ type: "text", text: t }] });

/** The tools of the scenarios, by name (each the `tools/call` handler body for that name). */
export const tools: Record<string, NonNullable<NonNullable<R.McpServerOptions["handlers"]>["tools/call"]>> = {
  test_input_required_result_elicitation: async (_params, ctx) => {
    const ask = { user_name: askString("What is your name?", "name") };
    const got = ctx.input.responses(ask);
    if (got === undefined) return ctx.input.required(ask);
    return text(`Hello, ${String(got.user_name.content?.["name"])}!`);
  },
  test_input_required_result_sampling: async (_params, ctx) => {
    const ask = {
      capital_question: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }], maxTokens: 100 },
      },
    } satisfies T.InputRequests;
    const got = ctx.input.responses(ask);
    if (got === undefined) return ctx.input.required(ask);
    const content = got.capital_question.content;
    return text(`Sampling response: ${!Array.isArray(content) && content.type === "text" ? content.text : "?"}`);
  },
  test_input_required_result_list_roots: async (_params, ctx) => {
    const ask = { client_roots: { method: "roots/list", params: {} } } satisfies T.InputRequests;
    const got = ctx.input.responses(ask);
    if (got === undefined) return ctx.input.required(ask);
    return text(`Roots: ${got.client_roots.roots.map((r) => r.uri).join(", ")}`);
  },
  test_input_required_result_request_state: async (_params, ctx) => {
    const ask = {
      confirm: {
        method: "elicitation/create",
        params: { message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
      },
    } satisfies T.InputRequests;
    const got = ctx.input.responses(ask);
    const state = ctx.input.state<{ tool: string }>();
    if (got === undefined || state?.tool !== "request_state") return ctx.input.required(ask, { state: { tool: "request_state" } });
    return text("state-ok");
  },
  test_input_required_result_multiple_inputs: async (_params, ctx) => {
    const ask = {
      user_name: askString("What is your name?", "name"),
      greeting: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
      },
      client_roots: { method: "roots/list", params: {} },
    } satisfies T.InputRequests;
    const got = ctx.input.responses(ask);
    if (got === undefined || ctx.input.state() === undefined) return ctx.input.required(ask, { state: { tool: "multiple_inputs" } });
    return text(`${String(got.user_name.content?.["name"])}: ${got.client_roots.roots.length} root(s), model ${got.greeting.model}`);
  },
  test_input_required_result_multi_round: async (_params, ctx) => {
    const state = ctx.input.state<{ step: number; name?: string }>();
    const step1 = { step1: askString("Step 1: What is your name?", "name") };
    const step2 = { step2: askString("Step 2: What is your favorite color?", "color") };
    if (state === undefined) return ctx.input.required(step1, { state: { step: 1 } });
    if (state.step === 1) {
      const got = ctx.input.responses(step1);
      if (got === undefined) return ctx.input.required(step1, { state });
      return ctx.input.required(step2, { state: { step: 2, name: String(got.step1.content?.["name"]) } });
    }
    const got = ctx.input.responses(step2);
    if (got === undefined) return ctx.input.required(step2, { state });
    return text(`${state.name ?? "?"} likes ${String(got.step2.content?.["color"])}`);
  },
  test_input_required_result_tampered_state: async (_params, ctx) => {
    const ask = { confirm: askString("Please confirm", "ok") };
    const got = ctx.input.responses(ask);
    if (got === undefined || ctx.input.state() === undefined) return ctx.input.required(ask, { state: { tool: "tampered_state" } });
    return text("integrity-ok");
  },
  test_input_required_result_capabilities: async (params, ctx) => {
    if (params.inputResponses !== undefined) return text("fulfilled");
    const ask: T.InputRequests = {};
    if (ctx.input.supports("elicitation/create")) ask["user_name"] = askString("What is your name?", "name");
    if (ctx.input.supports("sampling/createMessage")) {
      ask["greeting"] = { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 50 } };
    }
    if (ctx.input.supports("roots/list")) ask["client_roots"] = { method: "roots/list", params: {} };
    if (Object.keys(ask).length === 0) return text("nothing to ask");
    return ctx.input.required(ask);
  },
};

/** The scenarios' server: the tools above, the prompt, and tools/list, prompts/list. */
export function scenarioServer(options: R.McpServerOptions = {}): R.McpServer {
  return new R.McpServer({
    logger: null,
    requestState: { key: KEY },
    // The exchanges below are pinned without the server's identity in `_meta` (tested in test/runtime/http/stateless).
    serverInfoInResults: false,
    ...options,
    handlers: {
      "tools/call": async (params, ctx) => {
        const tool = Object.hasOwn(tools, params.name) ? tools[params.name] : undefined;
        if (tool === undefined) throw new R.McpError(-32602, `Unknown tool: ${params.name}`);
        return tool(params, ctx);
      },
      "tools/list": () => ({ resultType: "complete", tools: [], cacheScope: "public", ttlMs: 0 }),
      "prompts/list": () => ({ resultType: "complete", prompts: [], cacheScope: "public", ttlMs: 0 }),
      "prompts/get": async (_params, ctx) => {
        const ask = { user_context: askString("What context should the prompt use?", "context") };
        const got = ctx.input.responses(ask);
        if (got === undefined) return ctx.input.required(ask);
        return { resultType: "complete", messages: [{ role: "user", content: { type: "text", text: String(got.user_context.content?.["context"]) } }] };
      },
      ...options.handlers,
    },
  });
}

export interface Response {
  jsonrpc: "2.0";
  id: string | number | null;
  result?: { [key: string]: unknown };
  error?: { code: number; message: string; data?: unknown };
}

/** A client that speaks raw JSON-RPC to a server over the in-memory transport. */
export class RawClient {
  readonly received: unknown[] = [];
  readonly #waiting = new Map<string | number, (response: Response) => void>();
  #next = 1;
  private constructor(readonly transport: R.Transport) {}

  static async connect(server: R.McpServer): Promise<RawClient> {
    const [a, b] = R.createInMemoryTransportPair();
    await server.connect(b);
    const client = new RawClient(a);
    a.onmessage = (message) => {
      client.received.push(structuredClone(message));
      const id = (message as { id?: string | number }).id;
      if (id !== undefined && !("method" in message)) client.#waiting.get(id)?.(message as Response);
    };
    await a.start();
    return client;
  }

  /** The next request id. */
  nextId(): number {
    return this.#next++;
  }

  /**
   * Sends a request (params as given, `_meta` added unless `raw`) and resolves with its response;
   * rejects, naming the request, when none came within `timeoutMs` (default 10 s), so a fault
   * fails the test's assertion instead of hanging it.
   */
  call(method: string, params: { [key: string]: unknown }, options: { id?: number; raw?: boolean; timeoutMs?: number } = {}): Promise<Response> {
    const id = options.id ?? this.nextId();
    const body = options.raw ? params : { _meta: meta(), ...params };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const response = new Promise<Response>((resolve, reject) => {
      this.#waiting.set(id, resolve);
      timer = setTimeout(() => reject(new Error(`no response to ${method} (id ${id}) within ${options.timeoutMs ?? 10_000} ms`)), options.timeoutMs ?? 10_000);
    });
    void this.transport.send({ jsonrpc: "2.0", id, method, params: body });
    return response.finally(() => {
      clearTimeout(timer);
      this.#waiting.delete(id);
    });
  }

  /** Closes the client's end (the server sees the connection close). */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** Sends a request without waiting (for cancellation tests). */
  sendRequest(id: number, method: string, params: { [key: string]: unknown }): Promise<void> {
    return this.transport.send({ jsonrpc: "2.0", id, method, params: { _meta: meta(), ...params } });
  }

  cancel(requestId: number, reason = "stop"): Promise<void> {
    return this.transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } });
  }

  /** The messages received for an id. */
  responsesTo(id: number): unknown[] {
    return this.received.filter((m) => (m as { id?: unknown }).id === id);
  }
}

export { settle } from "../../../helpers/async.js";
