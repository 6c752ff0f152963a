// What the generated McpClient and McpServer (client.ts, server.ts) share: the method policy
// table the endpoint reads, built from the catalog's METHODS, and the one place where a typed
// handler table becomes the untyped one the endpoint calls.

import type { AnyNotificationHandler, AnyRequestHandler } from "../core/endpoint.js";
import type { MethodPolicy } from "../core/outgoing.js";
import type { CancellationEvent, Logger } from "../core/protocol.js";
import type { ValidateOption } from "../core/validation.js";

/**
 * The options both generated facades read and hand to their endpoint (the generated
 * McpClientOptions and McpServerOptions of any revision are assignable to the facade options
 * that extend it); anything else in them goes to the endpoint as it is.
 */
export interface FacadeOptions {
  readonly handlers?: object | undefined;
  readonly notificationHandlers?: object | undefined;
  readonly logger?: Logger | null | undefined;
  readonly onCancellation?: ((event: CancellationEvent) => void) | undefined;
  readonly defaultTimeoutMs?: number | undefined;
  readonly defaultMaxTotalTimeoutMs?: number | undefined;
  readonly maxRequestsInFlight?: number | undefined;
  readonly onError?: ((error: Error) => void) | undefined;
  /** What the peer sends is checked against the revision's schema (validators.ts): see ValidateOption. */
  readonly validate?: ValidateOption | undefined;
}

/** One entry of the catalog's METHODS, as far as the endpoint's policy is concerned. */
export interface MethodPolicySource extends MethodPolicy {
  readonly method: string;
  readonly kind: "request" | "notification";
}

/**
 * Cancellation rules and params requirement of every request, keyed by method: the same table
 * both sides read (Cancellation, Behavior Requirements; the schema's `required` params).
 */
export function methodPolicies(methods: readonly MethodPolicySource[]): ReadonlyMap<string, MethodPolicy> {
  return new Map(
    methods
      .filter((m) => m.kind === "request")
      .map((m): [string, MethodPolicy] => [m.method, { cancellable: m.cancellable, taskAugmentable: m.taskAugmentable, paramsRequired: m.paramsRequired }]),
  );
}

/**
 * A typed handler table as the endpoint takes it. The typed tables are keyed by method and each
 * handler is called with that method's params, which is what the untyped endpoint does.
 */
export function untypedHandlers(handlers: object | undefined): Readonly<Record<string, AnyRequestHandler | undefined>> | undefined {
  return handlers as Readonly<Record<string, AnyRequestHandler | undefined>> | undefined;
}

/** A typed notification handler table as the endpoint takes it (see untypedHandlers). */
export function untypedNotificationHandlers(handlers: object | undefined): Readonly<Record<string, AnyNotificationHandler | undefined>> | undefined {
  return handlers as Readonly<Record<string, AnyNotificationHandler | undefined>> | undefined;
}
