// Types that turn the catalog maps (catalog.ts) into the typed client and server API.
// Revision-independent: what differs by revision (the maps, the methods whose receiver may end
// them) comes in as type parameters, which client.ts and server.ts fill from the catalog.

import type { HandlerContext } from "./endpoint.js";
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

/** The arguments after the method name: params (optional where the schema allows) and options. */
export type RequestArgs<S extends RequestSpec, Filled extends boolean = false> = S["paramsRequired"] extends true
  ? [params: ParamsOf<S, Filled>, options?: OptionsFor<S>]
  : [params?: ParamsOf<S, Filled>, options?: OptionsFor<S>];

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
 */
export type TypedHandlerContext<Out extends object, OutN extends object, M = never, Endable = never> = TypedContextBase<Out, OutN> &
  ([M] extends [Endable] ? ([M] extends [never] ? unknown : Pick<HandlerContext, "end">) : unknown);

export interface TypedContextBase<Out extends object, OutN extends object> extends Omit<HandlerContext, "notify" | "request" | "end"> {
  notify<M extends NotifyMethod<OutN>>(method: M, ...args: OutN[M] extends NotificationSpec ? NotifyArgs<OutN[M]> : never): Promise<void>;
  request<M extends keyof Out & string>(
    method: M,
    ...args: Out[M] extends RequestSpec ? RequestArgs<Out[M]> : never
  ): Promise<Out[M] extends RequestSpec ? Out[M]["result"] : never>;
}

/** Request handlers keyed by method, typed from the catalog; `Endable` as in TypedHandlerContext. */
export type RequestHandlers<In extends object, Out extends object, OutN extends object, Endable = never> = {
  [M in keyof In]?: In[M] extends RequestSpec
    ? (params: HandlerParams<In[M]>, ctx: TypedHandlerContext<Out, OutN, M, Endable>) => In[M]["result"] | Promise<In[M]["result"]>
    : never;
};

/** Notification handlers keyed by method. */
export type NotificationHandlers<InN extends object> = {
  [M in keyof InN]?: InN[M] extends NotificationSpec ? (params: HandlerParams<InN[M]>) => void | Promise<void> : never;
};
