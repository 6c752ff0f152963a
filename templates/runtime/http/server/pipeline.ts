// The ordered checks every request of every HTTP server passes, as data: each server lists its
// stages, and one runner applies them in order, stopping at the first refusal.
//
//   Host/Origin → authenticate → method, Accept, Content-Type → (the server's own: a quota, the
//   session named) → a size-bounded body read → a JSON parse with a nesting bound → routing
//
// Authentication comes before the body on every route (the era router included: it runs the
// admission of the servers a request may go to before it reads the body to choose one), so an
// unauthenticated client costs no body read (docs/security.md).

import { isThenable } from "../../core/json.js";
import type { Logger, Principal } from "../../core/protocol.js";
import { describeValue } from "../../core/protocol.js";
import { mediaType, report } from "../fetch.js";
import { parseBody } from "./body.js";
import type { HttpCall } from "./call.js";
import { accepted, hostProblem, hostSyntaxProblem, isLoopbackAddress, type GuardOptions } from "./guards.js";
import type { Authenticate, ServerSettings } from "./options.js";
import { answer, INTERNAL_ERROR, type Answer } from "./replies.js";

/** What the stages learn of a request on its way; a server adds its own fields. */
export class CallState {
  /** Who sent it (the authenticate stage); undefined: anonymous. */
  principal: Principal | undefined = undefined;
  /** Whether its method has a body to read (the envelope stage, from the server's method table). */
  readsBody: boolean = false;
  /** The parsed body (after the body and JSON stages). */
  body: unknown = undefined;
  /** Released once when the runner is done with the request, unless an owner took it over (a quota slot of a stream). */
  held: { release(): void } | undefined = undefined;
}

/** A stage's answer: undefined to go on, else the answer that ends the request. */
export type StageResult = Answer | undefined;

/** One check of the pipeline, named (the name is what a reader of the table sees). */
export interface Stage<S extends CallState> {
  readonly name: string;
  run(call: HttpCall, state: S): StageResult | Promise<StageResult>;
}

/** What one server is to the runner: its stages before the body, its bounds, its routing. */
export interface Pipeline<S extends CallState> {
  /** Host/Origin, authenticate, the envelope, and the server's own checks: all before the body. */
  readonly admission: readonly Stage<S>[];
  readonly settings: Pick<ServerSettings, "maxBodyBytes" | "maxJsonDepth" | "onError">;
  /** A fresh state for one request. */
  state(): S;
  /** Routing: the request passed every stage (its body, if it has one, parsed). */
  serve(call: HttpCall, state: S): void | Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// The shared stages

/** Host and Origin (Security Warning: DNS rebinding): 400 for a Host that is no host[:port], 403 for one refused. */
export function hostOriginStage(guards: GuardOptions): Stage<CallState> {
  return {
    name: "host-origin",
    run(call) {
      const invalid = hostSyntaxProblem(call.headers.get("host"));
      if (invalid !== null) return { status: 400, message: `Bad Request: ${invalid}` };
      const forbidden = hostProblem(call, call.localAddress, guards);
      return forbidden === null ? undefined : { status: 403, message: `Forbidden: ${forbidden}` };
    },
  };
}

/**
 * `authenticate` for every request, before anything of its body is read. A result that is
 * neither a Response nor an object with a non-empty string `id` is the application's bug: a
 * TypeError (the runner answers 500 and reports it), never a request served as nobody. Without
 * `authenticate`, see anonymousStage.
 */
export function authenticateStage(authenticate: Authenticate | undefined, logger: Logger | null = null): Stage<CallState> {
  if (authenticate === undefined) return anonymousStage(logger);
  const accept = (who: unknown, state: CallState): StageResult => {
    if (who instanceof Response) return who;
    if (who !== null && typeof who === "object" && typeof (who as Principal).id === "string" && (who as Principal).id !== "") {
      state.principal = who as Principal;
      return undefined;
    }
    throw new TypeError(`authenticate must return a Principal (an object with a non-empty string id) or a Response, got ${describeValue(who)}`);
  };
  return {
    name: "authenticate",
    run(call, state) {
      const who = askOnce(call, authenticate);
      return isThenable(who) ? Promise.resolve(who).then((resolved) => accept(resolved, state)) : accept(who, state);
    },
  };
}

/**
 * The authenticate stage of a handler without `authenticate`: every request is anonymous. The
 * runtime learns where it is bound only from its requests (the local address a request arrived
 * at), so the first one that arrived at an address other than loopback logs one warning: such a
 * server is reachable by others, who are told apart only by their connection or session.
 */
function anonymousStage(logger: Logger | null): Stage<CallState> {
  let warned = false;
  return {
    name: "authenticate",
    run(call) {
      if (warned || logger === null) return undefined;
      const local = call.localAddress;
      if (local === undefined || isLoopbackAddress(local)) return undefined;
      warned = true;
      try {
        logger(
          `mcp-stubgen: an HTTP handler without authenticate serves requests arriving at ${local}, not a loopback address: ` +
            "every client is anonymous (quotas per connection or per session; nothing bound to a principal). Set authenticate (mcp-stubgen, docs/security.md).",
        );
      } catch {
        // A throwing logger must not fail the request.
      }
      return undefined;
    },
  };
}

/**
 * What each `authenticate` answered for a request several handlers admit (the era router, before it
 * reads a body to choose one of them): a function shared by those handlers is asked once.
 */
const sharedAnswers = new WeakMap<HttpCall, Map<Authenticate, unknown>>();

/** Marks a request as admitted by several handlers in turn: each distinct `authenticate` is then asked once for it. */
export function shareAdmission(call: HttpCall): void {
  if (!sharedAnswers.has(call)) sharedAnswers.set(call, new Map());
}

function askOnce(call: HttpCall, authenticate: Authenticate): unknown {
  const answers = sharedAnswers.get(call);
  if (answers === undefined) return authenticate(call);
  if (answers.has(authenticate)) return answers.get(authenticate);
  const who: unknown = authenticate(call);
  answers.set(authenticate, who);
  return who;
}

/** What a server accepts of one HTTP method: the body's media type, what Accept must list, whether a body is read. */
export interface MethodRule {
  readonly contentType?: "application/json" | undefined;
  readonly accept?: "both" | "sse" | undefined;
  readonly body: boolean;
}

/** A server's methods (POST, GET, DELETE, …) and what it accepts of each. */
export type MethodTable = { readonly [method: string]: MethodRule };

/**
 * The envelope (Streamable HTTP, Sending Messages 1-2 and Listening for Messages 1): a method the
 * table lacks is 405 with `Allow` (a HEAD gets no body), a body of another media type 415, an
 * Accept that does not list what the answer may be 406.
 */
export function envelopeStage(table: MethodTable, allowedWhat = "this endpoint"): Stage<CallState> {
  const allow = Object.keys(table).join(", ");
  return {
    name: "envelope",
    run(call, state) {
      const rule = Object.hasOwn(table, call.method) ? table[call.method] : undefined;
      if (rule === undefined) {
        const headers = { allow };
        return call.method === "HEAD" ? { status: 405, message: "", headers, empty: true } : { status: 405, message: `Method not allowed: ${call.method}; ${allowedWhat} accepts ${allow}`, headers };
      }
      if (rule.contentType !== undefined && mediaType(call.headers.get("content-type")) !== rule.contentType) {
        return { status: 415, message: `Unsupported Media Type: the body must be ${rule.contentType}` };
      }
      if (rule.accept !== undefined) {
        const { json, sse } = accepted(call.headers.get("accept"));
        if (rule.accept === "both" && !(json && sse)) return { status: 406, message: "Not Acceptable: the Accept header must list application/json and text/event-stream" };
        if (rule.accept === "sse" && !sse) return { status: 406, message: "Not Acceptable: the Accept header must list text/event-stream" };
      }
      state.readsBody = rule.body;
      return undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The runner

/** Runs the admission stages in order; the first answer ends the request. */
export function admit<S extends CallState>(stages: readonly Stage<S>[], call: HttpCall, state: S): StageResult | Promise<StageResult> {
  for (let i = 0; i < stages.length; i++) {
    const result = stages[i]!.run(call, state);
    if (isThenable(result)) return result.then((answered) => (answered !== undefined ? answered : admit(stages.slice(i + 1), call, state)));
    if (result !== undefined) return result;
  }
  return undefined;
}

/** Reads and parses the body where the method has one: undefined when it is in `state.body`, else the refusal. */
export async function readBody(call: HttpCall, state: CallState, settings: Pipeline<CallState>["settings"]): Promise<StageResult> {
  if (!state.readsBody) return undefined;
  const parsed = parseBody(await call.readBody(settings.maxBodyBytes), settings.maxBodyBytes, settings.maxJsonDepth);
  if (!("value" in parsed)) return parsed;
  state.body = parsed.value;
  return undefined;
}

/**
 * Serves one request through a server's pipeline: admission, body, routing. Whatever fails in
 * the server's own code is reported to onError and answered 500 (when nothing was answered yet).
 */
export async function runPipeline<S extends CallState>(pipeline: Pipeline<S>, call: HttpCall): Promise<void> {
  const state = pipeline.state();
  let refused: StageResult;
  try {
    const admitted = admit(pipeline.admission, call, state);
    refused = isThenable(admitted) ? await admitted : admitted;
    if (refused === undefined) refused = await readBody(call, state, pipeline.settings);
    if (refused !== undefined) await answer(call, refused);
  } catch (error) {
    refused = INTERNAL_ERROR;
    failed(call, pipeline.settings.onError, error);
  }
  if (refused === undefined) return serveAdmitted(pipeline, call, state);
  state.held?.release();
}

/**
 * The rest of a server's pipeline for a request another runner admitted and whose body it read
 * (the era router): routing, with the same failure handling and release as runPipeline.
 */
export async function serveAdmitted<S extends CallState>(pipeline: Pipeline<S>, call: HttpCall, state: S): Promise<void> {
  try {
    const served = pipeline.serve(call, state);
    if (isThenable(served)) await served;
  } catch (error) {
    failed(call, pipeline.settings.onError, error);
  } finally {
    state.held?.release();
  }
}

/** A server's own failure: reported, and answered 500 unless an answer has started. */
export function failed(call: HttpCall, onError: ((error: Error) => void) | undefined, error: unknown): void {
  report(onError, error);
  if (!call.answered) void answer(call, INTERNAL_ERROR);
}
