// Multi round-trip requests (MRTR, SEP-2322; 2026-07-28 `basic/patterns/mrtr`), the receiving
// side: createInputRequired, the endpoint's hook around the handlers of a server (its type,
// InputRequiredHook, is declared by core/endpoint.ts, so that core imports no feature).
//
// A handler of a request that may answer `InputRequiredResult` (the catalog's INPUT_REQUIRED
// methods: prompts/get, resources/read, tools/call) asks the client for input with
// `ctx.input.required(...)`; the client retries the request with `inputResponses` (and the
// `requestState` it was given), and the handler reads the typed answers with
// `ctx.input.responses(...)` and its own state with `ctx.input.state()`. The state is sealed and
// verified by mrtr-state.ts; which input requests a client can answer is mrtr-rules.ts's.
//
// Nothing here runs for a request whose params carry neither `inputResponses` nor
// `requestState` until the handler reads `ctx.input`: no crypto, no allocation.

import type { HandlerContext, InputContextApi, InputRequestLike, InputRequiredHook, RequiredOptions } from "../core/endpoint.js";
import { isObject, putOwn } from "../core/json.js";
import { at, checkValue, issueText, type Check } from "../core/validation.js";
import { describeValue, ErrorCode, McpError, type JsonObject } from "../core/protocol.js";
import { checkInputRequests, declaredCapabilities, inputRule, missingCapabilities, type InputRequiredRules, type InputRule } from "./mrtr-rules.js";
import { RequestStateSealer, type RequestStateOptions } from "./mrtr-state.js";

/** The `resultType` of an InputRequiredResult. */
const RESULT_TYPE = "input_required";

class InputRequired implements InputRequiredHook {
  readonly #rules: InputRequiredRules;
  readonly #answers: ReadonlyMap<string, Check>;
  readonly #methods: ReadonlySet<string>;
  readonly #states: RequestStateSealer;
  /** Results made by required(): already checked, so after() passes them through. */
  readonly #issued = new WeakSet<object>();

  constructor(rules: InputRequiredRules, options: RequestStateOptions = {}, answers: { readonly [method: string]: Check } = {}) {
    this.#rules = rules;
    this.#answers = new Map(Object.keys(answers).map((method) => [method, answers[method]!]));
    this.#methods = new Set(rules.methods);
    this.#states = new RequestStateSealer(options);
  }

  /** The check of the answer to an input request (the generated VALIDATORS.inputs); undefined: none. */
  answerCheck(method: string): Check | undefined {
    return this.#answers.get(method);
  }

  has(method: string): boolean {
    return this.#methods.has(method);
  }

  context(ctx: HandlerContext, params: JsonObject | undefined): InputContextApi {
    return new InputContext(this, ctx, params);
  }

  before(ctx: HandlerContext & { readonly input: InputContextApi }, params: JsonObject | undefined): Promise<void> | undefined {
    if (params === undefined) return undefined;
    const responses = params["inputResponses"];
    const state = params["requestState"];
    if (responses === undefined && state === undefined) return undefined; // the hot path
    // Error Handling: "Servers SHOULD validate that the data provided by the client is a valid
    // InputResponses object … Protocol errors … SHOULD return a JSON-RPC error response".
    if (responses !== undefined && !isObject(responses)) {
      throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses must be an object, got ${describeValue(responses)}`);
    }
    if (state === undefined) return undefined;
    if (typeof state !== "string") throw new McpError(ErrorCode.InvalidParams, `Invalid params: requestState must be a string, got ${describeValue(state)}`);
    const input = ctx.input;
    if (!(input instanceof InputContext)) throw new McpError(ErrorCode.InternalError, "ctx.input is not this server's");
    return this.#states.open(state, ctx, params).then((sealed) => input.verified(sealed));
  }

  after(method: string, result: unknown, ctx: HandlerContext): void {
    if (!isObject(result) || result["resultType"] !== RESULT_TYPE) return;
    // Supported Requests: "Servers MUST NOT send InputRequiredResult responses on any other client requests."
    if (!this.#methods.has(method)) {
      throw new McpError(ErrorCode.InternalError, `Internal error: ${method} may not answer ${RESULT_TYPE} (only ${this.#rules.methods.join(", ")})`);
    }
    if (this.#issued.has(result)) return;
    // A result the handler built itself gets the checks required() makes.
    const requests = result["inputRequests"];
    if (requests !== undefined && !isObject(requests)) throw new McpError(ErrorCode.InternalError, "Internal error: inputRequests must be an object");
    const hasRequests = requests !== undefined && Object.keys(requests).length > 0;
    if (!hasRequests && typeof result["requestState"] !== "string") {
      throw new McpError(ErrorCode.InternalError, "Internal error: an InputRequiredResult needs inputRequests or requestState");
    }
    if (requests !== undefined) this.check(requests as { readonly [key: string]: InputRequestLike }, ctx);
  }

  /** The rule of an input method, own properties only. */
  rule(method: unknown): InputRule | undefined {
    return inputRule(this.#rules, method);
  }

  /** The client capabilities this request declared (its `_meta`), or none. */
  declared(ctx: HandlerContext): JsonObject {
    return declaredCapabilities(this.#rules, ctx._meta);
  }

  /** Checks a handler's input requests: known methods, and capabilities the client declared (mrtr-rules.ts checkInputRequests). */
  check(requests: { readonly [key: string]: InputRequestLike }, ctx: HandlerContext): void {
    checkInputRequests(this.#rules, requests, this.declared(ctx));
  }

  /** Builds the InputRequiredResult of required(). */
  async issue(ctx: HandlerContext, params: JsonObject | undefined, requests: { readonly [key: string]: InputRequestLike }, options: RequiredOptions): Promise<JsonObject> {
    if (!isObject(requests)) throw new TypeError("ctx.input.required(requests): requests must be an object of input requests");
    this.check(requests, ctx);
    const inputRequests: JsonObject = {};
    for (const key of Object.keys(requests)) {
      const request = requests[key]!;
      putOwn(inputRequests, key, request.params === undefined ? { method: request.method } : { method: request.method, params: request.params });
    }
    const result: JsonObject = { resultType: RESULT_TYPE };
    const asks = Object.keys(inputRequests).length > 0;
    if (asks) result["inputRequests"] = inputRequests;
    // Server Requirements 6: "at least one of inputRequests or requestState".
    if (options.state !== undefined) result["requestState"] = await this.#states.seal(ctx, params, options.state, options.ttlMs);
    else if (!asks) throw new TypeError("ctx.input.required: give at least one input request or a state");
    this.#issued.add(result);
    return result;
  }
}

/** One request's ctx.input. Its functions are bound: a handler may destructure them. */
class InputContext implements InputContextApi {
  readonly #hook: InputRequired;
  readonly #ctx: HandlerContext;
  readonly #params: JsonObject | undefined;
  #state: unknown = undefined;

  constructor(hook: InputRequired, ctx: HandlerContext, params: JsonObject | undefined) {
    this.#hook = hook;
    this.#ctx = ctx;
    this.#params = params;
  }

  /** Called by the hook once the request's requestState is verified. */
  verified(state: unknown): void {
    this.#state = state;
  }

  /** Whether this request's client capabilities allow asking for `method` (with these params). */
  readonly supports = (method: string, params?: unknown): boolean => {
    const rule = this.#hook.rule(method);
    return rule !== undefined && missingCapabilities(rule, params, this.#hook.declared(this.#ctx)) === null;
  };

  /** The state this handler sealed in the previous round, verified; undefined when the request carried none. */
  readonly state = (): unknown => this.#state;

  /**
   * The answers to `requests` when the retry carries one for every key, each checked against
   * the result of the method asked (-32602 when it does not match: Error Handling, "Protocol
   * errors … SHOULD return a JSON-RPC error response"); undefined when any is missing (then
   * ask again: "the server SHOULD respond with a new InputRequiredResult requesting the missing
   * information again"). Answers to keys not asked are ignored ("SHOULD ignore any information
   * it does not recognize").
   */
  readonly responses = (requests: { readonly [key: string]: InputRequestLike }): { [key: string]: unknown } | undefined => {
    if (!isObject(requests)) throw new TypeError("ctx.input.responses(requests): requests must be an object of input requests");
    const given = this.#params?.["inputResponses"];
    if (!isObject(given)) return undefined;
    const out: JsonObject = {};
    let complete = true;
    for (const key of Object.keys(requests)) {
      const request = requests[key];
      const rule = isObject(request) ? this.#hook.rule(request["method"]) : undefined;
      if (rule === undefined) throw new TypeError(`input request ${JSON.stringify(key)}: unknown method ${JSON.stringify(isObject(request) ? request["method"] : request)}`);
      if (!Object.hasOwn(given, key)) {
        complete = false;
        continue;
      }
      const answer = given[key];
      const method = String((request as InputRequestLike).method);
      const check = this.#hook.answerCheck(method);
      const issue = check === undefined ? undefined : checkValue(check, answer);
      if (issue !== undefined) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses${issueText(at(key, issue))} (the answer to ${method}, ${rule.result})`, {
          pointer: `/inputResponses${at(key, issue).pointer}`,
          expected: issue.expected,
        });
      }
      putOwn(out, key, answer);
    }
    return complete ? out : undefined;
  };

  /** An InputRequiredResult asking for `requests`, with `state` sealed into requestState when given. */
  readonly required = (requests: { readonly [key: string]: InputRequestLike }, options: RequiredOptions = {}): Promise<JsonObject> =>
    this.#hook.issue(this.#ctx, this.#params, requests, options);
}

/** The hook of a server whose revision has multi round-trip requests (its catalog's INPUT_REQUIRED). */
export function createInputRequired(rules: InputRequiredRules, options?: RequestStateOptions, answers?: { readonly [method: string]: Check }): InputRequiredHook {
  return new InputRequired(rules, options, answers);
}
