// What the generated McpClient's connect() does once its transport is attached: the handshake of
// its revision, as data (the client's CLIENT.handshake, rendered from the schema's methods). In
// the session era (basic/lifecycle, Initialization) the client sends `initialize` with its
// version, capabilities and info, checks the version the server answers (Version Negotiation: a
// client that cannot speak it SHOULD disconnect) and then sends `notifications/initialized`,
// which is also what a session HTTP client waits for to open its GET notification stream. In the
// stateless era (2026-07-28) it sends `server/discover` (its `_meta` carries the client's version)
// and checks that the server lists that version among its supportedVersions.

import { ConnectionClosedError, McpError, type JsonObject } from "../core/protocol.js";

/** One revision's handshake, as data (client.ts's CLIENT.handshake). */
export interface HandshakeRules {
  /** The request that opens the conversation: `initialize` or `server/discover`. */
  readonly request: string;
  /** The notification sent once it is answered (`notifications/initialized`); null: none. */
  readonly initialized: string | null;
  /**
   * Where the result says which versions the server speaks: `protocolVersion` (one string, the
   * version the server chose, initialize) or `supportedVersions` (a list, server/discover).
   */
  readonly versionField: string;
  /** The request's params carry protocolVersion, capabilities and clientInfo (initialize); false: the `_meta` of every request does (requestMeta). */
  readonly declaresInParams: boolean;
  /** Where the result names the server: a field of the result (`serverInfo`), or a key of its `_meta`. */
  readonly serverInfo: { readonly in: "result" | "meta"; readonly key: string };
  /** The protocol versions this client can speak (its revision first). */
  readonly versions: readonly string[];
  /**
   * Where change notifications come by a request of their own (2026-07-28, subscriptions/listen):
   * the request, its filter param, and each filter field with the server capability whose
   * `listChanged` turns it on; null: they come on the session (the session HTTP client's GET
   * stream opens once the initialized notification went out).
   */
  readonly listen: { readonly request: string; readonly filterParam: string; readonly fields: Readonly<Record<string, string>> } | null;
  /**
   * The error code with which a server refuses the request's protocol version and lists the ones
   * it supports in `data.supported` (2026-07-28 UnsupportedProtocolVersionError); null where the
   * revision has none (a 2025 server answers initialize with a version of its own instead).
   */
  readonly versionRefused: number | null;
}

/** What the server said of itself in the handshake (McpClient's serverCapabilities, serverVersion, instructions). */
export interface ServerDescription {
  /** The protocol version in use: the one the server chose (initialize), or the client's own (server/discover). */
  readonly protocolVersion: string;
  readonly capabilities: JsonObject;
  readonly serverInfo: JsonObject | undefined;
  readonly instructions: string | undefined;
  /** The whole result, as the server sent it. */
  readonly result: JsonObject;
}

/** The server answered a protocol version this client cannot speak (basic/lifecycle, Version Negotiation); the client closed the transport. */
export class VersionNegotiationError extends Error {
  override readonly name: string = "VersionNegotiationError";
  /** What the server offered: the version it chose, or the versions it supports. */
  readonly offered: readonly string[];
  /** The versions this client speaks. */
  readonly supported: readonly string[];
  constructor(offered: readonly string[], supported: readonly string[]) {
    super(`the server speaks protocol version ${offered.length === 0 ? "(none)" : offered.join(", ")}; this client speaks ${supported.join(", ")}`);
    this.offered = offered;
    this.supported = supported;
  }
}

/** What connect() needs of the client: its endpoint's request and notify, and its close. */
export interface HandshakePeer {
  request(method: string, params: object | undefined, options?: { readonly timeoutMs?: number | undefined }): Promise<unknown>;
  notify(method: string, params?: object): Promise<void>;
  close(): Promise<void>;
}

/** The client's own declarations, from its options (initialize's params; ignored where `_meta` carries them). */
export interface HandshakeDeclarations {
  readonly protocolVersion?: string | undefined;
  readonly capabilities?: object | undefined;
  readonly clientInfo?: object | undefined;
}

/** clientInfo where the options give none (initialize requires one). */
export const DEFAULT_CLIENT_INFO: { readonly name: string; readonly version: string } = { name: "mcp-stubgen-client", version: "0.0.0" };

/**
 * Runs the handshake over a connected client: sends the request, checks the version, sends the
 * initialized notification, and returns what the server said of itself. A version this client
 * cannot speak closes the client and rejects with VersionNegotiationError; a failed
 * request rejects as it failed (the client stays open: the caller may close it or retry).
 */
export async function performHandshake(peer: HandshakePeer, rules: HandshakeRules, declared: HandshakeDeclarations): Promise<ServerDescription> {
  const ours = declared.protocolVersion ?? rules.versions[0]!;
  const params = rules.declaresInParams
    ? { protocolVersion: ours, capabilities: declared.capabilities ?? {}, clientInfo: declared.clientInfo ?? DEFAULT_CLIENT_INFO }
    : {};
  try {
    const result = await askOnce(peer, rules, params);
    const version = negotiated(rules, result, ours);
    if (version === undefined) throw new VersionNegotiationError(offeredVersions(result[rules.versionField]), rules.versions);
    if (rules.initialized !== null) await peer.notify(rules.initialized);
    return describe(rules, result, version);
  } catch (error) {
    // A client that could not connect is not left half-open (the SDK's client closes too).
    await peer.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Sends the handshake request; refused for its version (rules.versionRefused), it asks once more
 * where the refusal lists a version this client speaks (basic/lifecycle, Version Negotiation: the
 * client MAY retry with a version from `supported`; every version this client speaks goes out
 * the same way, so the retry repeats the request), and gives up with VersionNegotiationError
 * where it lists none. A second refusal rejects as the server sent it.
 */
async function askOnce(peer: HandshakePeer, rules: HandshakeRules, params: object): Promise<JsonObject> {
  try {
    return (await peer.request(rules.request, params)) as JsonObject;
  } catch (error) {
    if (!(error instanceof McpError) || rules.versionRefused === null || error.code !== rules.versionRefused) throw error;
    const data = error.data;
    const supported = offeredVersions(typeof data === "object" && data !== null ? (data as JsonObject)["supported"] : undefined);
    if (!supported.some((v) => rules.versions.includes(v))) throw new VersionNegotiationError(supported, rules.versions);
    return (await peer.request(rules.request, params)) as JsonObject;
  }
}

/**
 * What the server said of itself in a handshake result the caller asked for by hand
 * (`initialize()` or `discover()` after `connect(t, { initialize: false })`); undefined where the
 * result names no version this client speaks (the caller then decides, as the spec leaves it).
 */
export function heardServer(rules: HandshakeRules, result: unknown, declared: string | undefined): ServerDescription | undefined {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return undefined;
  const version = negotiated(rules, result as JsonObject, declared ?? rules.versions[0]!);
  return version === undefined ? undefined : describe(rules, result as JsonObject, version);
}

/**
 * The listen filter that asks for every list_changed the server's capabilities offer (each
 * filter field whose capability has `listChanged: true`); undefined: none offered, or no listen
 * request in this revision.
 */
export function listenFilter(rules: HandshakeRules, capabilities: JsonObject): JsonObject | undefined {
  if (rules.listen === null) return undefined;
  const filter: Record<string, boolean> = {};
  for (const [field, capability] of Object.entries(rules.listen.fields)) {
    const offered = capabilities[capability];
    if (typeof offered === "object" && offered !== null && (offered as JsonObject)["listChanged"] === true) filter[field] = true;
  }
  return Object.keys(filter).length === 0 ? undefined : filter;
}

/**
 * Opens the listen stream where the server offers list_changed (listenFilter): a long-lived
 * request whose notifications reach the client's notificationHandlers. It ends when the client
 * closes (its rejection then is dropped); any other failure goes to `onError`.
 */
export function openListenStream(peer: HandshakePeer, rules: HandshakeRules, capabilities: JsonObject, onError: (error: Error) => void): boolean {
  const filter = listenFilter(rules, capabilities);
  if (filter === undefined || rules.listen === null) return false;
  peer.request(rules.listen.request, { [rules.listen.filterParam]: filter }).catch((error: unknown) => {
    if (!(error instanceof ConnectionClosedError)) onError(error instanceof Error ? error : new Error(String(error)));
  });
  return true;
}

/** The versions a result offers: the one chosen, or the list. */
function offeredVersions(field: unknown): readonly string[] {
  const list = Array.isArray(field) ? field : [field];
  return list.filter((v): v is string => typeof v === "string");
}

/**
 * The version in use, or undefined where there is none both sides speak: the server's choice if
 * the client speaks it (initialize), else the client's own version if the server lists it.
 */
function negotiated(rules: HandshakeRules, result: JsonObject, ours: string): string | undefined {
  const offered = offeredVersions(result[rules.versionField]);
  if (!Array.isArray(result[rules.versionField])) return offered.find((v) => rules.versions.includes(v));
  return offered.includes(ours) ? ours : undefined;
}

function describe(rules: HandshakeRules, result: JsonObject, protocolVersion: string): ServerDescription {
  const meta = result["_meta"];
  const holder = rules.serverInfo.in === "result" ? result : typeof meta === "object" && meta !== null ? (meta as JsonObject) : {};
  const info = holder[rules.serverInfo.key];
  const capabilities = result["capabilities"];
  const instructions = result["instructions"];
  return {
    protocolVersion,
    capabilities: typeof capabilities === "object" && capabilities !== null ? (capabilities as JsonObject) : {},
    serverInfo: typeof info === "object" && info !== null ? (info as JsonObject) : undefined,
    instructions: typeof instructions === "string" ? instructions : undefined,
    result,
  };
}
