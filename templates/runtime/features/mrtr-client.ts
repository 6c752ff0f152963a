// Multi round-trip requests (MRTR, SEP-2322; 2026-07-28 `basic/patterns/mrtr`), the sending
// side: createAnswerInput, the client's hook on the endpoint's send path
// (EndpointOptions.answerInput; its type, SendHook, is declared by core/endpoint.ts). A request
// the server answers with `InputRequiredResult` is answered through this side's handlers of the
// input requests' methods and retried with `inputResponses` and the `requestState`, until a
// final result (Client Requirements); isInputRequired and isComplete tell the results apart for
// a caller who drives the rounds itself.

import type { AnyRequestHandler, HandlerContext, SendHook, SendPath } from "../core/endpoint.js";
import { isObject } from "../core/json.js";
import { numberOption } from "../core/options.js";
import { timerDelay } from "../core/outgoing.js";
import {
  CancellationForbiddenError,
  cancelledInListener,
  describeValue,
  RequestCancelledError,
  RequestTimeoutError,
  type JsonObject,
  type RequestId,
  type RequestOptions,
} from "../core/protocol.js";

/** Most input requests answered in one round of a multi round-trip request; more are refused. */
const MAX_INPUT_REQUESTS = 64;

/** The sending side's share of multi round-trip requests (createAnswerInput). */
export interface AnswerInputOptions {
  /** The requests that may answer InputRequiredResult (INPUT_REQUIRED.methods). */
  readonly methods: ReadonlySet<string>;
  /** The input requests a server may embed (INPUT_REQUIRED.inputs): answered by the handler of that method. */
  readonly inputs: ReadonlySet<string>;
  /** Most retries of one request (each answers one InputRequiredResult); one more is refused. */
  readonly maxRounds: number;
  /** true: InputRequiredResult is returned as it is unless a call's options say otherwise. */
  readonly returnInputRequired?: boolean | undefined;
}

/** The `resultType` of an InputRequiredResult (2026-07-28 ResultType). */
const INPUT_REQUIRED = "input_required";

/**
 * Whether a call's result asks for input (`resultType: "input_required"`): for callers who drive
 * the rounds (`returnInputRequired: true`), it narrows the call's union (core/typed.ts
 * InputAnswered) to the InputRequiredResult, and its else branch to the complete result. Any
 * value may be given; only an object with that `resultType` is one.
 */
export function isInputRequired<R>(result: R): result is Extract<R, { resultType: typeof INPUT_REQUIRED }> {
  return isObject(result) && result["resultType"] === INPUT_REQUIRED;
}

/**
 * Whether a call's result is the complete one (an object whose `resultType` is not
 * "input_required"; an earlier revision's server sends none, which the client MUST treat as
 * "complete"): isInputRequired's counterpart, narrowing the union to the complete result.
 */
export function isComplete<R>(result: R): result is Exclude<R, { resultType: typeof INPUT_REQUIRED }> {
  return isObject(result) && result["resultType"] !== INPUT_REQUIRED;
}

/** Why an InputRequiredResult could not be answered (InputRequiredError). */
export type InputRequiredRefusal = "rounds" | "no-handler" | "invalid";

/**
 * A request ended on an InputRequiredResult this side could not answer: more rounds than
 * maxInputRounds, an input request without a handler, or a result that breaks the rules
 * (neither inputRequests nor requestState, an input request of a method a server may not ask
 * for). `result` is the server's InputRequiredResult, for callers who drive the rounds themselves.
 */
export class InputRequiredError extends Error {
  override name = "InputRequiredError";
  readonly method: string;
  readonly why: InputRequiredRefusal;
  readonly result: JsonObject;
  constructor(method: string, why: InputRequiredRefusal, result: JsonObject, detail: string) {
    super(`${method}: could not answer the server's InputRequiredResult: ${detail}`);
    this.method = method;
    this.why = why;
    this.result = result;
  }
}

/**
 * A request that the server may answer with InputRequiredResult (2026-07-28, basic/patterns/
 * mrtr, Client Requirements): each input request is answered by this side's handler of its
 * method (ctx.signal aborts with the call), then the original request is retried, with a new
 * id, carrying `inputResponses` and the exact `requestState` (none when the server sent none),
 * until a final result or maxRounds retries. The caller's signal runs through every round:
 * aborting it aborts the handlers in progress and sends no further retry. The timeout
 * (timeoutMs, else the endpoint's default) covers all rounds together.
 */
function requestWithInput(
  path: SendPath,
  answer: AnswerInputOptions,
  method: string,
  params: JsonObject | undefined,
  options: RequestOptions | undefined,
  related: RequestId | undefined,
): Promise<unknown> {
  let total: number | undefined;
  try {
    total = timerDelay("timeoutMs", options?.timeoutMs ?? path.defaultTimeoutMs);
  } catch (error) {
    return Promise.reject(error);
  }
  const deadline = total === undefined ? undefined : Date.now() + total;
  // Round 0 is a plain `then`, not an async function: most calls end in it, and so pay for one
  // promise fewer. Its timeout is the whole of `total`, and its errors are the call's as they are.
  return path
    .send(method, params, { ...options, timeoutMs: total ?? 0 }, related)
    .then((result) => (asksForInput(result) ? laterRounds(path, answer, method, params, options, related, total, deadline, result) : result));
}

/** isInputRequired, typed for the send path's unknown results. */
function asksForInput(result: unknown): result is JsonObject {
  return isObject(result) && result["resultType"] === INPUT_REQUIRED;
}

/** The rounds after the first: `result` is the InputRequiredResult of round 0. */
async function laterRounds(
  path: SendPath,
  answer: AnswerInputOptions,
  method: string,
  params: JsonObject | undefined,
  options: RequestOptions | undefined,
  related: RequestId | undefined,
  total: number | undefined,
  deadline: number | undefined,
  first: JsonObject,
): Promise<unknown> {
  const signal = options?.signal;
  // The params of a retry, made only when the server asks for input (most calls end in round 0).
  let base: JsonObject | undefined;
  let result: JsonObject = first;
  for (let round = 1; ; round++) {
    // `result` is round - 1's InputRequiredResult.
    const inputRequests = result["inputRequests"];
    const requestState = result["requestState"];
    // Servers MUST include at least one of inputRequests or requestState (Server Requirements).
    if ((inputRequests === undefined && requestState === undefined) || (inputRequests !== undefined && !isObject(inputRequests)) || (requestState !== undefined && typeof requestState !== "string")) {
      throw new InputRequiredError(method, "invalid", result, "it needs inputRequests (an object) or requestState (a string)");
    }
    if (round > answer.maxRounds) throw new InputRequiredError(method, "rounds", result, `more than ${answer.maxRounds} rounds`);
    const inputResponses = inputRequests === undefined ? undefined : await answerInputs(path, answer, method, result, inputRequests, signal, deadline, total);
    if (signal?.aborted) throw new RequestCancelledError(method, undefined, signal.reason);
    if (base === undefined) {
      base = { ...params };
      delete base["inputResponses"];
      delete base["requestState"];
    }
    const retry: JsonObject = { ...base };
    if (inputResponses !== undefined) retry["inputResponses"] = inputResponses;
    if (typeof requestState === "string") retry["requestState"] = requestState;
    const remaining = deadline === undefined ? undefined : Math.max(1, deadline - Date.now());
    let next: unknown;
    try {
      next = await path.send(method, retry, { ...options, timeoutMs: remaining ?? 0 }, related);
    } catch (error) {
      // A later round's timeout is the whole call's.
      if (error instanceof RequestTimeoutError && total !== undefined) throw new RequestTimeoutError(method, total);
      throw error;
    }
    if (!asksForInput(next)) return next;
    result = next;
  }
}

/** One input request to answer: its key, the handler of its method, the method and its params. */
interface InputJob {
  readonly key: string;
  readonly handler: AnyRequestHandler;
  readonly method: string;
  readonly params: JsonObject | undefined;
}

/**
 * The input requests of one InputRequiredResult as jobs for this side's handlers. The server's
 * map is hostile input: a bounded number of them, each of a method a server may send (with
 * object params, if any) and with a handler here; otherwise InputRequiredError.
 */
function inputJobs(path: SendPath, answer: AnswerInputOptions, method: string, result: JsonObject, inputRequests: JsonObject): InputJob[] {
  const jobs: InputJob[] = [];
  const keys = Object.keys(inputRequests);
  if (keys.length > MAX_INPUT_REQUESTS) throw new InputRequiredError(method, "invalid", result, `more than ${MAX_INPUT_REQUESTS} input requests`);
  for (const key of keys) {
    const request = inputRequests[key];
    const inputMethod = isObject(request) ? request["method"] : undefined;
    const inputParams = isObject(request) ? request["params"] : undefined;
    if (typeof inputMethod !== "string" || !answer.inputs.has(inputMethod) || (inputParams !== undefined && !isObject(inputParams))) {
      throw new InputRequiredError(method, "invalid", result, `input request ${describeValue(key)} is not one a server may send`);
    }
    const handler = path.handler(inputMethod);
    if (handler === undefined) throw new InputRequiredError(method, "no-handler", result, `no handler for ${inputMethod} (input request ${describeValue(key)})`);
    jobs.push({ key, handler, method: inputMethod, params: inputParams });
  }
  return jobs;
}

/** The ctx of a handler answering one input request: its signal aborts with the whole round. */
function inputContext(path: SendPath, job: InputJob, signal: AbortSignal): HandlerContext {
  return {
    signal,
    requestId: job.key,
    method: job.method,
    _meta: isObject(job.params?.["_meta"]) ? job.params["_meta"] : undefined,
    // Asked by the server inside a result, not sent by a peer over a transport: no principal, no HTTP request.
    principal: undefined,
    http: undefined,
    sendProgress: () => Promise.resolve(),
    // A client sends no log messages (notifications/message is the server's).
    log: () => Promise.resolve(),
    notify: (m, p) => path.notify(m, p),
    request: (m, p, o) => path.request(m, p, o?.signal === undefined ? { ...o, signal } : o),
    end: () => Promise.reject(new CancellationForbiddenError(job.method, "not-permitted")),
  };
}

/**
 * Answers every input request of one InputRequiredResult at once, each by this side's handler
 * of its method. Rejects as soon as the caller aborts (RequestCancelledError) or the deadline
 * passes (RequestTimeoutError): the handlers' ctx.signal aborts with it.
 */
function answerInputs(
  path: SendPath,
  answer: AnswerInputOptions,
  method: string,
  result: JsonObject,
  inputRequests: JsonObject,
  signal: AbortSignal | undefined,
  deadline: number | undefined,
  total: number | undefined,
): Promise<JsonObject> {
  const jobs = inputJobs(path, answer, method, result, inputRequests);
  const controller = new AbortController();
  return new Promise<JsonObject>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (error: Error, reason: unknown): void => {
      cleanup();
      controller.abort(reason);
      reject(error);
    };
    const onAbort = (): void => stop(cancelledInListener(method, undefined, signal?.reason), signal?.reason);
    const cleanup = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    if (deadline !== undefined && total !== undefined) {
      const ms = Math.max(0, deadline - Date.now());
      timer = setTimeout(() => stop(new RequestTimeoutError(method, total), `${method} timed out after ${total} ms`), ms);
    }
    const answers = jobs.map((job) => {
      const { handler } = job;
      const ctx = inputContext(path, job, controller.signal);
      // A handler that throws instead of rejecting is contained like a rejection.
      return new Promise<unknown>((done) => done(handler(job.params, ctx))).then((value): [string, JsonObject] => [job.key, isObject(value) ? value : {}]);
    });
    Promise.all(answers).then(
      (pairs) => {
        if (controller.signal.aborted) return;
        cleanup();
        resolve(Object.fromEntries(pairs));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        stop(error instanceof Error ? error : new Error(String(error)), "an input handler failed");
      },
    );
  });
}

/**
 * The sending side of multi round-trip requests as a hook on the endpoint's send path: a request
 * to one of `answer.methods` is taken over (answered and retried, requestWithInput) unless the
 * caller drives the rounds (returnInputRequired here, or in the call's options, which win); a
 * call's maxInputRounds replaces `answer.maxRounds`.
 */
export function createAnswerInput(answer: AnswerInputOptions): SendHook {
  numberOption("maxRounds", answer.maxRounds, undefined, { min: 0 });
  return {
    request(path, method, params, options, related) {
      if (!answer.methods.has(method) || (options?.returnInputRequired ?? answer.returnInputRequired ?? false)) return undefined;
      // A call's own bound replaces the client's (RequestOptions.maxInputRounds).
      let rounds: number | undefined;
      try {
        rounds = numberOption("maxInputRounds", options?.maxInputRounds, undefined, { min: 0 });
      } catch (error) {
        return Promise.reject(error);
      }
      return requestWithInput(path, rounds === undefined ? answer : { ...answer, maxRounds: rounds }, method, params, options, related);
    },
    answerInputRequests(path, method, inputRequests, signal) {
      try {
        return answerInputs(path, answer, method, { inputRequests }, inputRequests, signal, undefined, undefined);
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
