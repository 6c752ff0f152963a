// What differs between the protocol versions a session may negotiate (2025-03-26, 2025-06-18,
// 2025-11-25 basic/transports, "Streamable HTTP"): the server's generated `sessionBinding` (the
// catalog's ERA), read once into a table. The runtime knows none of the versions itself.

import { isObject } from "../../core/json.js";
import { describeValue, type Transport } from "../../core/protocol.js";
import type { Connection } from "../../core/endpoint.js";
import type { HeaderView } from "../server/call.js";
import type { Refusal } from "../server/replies.js";

/** What a revision's transport page asks of the server, by the protocol version a session negotiated. */
export interface SessionVersionRules {
  /**
   * HTTP, Protocol Version Header (2025-06-18 and later): the client sends the negotiated version
   * on every request after initialize; a value the server does not support is answered 400.
   */
  readonly versionHeader: boolean;
  /**
   * HTTP, Sending Messages to the Server (2025-11-25): the server SHOULD open an SSE stream with
   * an event of an id and empty data, so the client may resume it ("priming").
   */
  readonly priming: boolean;
  /**
   * HTTP, Sending Messages to the Server (2025-03-26 only; 2025-06-18 removed JSON-RPC
   * batching): a POST body may be an array of requests and notifications, or of responses.
   */
  readonly batches: boolean;
}

/** What createSessionHttpHandler needs to know of a revision: generated data (the catalog's ERA, McpServer.sessionBinding). */
export interface SessionBinding {
  /**
   * The protocol versions a session may negotiate, oldest first, with what each one's transport
   * page asks. A session whose version is none of them gets the first (the oldest) one's rules.
   */
  readonly versions: { readonly [version: string]: SessionVersionRules };
}

/** A server createSessionHttpHandler can serve: a generated McpServer of a session revision. */
export interface SessionServable {
  openConnection(transport: Transport): Connection;
  readonly sessionBinding: SessionBinding;
}

/** The binding's versions as the handler reads them, checked once. */
export class VersionTable {
  readonly #rules: ReadonlyMap<string, SessionVersionRules>;
  /** The rules of a session whose version is not in the table (the oldest version's). */
  readonly oldest: SessionVersionRules;
  /** The versions, oldest first. */
  readonly versions: readonly string[];
  /** The versions, for the messages that name them. */
  readonly list: string;

  constructor(binding: unknown) {
    const versions = isObject(binding) ? binding["versions"] : undefined;
    const entries = isObject(versions) ? Object.entries(versions) : [];
    const valid = (rules: unknown): rules is SessionVersionRules =>
      isObject(rules) && typeof rules["versionHeader"] === "boolean" && typeof rules["priming"] === "boolean" && typeof rules["batches"] === "boolean";
    if (entries.length === 0 || !entries.every(([, rules]) => valid(rules))) {
      throw new TypeError(`createSessionHttpHandler needs a generated McpServer of a session revision (sessionBinding.versions: version → { versionHeader, priming, batches }), got ${describeValue(versions)}`);
    }
    this.#rules = new Map(entries as [string, SessionVersionRules][]);
    this.oldest = entries[0]![1] as SessionVersionRules;
    this.versions = entries.map(([version]) => version);
    this.list = this.versions.join(", ");
  }

  /** The rules of a version in the table; undefined for another. */
  get(version: string): SessionVersionRules | undefined {
    return this.#rules.get(version);
  }

  /** The rules of a session of this version: its own, or the oldest version's. */
  of(version: string | undefined): SessionVersionRules {
    return (version === undefined ? undefined : this.#rules.get(version)) ?? this.oldest;
  }

  /** The 400 of an MCP-Protocol-Version header this server does not support. */
  unsupported(version: string): Refusal {
    return { status: 400, message: `Bad Request: unsupported MCP-Protocol-Version ${describeValue(version)} (supported: ${this.list})` };
  }

  /**
   * The refusal of a version header a session does not accept (HTTP, Protocol Version Header), or
   * undefined. Absent: "the server SHOULD assume" the negotiated version (or 2025-03-26 without one).
   * The MUST is about "an invalid or unsupported MCP-Protocol-Version" (400): a version this server
   * supports is served even when the session negotiated another (the session keeps its own rules),
   * as the SDKs do; the stable conformance referee (0.1.16, server-sse-multiple-streams) sends
   * 2025-03-26 on a 2025-11-25 session. A malformed or unknown value is 400.
   */
  headerProblem(headers: HeaderView, session: { readonly rules: SessionVersionRules }): Refusal | undefined {
    const version = headers.get("mcp-protocol-version");
    if (version === null || !session.rules.versionHeader) return undefined;
    return this.get(version) === undefined ? this.unsupported(version) : undefined;
  }
}
