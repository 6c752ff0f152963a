// One request's HandlerContext, as the endpoint makes it when the request's handler starts.

import type { InFlight } from "./incoming.js";
import type { HandlerContext, InputContextApi, InputRequiredHook } from "./endpoint-contract.js";
import { logFunction, type LogFunction, type LogHook } from "./logging.js";
import type { HttpRequestContext, JsonObject, Principal, RequestId, Transport } from "./protocol.js";

/** The functions of a HandlerContext: closures over one request, made by the endpoint. */
export type ContextFunctions = Pick<HandlerContext, "sendProgress" | "notify" | "request" | "end">;

/**
 * One request's HandlerContext. Every member is an own enumerable property, as in a plain object
 * (a spread of ctx copies them all), and the functions are closures, so a handler may destructure
 * them. `signal` is an accessor, so that the AbortSignal is made only if the handler reads it
 * (InFlight); its getter is one function shared by every context, because a getter written in an
 * object literal is a new function per request, which costs each context its own hidden class.
 */
export class RequestContext implements HandlerContext {
  static readonly #signal: PropertyDescriptor = {
    get(this: RequestContext): AbortSignal {
      return this.#entry.signal;
    },
    enumerable: true,
    configurable: true,
  };

  /**
   * `input` (multi round-trip requests), only on the contexts of methods that take part: an
   * accessor like `signal`, so that a request that never reads it pays for no object.
   */
  static readonly #input: PropertyDescriptor = {
    get(this: RequestContext): InputContextApi | undefined {
      const hook = this.#inputHook;
      if (hook === undefined) return undefined;
      return (this.#inputContext ??= hook.context(this, this.#params));
    },
    enumerable: true,
    configurable: true,
  };

  /** `log`: an accessor too, its closure made on the first read (core/logging.ts). */
  static readonly #log: PropertyDescriptor = {
    get(this: RequestContext): LogFunction {
      return (this.#logFunction ??= logFunction(this.#logHook, this._meta, this.#transport, this.notify));
    },
    enumerable: true,
    configurable: true,
  };

  /** The transport (the connection) a context's request came on; undefined for anything but a RequestContext. */
  static connectionOf(ctx: object): Transport | undefined {
    return #transport in ctx ? ctx.#transport : undefined;
  }

  readonly #entry: InFlight;
  readonly #inputHook: InputRequiredHook | undefined;
  readonly #params: JsonObject | undefined;
  readonly #transport: Transport | undefined;
  readonly #logHook: LogHook | undefined;
  #inputContext: InputContextApi | undefined;
  #logFunction: LogFunction | undefined;
  declare readonly signal: AbortSignal;
  declare readonly requestId: RequestId;
  declare readonly method: string;
  declare readonly _meta: JsonObject | undefined;
  declare readonly principal: Principal | undefined;
  declare readonly http: HttpRequestContext | undefined;
  declare readonly sendProgress: ContextFunctions["sendProgress"];
  declare readonly notify: ContextFunctions["notify"];
  declare readonly request: ContextFunctions["request"];
  declare readonly end: ContextFunctions["end"];
  declare readonly log: LogFunction;

  constructor(
    entry: InFlight,
    requestId: RequestId,
    method: string,
    meta: JsonObject | undefined,
    transport: Transport | undefined,
    functions: ContextFunctions,
    input: InputRequiredHook | undefined,
    params: JsonObject | undefined,
    logging: LogHook | undefined,
  ) {
    this.#entry = entry;
    this.#transport = transport;
    this.#logHook = logging;
    this.#inputHook = input;
    this.#params = input === undefined ? undefined : params;
    Object.defineProperty(this, "signal", RequestContext.#signal);
    Object.defineProperty(this, "log", RequestContext.#log);
    this.requestId = requestId;
    this.method = method;
    this._meta = meta;
    this.principal = transport?.principal;
    this.http = transport?.http;
    this.sendProgress = functions.sendProgress;
    this.notify = functions.notify;
    this.request = functions.request;
    this.end = functions.end;
    if (input !== undefined) Object.defineProperty(this, "input", RequestContext.#input);
  }
}

