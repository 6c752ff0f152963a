// The behaviour of the generated McpClient (client.ts keeps only its typed shell): the `_meta`
// every request carries where the lifecycle is stateless, answering InputRequiredResult through
// the handlers (multi round-trip requests). All of it is driven by the revision's data, a
// ClientDescriptor that client.ts renders from the catalog, and is type-checked here, in place,
// rather than after generation. Task handles (the Tasks extension) are facade/client-tasks.ts's, which
// only a client with the extension imports.

import type { EndpointOptions, SendHook } from "../core/endpoint.js";
import { untypedHandlers, untypedNotificationHandlers, type FacadeOptions } from "./shared.js";
import { wireChecks, type WireValidators } from "../core/validation.js";
import type { AnswerInputOptions } from "../features/mrtr-client.js";
import type { InputRequiredRules } from "../features/mrtr-rules.js";
import type { JsonObject } from "../core/protocol.js";
import { numberOption } from "../core/options.js";
import { createToolOutputCheck, type ToolOutputOptions } from "../features/tool-output.js";
import type { CachedList, ListCache, ListCacheOptions } from "../features/list-cache.js";

/** One revision's client, as data: everything the runtime needs to know of it (client.ts's CLIENT). */
export interface ClientDescriptor {
  /** The revision the client was generated from (the catalog's REVISION): the default `protocolVersion`. */
  readonly revision: string;
  /**
   * The `_meta` keys the client fills on every request from its options (the catalog's
   * RULES.requestMeta; 2026-07-28, stateless lifecycle); null: none.
   */
  readonly requestMeta: { readonly protocolVersion: string; readonly clientCapabilities: string; readonly clientInfo: string } | null;
  /** JSON-RPC batches are received over stdio and in memory (the catalog's ERA.batches: 2025-03-26). */
  readonly batches: boolean;
  /**
   * Multi round-trip requests, answered through the handlers: the catalog's INPUT_REQUIRED and the
   * send-path hook that answers them (features/mrtr-client.ts createAnswerInput, handed in by
   * client.ts so that a revision without them loads none of it); null: none.
   */
  readonly inputRequired: {
    readonly rules: Pick<InputRequiredRules, "methods" | "inputs">;
    readonly create: (options: AnswerInputOptions) => SendHook;
  } | null;
  /** The Tasks extension: the request that cancels a task; null: not merged. */
  readonly tasks: { readonly cancelRequest: string } | null;
  /** The revision's wire validators (validators.ts's VALIDATORS). */
  readonly validators: WireValidators;
  /** The list requests the client caches, and the list_changed that drops each (features/list-cache.ts). */
  readonly lists: readonly CachedList[];
}

/**
 * The options of a generated McpClient the runtime reads; the generated McpClientOptions (of any
 * revision) is assignable to it. Anything else in them goes to the endpoint as it is.
 */
export interface ClientFacadeOptions extends FacadeOptions {
  readonly protocolVersion?: string | undefined;
  readonly capabilities?: object | undefined;
  readonly clientInfo?: object | undefined;
  readonly maxInputRounds?: number | undefined;
  readonly returnInputRequired?: boolean | undefined;
  readonly toolOutput?: ToolOutputOptions | false | undefined;
  readonly listCache?: ListCacheOptions | false | undefined;
}

/** Retries of one request that answers InputRequiredResult, where the client sets no bound. */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** The bound on MRTR retries (maxInputRounds): a non-negative integer, default 10; anything else is a RangeError. */
export function maxInputRounds(value: number | undefined): number {
  return numberOption("maxInputRounds", value, DEFAULT_MAX_INPUT_ROUNDS, { min: 0 });
}

/**
 * The `_meta` entries of every request (stateless lifecycle): the client's version (default: the
 * revision), capabilities (default `{}`, no optional capabilities) and, when given, its info
 * (clients SHOULD identify themselves).
 */
export function clientRequestMeta(keys: NonNullable<ClientDescriptor["requestMeta"]>, revision: string, options: ClientFacadeOptions): JsonObject {
  return {
    [keys.protocolVersion]: options.protocolVersion ?? revision,
    [keys.clientCapabilities]: (options.capabilities ?? {}) as JsonObject,
    ...(options.clientInfo === undefined ? {} : { [keys.clientInfo]: options.clientInfo as JsonObject }),
  };
}

/**
 * The notification handlers, each list_changed first dropping its lists' cached pages (then the
 * application's handler, if any, as before).
 */
function withListCache(handlers: EndpointOptions["notificationHandlers"], cache: ListCache | undefined, lists: readonly CachedList[]): EndpointOptions["notificationHandlers"] {
  if (cache === undefined || lists.length === 0) return handlers;
  const wrapped: Record<string, NonNullable<EndpointOptions["notificationHandlers"]>[string]> = { ...handlers };
  for (const changed of new Set(lists.map((l) => l.changed))) {
    const own = handlers?.[changed];
    wrapped[changed] = (params) => {
      cache.changed(changed);
      return own?.(params);
    };
  }
  return wrapped;
}

/** The client's endpoint options: its own, with the revision's rules wired in (and its list cache, if any). */
export function clientEndpointOptions(client: ClientDescriptor, options: ClientFacadeOptions, cache?: ListCache): EndpointOptions {
  return {
    ...options,
    batches: client.batches,
    ...(client.requestMeta === null ? {} : { requestMeta: clientRequestMeta(client.requestMeta, client.revision, options) }),
    // Tasks extension: a result with resultType "task" is a task handle, cancelled with its cancel request.
    ...(client.tasks === null ? {} : { tasks: { cancelRequest: client.tasks.cancelRequest } }),
    handlers: untypedHandlers(options.handlers),
    notificationHandlers: withListCache(untypedNotificationHandlers(options.notificationHandlers), cache, client.lists),
    // What the server sends is checked against the schema: its requests and notifications, the results.
    validate: wireChecks(client.validators, options.validate),
    // Tools' structured results checked against the outputSchema of tools/list (unless turned off).
    ...(options.toolOutput === false ? {} : { checkResult: createToolOutputCheck(options.toolOutput) }),
    // InputRequiredResult answered through the handlers and retried, unless the caller drives
    // the rounds (returnInputRequired here, or in a call's options, which win).
    ...(client.inputRequired === null
      ? {}
      : {
          answerInput: client.inputRequired.create({
            methods: new Set<string>(client.inputRequired.rules.methods),
            inputs: new Set<string>(Object.keys(client.inputRequired.rules.inputs)),
            maxRounds: maxInputRounds(options.maxInputRounds),
            returnInputRequired: options.returnInputRequired === true,
          }),
        }),
  };
}
