// The two sides of an MCP App (io.modelcontextprotocol/ui), untyped: the App (the iframe) and the
// Host (the page that embeds it), each one core Endpoint over a transport (apps/post-message.ts in
// a browser), so the send path and the receive path are the revisions' own: an AbortSignal on
// every request sends notifications/cancelled, every handler gets ctx.signal, timeouts and late
// responses as everywhere. The generated apps/app.ts and apps/host.ts give them the catalog's
// types; what differs between protocol versions (methods, the handshake, the version) comes from
// the generated catalog (UiCatalog), never from here. Browser-safe: core/ only.

import { Endpoint, type AnyNotificationHandler, type AnyRequestHandler, type EndpointOptions } from "../core/endpoint.js";
import { isObject, type JsonObject } from "../core/json.js";
import type { CancellationEvent, CancellationRules, Logger, RequestOptions, Transport } from "../core/protocol.js";
import { methodPolicies, type MethodPolicySource } from "../facade/shared.js";

/** What the runtime reads of the generated apps/catalog.ts. */
export interface UiCatalog {
  readonly METHODS: readonly MethodPolicySource[];
  readonly RULES: CancellationRules;
  /** The App's first request and the notification it sends once answered. */
  readonly LIFECYCLE: { readonly request: string; readonly initialized: string };
  /** The protocol version the App asks for and the Host answers. */
  readonly PROTOCOL_VERSION: string;
}

/** Options both sides take (the generated McpUiAppOptions and McpUiHostOptions extend it with types). */
export interface UiSideOptions {
  readonly handlers?: object | undefined;
  readonly notificationHandlers?: object | undefined;
  /** Cancellation log lines; default: one line on the console; null: silent. */
  readonly logger?: Logger | null | undefined;
  readonly onCancellation?: ((event: CancellationEvent) => void) | undefined;
  /** Timeout (ms) of requests that set none (default 60 s; 0: none). */
  readonly defaultTimeoutMs?: number | undefined;
  readonly defaultMaxTotalTimeoutMs?: number | undefined;
  /** Requests of the other side handled at once (default 1024; Infinity: no bound); one more is answered -32603 naming this option. */
  readonly maxRequestsInFlight?: number | undefined;
  /** Transport errors, messages that could not be handled, and (without onReport) dropped postMessage messages. */
  readonly onError?: ((error: Error) => void) | undefined;
}

function endpointOptions(options: UiSideOptions, handlers: Record<string, AnyRequestHandler | undefined>, notificationHandlers: Record<string, AnyNotificationHandler | undefined>): EndpointOptions {
  return {
    handlers,
    notificationHandlers,
    logger: options.logger,
    onCancellation: options.onCancellation,
    defaultTimeoutMs: options.defaultTimeoutMs,
    defaultMaxTotalTimeoutMs: options.defaultMaxTotalTimeoutMs,
    maxRequestsInFlight: options.maxRequestsInFlight,
    onError: options.onError,
  };
}

/** What both sides do once their endpoint is made: requests, notifications, the in-flight counts, close. */
abstract class UiSide {
  protected readonly endpoint: Endpoint;

  constructor(endpoint: Endpoint) {
    this.endpoint = endpoint;
  }

  request(method: string, params?: object, options?: RequestOptions): Promise<unknown> {
    return this.endpoint.request(method, params, options);
  }

  notify(method: string, params?: object): Promise<void> {
    return this.endpoint.notify(method, params);
  }

  get inFlight(): { readonly sent: number; readonly received: number } {
    return this.endpoint.inFlight;
  }

  close(): Promise<void> {
    return this.endpoint.close();
  }
}

/** What the App says of itself in its first request. */
export interface UiAppIdentity {
  readonly appInfo: object;
  readonly appCapabilities?: object | undefined;
}

/** The App side: connect() performs the handshake, then requests and notifications go to the Host. */
export class UiAppCore extends UiSide {
  readonly #catalog: UiCatalog;
  readonly #identity: UiAppIdentity;
  #host: JsonObject | undefined;

  constructor(catalog: UiCatalog, identity: UiAppIdentity, options: UiSideOptions) {
    const handlers = { ...(options.handlers as Record<string, AnyRequestHandler | undefined> | undefined) };
    const notificationHandlers = { ...(options.notificationHandlers as Record<string, AnyNotificationHandler | undefined> | undefined) };
    super(new Endpoint("client", methodPolicies(catalog.METHODS), catalog.RULES, endpointOptions(options, handlers, notificationHandlers)));
    this.#catalog = catalog;
    this.#identity = identity;
  }

  /**
   * Attaches the transport, sends the handshake request (appInfo, appCapabilities, the protocol
   * version) and, once answered, its initialized notification. Resolves with the Host's answer.
   * `options.signal` cancels the handshake (notifications/cancelled; the promise rejects).
   */
  async connect(transport: Transport, options?: RequestOptions): Promise<JsonObject> {
    if (this.#host !== undefined) throw new Error("this app is already connected");
    await this.endpoint.connect(transport);
    const { request, initialized } = this.#catalog.LIFECYCLE;
    const params = { appInfo: this.#identity.appInfo, appCapabilities: this.#identity.appCapabilities ?? {}, protocolVersion: this.#catalog.PROTOCOL_VERSION };
    const result = await this.endpoint.request(request, params, options);
    if (!isObject(result)) throw new TypeError(`${request}: the host answered no object`);
    this.#host = result;
    await this.endpoint.notify(initialized, {});
    return result;
  }

  /** The Host's answer to the handshake; undefined before connect() resolved. */
  get host(): JsonObject | undefined {
    return this.#host;
  }
}

/** What the Host answers the handshake with. */
export interface UiHostIdentity {
  readonly hostInfo: object;
  readonly hostCapabilities?: object | undefined;
  readonly hostContext?: object | undefined;
}

/**
 * The Host side: answers the App's handshake itself (a handler of the handshake in `handlers`
 * wins), and `initialized` resolves with the App's handshake params once the App's initialized
 * notification arrives. `extraHandlers` (the bridge to an MCP client, apps/host-bridge.ts) sit
 * under the caller's own handlers.
 */
export class UiHostCore extends UiSide {
  /** What the handshake handlers learn (kept apart from `this`, which they are made before). */
  readonly #heard: { app: JsonObject | undefined };
  /** Resolves with the App's handshake params once it sent its initialized notification. */
  readonly initialized: Promise<JsonObject>;

  constructor(catalog: UiCatalog, identity: UiHostIdentity, options: UiSideOptions, extraHandlers: Readonly<Record<string, AnyRequestHandler>> = {}) {
    const heard: { app: JsonObject | undefined } = { app: undefined };
    let resolveInitialized: (params: JsonObject) => void = () => {};
    const initializedApp = new Promise<JsonObject>((resolve) => (resolveInitialized = resolve));
    const { request, initialized } = catalog.LIFECYCLE;
    const own = options.handlers as Record<string, AnyRequestHandler | undefined> | undefined;
    const ownNotifications = options.notificationHandlers as Record<string, AnyNotificationHandler | undefined> | undefined;
    const handlers: Record<string, AnyRequestHandler | undefined> = {
      ...extraHandlers,
      [request]: (params) => {
        heard.app = params ?? {};
        return { protocolVersion: catalog.PROTOCOL_VERSION, hostInfo: identity.hostInfo, hostCapabilities: identity.hostCapabilities ?? {}, hostContext: identity.hostContext ?? {} };
      },
      ...own,
    };
    const notificationHandlers: Record<string, AnyNotificationHandler | undefined> = {
      ...ownNotifications,
      [initialized]: (params) => {
        // The App's initialized notification before its handshake request is out of order: ignored.
        if (heard.app !== undefined) resolveInitialized(heard.app);
        return ownNotifications?.[initialized]?.(params);
      },
    };
    super(new Endpoint("server", methodPolicies(catalog.METHODS), catalog.RULES, endpointOptions(options, handlers, notificationHandlers)));
    this.#heard = heard;
    this.initialized = initializedApp;
  }

  /** Attaches the transport and starts it; the App's handshake follows (see `initialized`). */
  connect(transport: Transport): Promise<void> {
    return this.endpoint.connect(transport);
  }

  /** The App's handshake params; undefined until its handshake request arrived. */
  get app(): JsonObject | undefined {
    return this.#heard.app;
  }
}
