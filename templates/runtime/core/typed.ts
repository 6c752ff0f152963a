// Types that turn the catalog maps (catalog.ts) into the typed client and server API.
// Revision-independent: what differs by revision (the maps, the methods whose receiver may end
// them) comes in as type parameters, which client.ts and server.ts fill from the catalog.

import type { HandlerContext, RequiredOptions } from "./endpoint.js";
import type { RequestOptions, UncancellableRequestOptions } from "./protocol.js";

/** One entry of a request map of catalog.ts. */
export interface RequestSpec {
  params: unknown;
  paramsRequired: boolean;
  result: unknown;
  cancellable: boolean;
  taskAugmentable: boolean;
}

/** One entry of a notification map of catalog.ts. */
export interface NotificationSpec {
  params: unknown;
  paramsRequired: boolean;
}

/** Request options of a method: no `signal` where notifications/cancelled is forbidden. */
export type OptionsFor<S extends RequestSpec> = S["cancellable"] extends true ? RequestOptions : UncancellableRequestOptions;

/** Params without `task`: the request is not task-augmented and may be cancelled with a signal. */
export type WithoutTask<P> = P extends object ? P & { task?: never } : P;

/**
 * Params whose required `_meta` the client fills from its options (RULES.requestMeta,
 * 2026-07-28): the caller may leave `_meta` out or give only some of its keys.
 */
export type MetaFilled<P> = P extends { _meta: infer M } ? Omit<P, "_meta"> & { _meta?: Partial<M> } : P;

type ParamsOf<S extends RequestSpec, Filled extends boolean> = (S["taskAugmentable"] extends true ? WithoutTask<S["params"]> : S["params"]) extends infer P
  ? Filled extends true
    ? MetaFilled<P>
    : P
  : never;

/**
 * The arguments after the method name: params and options. Params are optional where the schema
 * allows, and where the caller fills `_meta` (`Filled`) and every other field is optional
 * (2026-07-28 `tools/list`: `request("tools/list")`). `R` is the type of the options'
 * `returnInputRequired`, inferred from a call so that it can select the result type (InputAnswered).
 */
export type RequestArgs<S extends RequestSpec, Filled extends boolean = false, R extends boolean = boolean> = S["paramsRequired"] extends true
  ? Filled extends true
    ? Record<never, never> extends ParamsOf<S, Filled>
      ? [params?: ParamsOf<S, Filled>, options?: CallOptions<S, R>]
      : [params: ParamsOf<S, Filled>, options?: CallOptions<S, R>]
    : [params: ParamsOf<S, Filled>, options?: CallOptions<S, R>]
  : [params?: ParamsOf<S, Filled>, options?: CallOptions<S, R>];

type CallOptions<S extends RequestSpec, R extends boolean> = OptionsFor<S> & { returnInputRequired?: R | undefined };

/**
 * What a call that the server may answer with InputRequiredResult resolves to (multi round-trip
 * requests, 2026-07-28 basic/patterns/mrtr). Where the client answers input requests itself
 * (`Manual` false, the default) it retries until the complete result, or rejects with
 * InputRequiredError: the result is `Complete`. Where the caller drives the rounds
 * (`returnInputRequired: true` on the client or the call; `boolean` when not known) it is either,
 * the InputRequiredResult marked by its `resultType` so that isInputRequired and isComplete
 * (features/mrtr-client.ts) tell them apart. The schema types `resultType` as a string, so a `"content" in r`
 * test cannot: both have an index signature.
 */
export type InputAnswered<Manual extends boolean, Complete, Input> = [Manual] extends [false] ? Complete : Complete | InputRequiredMarked<Input>;

/** An InputRequiredResult of the schema with its `resultType` as the literal the wire carries. */
export type InputRequiredMarked<Input> = Input & { resultType: "input_required" };

/**
 * The notifications a side sends with notify(): every one of its map but notifications/cancelled,
 * which is sent only by the send path (a request's signal, its timeout, ctx.end), so that the
 * cancellation rules cannot be bypassed. (At run time an untyped notify of it gets the same checks.)
 */
export type NotifyMethod<OutN extends object> = Exclude<keyof OutN & string, "notifications/cancelled">;

export type NotifyArgs<S extends NotificationSpec> = S["paramsRequired"] extends true ? [params: S["params"]] : [params?: S["params"]];

/** Params as a handler receives them. */
export type HandlerParams<S extends { params: unknown; paramsRequired: boolean }> = S["paramsRequired"] extends true
  ? S["params"]
  : S["params"] | undefined;

/**
 * The handler context with `notify` and `request` typed for the side that handles. `end()` is
 * there only for the methods whose receiver may end them (`Endable`: the catalog's
 * ReceiverEndableMethod, from RULES.endableByReceiver): anywhere else calling it is a compile error.
 * `input` is there only for the methods that may answer InputRequiredResult (`InputMethod`: the
 * catalog's InputRequiredMethod), typed by its InputRequestMap (`IM`); revisions without multi
 * round-trip requests have neither.
 */
export type TypedHandlerContext<
  Out extends object,
  OutN extends object,
  M = never,
  Endable = never,
  IM extends object = Record<never, never>,
  InputMethod = never,
> = TypedContextBase<Out, OutN> &
  ([M] extends [Endable] ? ([M] extends [never] ? unknown : Pick<HandlerContext, "end">) : unknown) &
  ([M] extends [InputMethod] ? ([M] extends [never] ? unknown : { readonly input: InputContext<IM> }) : unknown);

/** One entry of the catalog's InputRequestMap: an input a server may ask the client for. */
export interface InputSpec {
  params: unknown;
  paramsRequired: boolean;
  result: unknown;
}

/** An input request of the map: its method and params (params optional where the schema allows). */
export type InputRequestOf<IM extends object> = {
  [K in keyof IM & string]: IM[K] extends InputSpec
    ? IM[K]["paramsRequired"] extends true
      ? { method: K; params: IM[K]["params"] }
      : { method: K; params?: IM[K]["params"] }
    : never;
}[keyof IM & string];

/** Input requests by key (server-assigned identifiers; InputRequests). */
export type InputRequestsOf<IM extends object> = { readonly [key: string]: InputRequestOf<IM> };

/** The answers to `R`: each key's answer is the result of the method asked under that key. */
export type InputResponsesOf<IM extends object, R> = {
  -readonly [K in keyof R]: R[K] extends { method: infer M } ? (M extends keyof IM ? (IM[M] extends InputSpec ? IM[M]["result"] : never) : never) : never;
};

/** What ctx.input.required() answers with: an InputRequiredResult of this revision. */
export interface InputRequiredResultOf<IM extends object> {
  resultType: "input_required";
  inputRequests?: { [key: string]: InputRequestOf<IM> };
  requestState?: string;
}

/**
 * `ctx.input` (multi round-trip requests, 2026-07-28 basic/patterns/mrtr): ask the client for
 * input and read its answers on the retry.
 */
export interface InputContext<IM extends object> {
  /** Whether this request's client capabilities (its `_meta`) allow asking for `method` with these params. */
  supports<K extends keyof IM & string>(method: K, params?: IM[K] extends InputSpec ? IM[K]["params"] : never): boolean;
  /**
   * The state this handler gave `required()` in the previous round, when the retry carries it:
   * verified (signed by this server, unexpired, issued for this method, name and arguments), or
   * the request is refused before the handler runs. Undefined when the request carried none.
   * `S` is what the handler sealed (the server's own JSON; not checked again).
   */
  state<S = unknown>(): S | undefined;
  /**
   * The answers to `requests` when the retry carries a valid one for every key (each typed by
   * the method asked); undefined when any is missing: ask again. A malformed answer is refused
   * (-32602); answers to other keys are ignored.
   */
  responses<R extends InputRequestsOf<IM>>(requests: R): InputResponsesOf<IM, R> | undefined;
  /**
   * An InputRequiredResult asking for `requests`, with `options.state` sealed into its
   * `requestState`; return it from the handler. Refused with MissingRequiredClientCapabilityError
   * when the client's capabilities do not cover a request (check with `supports`).
   */
  required(requests: InputRequestsOf<IM>, options?: RequiredOptions): Promise<InputRequiredResultOf<IM>>;
}

export interface TypedContextBase<Out extends object, OutN extends object> extends Omit<HandlerContext, "notify" | "request" | "end"> {
  notify<M extends NotifyMethod<OutN>>(method: M, ...args: OutN[M] extends NotificationSpec ? NotifyArgs<OutN[M]> : never): Promise<void>;
  request<M extends keyof Out & string>(
    method: M,
    ...args: Out[M] extends RequestSpec ? RequestArgs<Out[M]> : never
  ): Promise<Out[M] extends RequestSpec ? Out[M]["result"] : never>;
}

/**
 * Request handlers keyed by method, typed from the catalog; `Endable`, `IM` and `InputMethod` as
 * in TypedHandlerContext. A handler of an InputMethod may also answer what ctx.input.required() makes.
 * `Results` (the generated server's HandlerResultMap) replaces a method's result types by what its
 * handler may answer: the complete results with the fields the server fills left optional
 * (WithDefaults), without the schema's InputRequiredResult (InputRequiredResultOf stands for it), so
 * that a wrong result is reported against the complete result type rather than InputRequiredResult.
 */
export type RequestHandlers<
  In extends object,
  Out extends object,
  OutN extends object,
  Endable = never,
  IM extends object = Record<never, never>,
  InputMethod = never,
  Results extends object = Record<never, never>,
> = {
  [M in keyof In]?: In[M] extends RequestSpec
    ? (
        params: HandlerParams<In[M]>,
        ctx: TypedHandlerContext<Out, OutN, M, Endable, IM, InputMethod>,
      ) => HandlerResult<(M extends keyof Results ? Results[M] : In[M]["result"]) | ([M] extends [InputMethod] ? InputRequiredResultOf<IM> : never)>
    : never;
};

/**
 * A result type `R` with the fields `K` optional: the server fills them where a handler leaves them
 * out (`resultType: "complete"`, the caching hints of the `resultDefaults` option). A key-remapping
 * mapped type, so that the schema's index signature and the other fields' modifiers are kept.
 */
export type WithDefaults<R, K extends string> = { [P in keyof R as P extends K ? never : P]: R[P] } & { [P in keyof R as P extends K ? P : never]?: R[P] };

type HandlerResult<R> = R | Promise<R>;

/** Notification handlers keyed by method. */
export type NotificationHandlers<InN extends object> = {
  [M in keyof InN]?: InN[M] extends NotificationSpec ? (params: HandlerParams<InN[M]>) => void | Promise<void> : never;
};
