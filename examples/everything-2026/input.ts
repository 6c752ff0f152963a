/**
 * The everything server's 2026-07-28 tools and prompt that need input from the client, through
 * multi round-trip requests (basic/patterns/mrtr, SEP-2322): the handler answers an
 * InputRequiredResult naming what it needs (`ctx.input.required`), the client retries the same
 * request with the answers (`ctx.input.responses`) and, where the handler sealed some, its
 * `requestState` (`ctx.input.state`: already HMAC-verified and bound to this request by the
 * runtime, which refuses tampered, expired or foreign state before the handler runs).
 *
 * Each handler is written for one attempt: it asks until the retry carries an answer to every key
 * it asked (re-asking is what the spec recommends when answers are missing), so it never relies
 * on the client retrying. The names, keys and texts are those of the conformance suite's
 * input-required-result-* scenarios and server-stateless's test_missing_capability.
 */
import type { CallToolResult, ElicitRequest, ElicitResult, GetPromptResult, InputRequest, Tool } from "../../out/2026-07-28/index.js";
import { NO_ARGS } from "../everything/content-tools.js";
import type { ToolEntry } from "./tools.js";

const text = (value: string): CallToolResult => ({ resultType: "complete", content: [{ type: "text", text: value }] });

/** A form elicitation for one field (form mode: the default). */
const form = (message: string, field: string, type: "string" | "boolean" = "string") =>
  ({
    method: "elicitation/create",
    params: {
      message,
      requestedSchema: { type: "object", properties: { [field]: type === "boolean" ? { type: "boolean" } : { type: "string" } }, required: [field] },
    },
  }) satisfies ElicitRequest;

const sampling = (prompt: string, maxTokens: number) =>
  ({
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens },
  }) satisfies InputRequest;

const ROOTS = { method: "roots/list", params: {} } satisfies InputRequest;

/** A field of an accepted form, or undefined (declined, cancelled, or left out). */
function field(answer: ElicitResult, name: string): string | number | boolean | string[] | undefined {
  return answer.action === "accept" ? answer.content?.[name] : undefined;
}

/** The text of a sampling reply, whatever kind of content it carries. */
function sampledText(content: unknown): string {
  const blocks: unknown[] = Array.isArray(content) ? content : [content];
  return blocks
    .map((block) => (typeof block === "object" && block !== null && "text" in block && typeof block.text === "string" ? block.text : "[non-text]"))
    .join(" ");
}

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: NO_ARGS });

const ASK_NAME = { user_name: form("What is your name?", "name") };
const ASK_CAPITAL = { capital_question: sampling("What is the capital of France?", 100) };
const ASK_ROOTS = { client_roots: ROOTS };
const ASK_CONFIRM = { confirm: form("Please confirm", "ok", "boolean") };
const ASK_ALL = { ...ASK_NAME, greeting: sampling("Generate a greeting", 50), ...ASK_ROOTS };
const ASK_STEP1 = { step1: form("Step 1: What is your name?", "name") };
const ASK_STEP2 = { step2: form("Step 2: What is your favorite color?", "color") };

/** The state test_input_required_result_multi_round seals between its rounds. */
interface Rounds {
  readonly step: 1 | 2;
  readonly name?: string;
}

export const INPUT_TOOLS: readonly ToolEntry[] = [
  {
    // Also driven by the result-type, missing-input-response, ignore-extra-params and
    // validate-input scenarios: no state, extra answers ignored, a malformed answer refused by the runtime.
    tool: tool("test_input_required_result_elicitation", "Asks the user for their name (elicitation), then greets them."),
    run: (_args, { ctx }) => {
      const got = ctx.input.responses(ASK_NAME);
      if (got === undefined) return ctx.input.required(ASK_NAME);
      return text(`Hello, ${String(field(got.user_name, "name") ?? "stranger")}!`);
    },
  },
  {
    tool: tool("test_input_required_result_sampling", "Asks the client's LLM (sampling) for the capital of France."),
    run: (_args, { ctx }) => {
      const got = ctx.input.responses(ASK_CAPITAL);
      if (got === undefined) return ctx.input.required(ASK_CAPITAL);
      return text(`Sampling response: ${sampledText(got.capital_question.content)}`);
    },
  },
  {
    tool: tool("test_input_required_result_list_roots", "Asks the client for its roots (roots/list)."),
    run: (_args, { ctx }) => {
      const got = ctx.input.responses(ASK_ROOTS);
      if (got === undefined) return ctx.input.required(ASK_ROOTS);
      const { roots } = got.client_roots;
      return text(`Client exposed ${roots.length} root(s): ${roots.map((root) => root.uri).join(", ")}`);
    },
  },
  {
    tool: tool("test_input_required_result_request_state", "Asks for a confirmation and seals a requestState it checks on the retry."),
    run: (_args, { ctx }) => {
      const got = ctx.input.responses(ASK_CONFIRM);
      if (got === undefined || ctx.input.state<{ tool: string }>()?.tool !== "request_state") {
        return ctx.input.required(ASK_CONFIRM, { state: { tool: "request_state" } });
      }
      return text(`state-ok: the requestState was verified and the confirmation is ${String(field(got.confirm, "ok"))}`);
    },
  },
  {
    tool: tool("test_input_required_result_multiple_inputs", "Asks for a name (elicitation), a greeting (sampling) and the roots at once."),
    run: (_args, { ctx }) => {
      const got = ctx.input.responses(ASK_ALL);
      if (got === undefined || ctx.input.state<{ tool: string }>()?.tool !== "multiple_inputs") {
        return ctx.input.required(ASK_ALL, { state: { tool: "multiple_inputs" } });
      }
      const name = String(field(got.user_name, "name") ?? "stranger");
      return text(`${sampledText(got.greeting.content)} ${name}: ${got.client_roots.roots.length} root(s) visible`);
    },
  },
  {
    // Two rounds; the round and what the first one learnt travel in the sealed state, which
    // therefore differs from one round to the next.
    tool: tool("test_input_required_result_multi_round", "Asks for a name, then for a favourite colour, then answers."),
    run: (_args, { ctx }) => {
      const state = ctx.input.state<Rounds>();
      if (state?.step === 1) {
        const got = ctx.input.responses(ASK_STEP1);
        if (got === undefined) return ctx.input.required(ASK_STEP1, { state });
        const next: Rounds = { step: 2, name: String(field(got.step1, "name") ?? "unknown") };
        return ctx.input.required(ASK_STEP2, { state: next });
      }
      if (state?.step === 2) {
        const got = ctx.input.responses(ASK_STEP2);
        if (got === undefined) return ctx.input.required(ASK_STEP2, { state });
        return text(`Multi-round complete: ${state.name ?? "unknown"} likes ${String(field(got.step2, "color") ?? "no colour")}`);
      }
      const first: Rounds = { step: 1 };
      return ctx.input.required(ASK_STEP1, { state: first });
    },
  },
  {
    // The runtime refuses a retry whose requestState fails verification (-32602) before this runs.
    tool: tool("test_input_required_result_tampered_state", "Asks for a confirmation under a sealed requestState; a tampered one is refused."),
    run: (_args, { ctx }) => {
      const got = ctx.input.responses(ASK_CONFIRM);
      if (got === undefined || ctx.input.state<{ tool: string }>()?.tool !== "tampered_state") {
        return ctx.input.required(ASK_CONFIRM, { state: { tool: "tampered_state" } });
      }
      return text("integrity-ok: the requestState was verified");
    },
  },
  {
    // Servers MUST NOT send an inputRequests the client has not declared support for (mrtr, Basic Workflow).
    tool: tool("test_input_required_result_capabilities", "Asks only for the kinds of input the request's client capabilities allow."),
    run: (_args, { ctx }) => {
      const ask: Record<string, InputRequest> = {};
      if (ctx.input.supports("elicitation/create")) Object.assign(ask, ASK_NAME);
      if (ctx.input.supports("sampling/createMessage")) ask["greeting"] = sampling("Generate a short greeting", 50);
      if (ctx.input.supports("roots/list")) Object.assign(ask, ASK_ROOTS);
      if (Object.keys(ask).length === 0) return text("The client declared no capability to ask it anything with");
      if (ctx.input.responses(ask) === undefined) return ctx.input.required(ask);
      return text(`Capability-aware input requests fulfilled: ${Object.keys(ask).join(", ")}`);
    },
  },
  {
    // server-stateless: asks for sampling whatever the client declared; to a client without the
    // capability the runtime answers MissingRequiredClientCapabilityError (-32021, HTTP 400)
    // naming { sampling: {} }.
    tool: tool("test_missing_capability", "Needs the sampling capability: asks the client's LLM for one word."),
    run: (_args, { ctx }) => {
      const ask = { llm_answer: sampling("Reply with the single word: pong", 16) };
      const got = ctx.input.responses(ask);
      if (got === undefined) return ctx.input.required(ask);
      return text(`The client's LLM said: ${sampledText(got.llm_answer.content)}`);
    },
  },
];

/** The prompt of input-required-result-non-tool-request: prompts/get asks for input too. */
export const INPUT_PROMPT = {
  prompt: { name: "test_input_required_result_prompt", description: "Asks the user for the context (elicitation) before rendering." },
  ask: { user_context: form("What context should the prompt use?", "context") },
  render: (context: string): GetPromptResult => ({
    resultType: "complete",
    messages: [{ role: "user", content: { type: "text", text: `Use the following context: ${context}` } }],
  }),
};
