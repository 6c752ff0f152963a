// What a stateless request's head and `_meta` must agree on before it is served (2026-07-28
// basic/transports/streamable-http, abbreviated "HTTP": Protocol Version Header, Standard Request
// Headers, Server Behavior for Custom Headers; basic/index, `_meta`; basic/versioning). Each
// check gives the refusal (an error response naming the request) or undefined.

import { isObject } from "../../core/json.js";
import { describeValue, ErrorCode, type JsonObject, type RequestId } from "../../core/protocol.js";
import { argumentAt, decodeHeaderValue, headerMatches } from "../headers.js";
import type { HeaderView } from "../server/call.js";
import type { Refusal } from "../server/replies.js";
import type { HttpBinding } from "./binding.js";
import type { ToolHeader } from "../headers.js";
import type { ToolHeaders } from "./tool-headers.js";

/** The checks of one handler, with its binding's facts read once. */
export class RequestChecks {
  readonly #binding: HttpBinding;
  readonly #annotations: ToolHeaders | null;
  readonly #supported: readonly string[];
  readonly #versionsText: string;

  constructor(binding: HttpBinding, annotations: ToolHeaders | null) {
    this.#binding = binding;
    this.#annotations = annotations;
    this.#supported = [...binding.supportedVersions];
    this.#versionsText = this.#supported.join(", ");
  }

  headerMismatch(id: RequestId | undefined, text: string): Refusal {
    return { status: 400, id, code: this.#binding.errors.headerMismatch, message: `Header mismatch: ${text}` };
  }

  unsupported(id: RequestId | undefined, requested: string): Refusal {
    return { status: 400, id, code: this.#binding.errors.unsupportedProtocolVersion, message: "Unsupported protocol version", data: { supported: this.#supported, requested } };
  }

  /** A notification's headers (HTTP, Sending Messages: not required, but those sent must agree with the body). */
  notification(headers: HeaderView, method: string): Refusal | undefined {
    const methodHeader = headers.get("mcp-method");
    if (methodHeader !== null && methodHeader !== method) return this.headerMismatch(undefined, `Mcp-Method ${describeValue(methodHeader)} does not match the body method ${describeValue(method)}`);
    const version = headers.get("mcp-protocol-version");
    if (version !== null && !this.#supported.includes(version)) return this.unsupported(undefined, version);
    return undefined;
  }

  /** A request's version, `_meta`, and the headers that mirror its body; a tools/call's `Mcp-Param-*` may need the annotations read first. */
  request(headers: HeaderView, id: RequestId, method: string, params: JsonObject | undefined): Refusal | undefined | Promise<Refusal | undefined> {
    const legacy = this.#legacyClaim(headers, method, params);
    if (legacy !== null) return this.unsupported(id, legacy);
    const problem = this.#metaProblem(params);
    if (problem !== null) return { status: 400, id, code: ErrorCode.InvalidParams, message: `Invalid params: ${problem}` };
    const claimed = (params!["_meta"] as JsonObject)[this.#binding.meta.protocolVersion] as string;
    // HTTP, Protocol Version Header: required, and equal to the `_meta` version; then supported.
    const version = headers.get("mcp-protocol-version");
    if (version === null) return this.headerMismatch(id, `the MCP-Protocol-Version header is missing (protocol versions: ${this.#versionsText})`);
    if (version !== claimed) return this.headerMismatch(id, `MCP-Protocol-Version header value ${describeValue(version)} does not match body value ${describeValue(claimed)}`);
    if (!this.#supported.includes(claimed)) return this.unsupported(id, claimed);
    const named = this.#nameProblem(headers, method, params);
    if (named !== null) return this.headerMismatch(id, named);
    const tools = this.#binding.toolHeaders;
    const annotations = this.#annotations;
    if (tools === null || method !== tools.call || params === undefined || annotations === null) return undefined;
    const tool = params["name"];
    if (typeof tool !== "string") return undefined;
    const mismatch = (text: string | null): Refusal | undefined => (text === null ? undefined : this.headerMismatch(id, text));
    // The annotations as last read, while they are fresh; else read first.
    const known = annotations.fresh(tool);
    if (known !== undefined) return mismatch(this.#paramHeaderProblem(headers, params, known));
    return annotations.of(tool).then((declarations) => mismatch(this.#paramHeaderProblem(headers, params, declarations)));
  }

  /**
   * The version a request that claims none of this era asks for, or null: no `_meta` version and
   * an `MCP-Protocol-Version` header naming no version served, or none and an `initialize`'s own
   * `protocolVersion` (a client of a revision with the handshake). basic/versioning, Backward
   * Compatibility: "A server that supports only modern versions SHOULD name the protocol versions
   * it supports in any error it returns to an `initialize` request"; UnsupportedProtocolVersion
   * carries them as data (`supported`), which a client can read and act on.
   */
  #legacyClaim(headers: HeaderView, method: string, params: JsonObject | undefined): string | null {
    const m = params?.["_meta"];
    if (isObject(m) && Object.hasOwn(m, this.#binding.meta.protocolVersion)) return null;
    const header = headers.get("mcp-protocol-version");
    if (header !== null) return this.#supported.includes(header) ? null : header;
    const asked = method === "initialize" ? params?.["protocolVersion"] : undefined;
    return typeof asked === "string" ? asked : null;
  }

  /** Invalid params when the request `_meta` lacks a required key or has one of the wrong type (basic/index, `_meta`). */
  #metaProblem(params: JsonObject | undefined): string | null {
    const meta = this.#binding.meta;
    const m = params?.["_meta"];
    if (!isObject(m)) return `every request carries _meta with ${meta.required.join(" and ")} (protocol versions: ${this.#versionsText})`;
    for (const key of meta.required) {
      if (!Object.hasOwn(m, key)) return `_meta lacks ${key} (protocol versions: ${this.#versionsText})`;
    }
    const version = m[meta.protocolVersion];
    if (version !== undefined && typeof version !== "string") return `_meta ${meta.protocolVersion} must be a string`;
    const capabilities = m[meta.clientCapabilities];
    if (capabilities !== undefined && !isObject(capabilities)) return `_meta ${meta.clientCapabilities} must be an object`;
    const client = m[meta.clientInfo];
    if (client !== undefined && !(isObject(client) && typeof client["name"] === "string" && typeof client["version"] === "string")) {
      return `_meta ${meta.clientInfo} must be an object with a string name and version`;
    }
    return null;
  }

  /** HTTP, Standard Request Headers: Mcp-Method on every request, Mcp-Name where the method has a source. */
  #nameProblem(headers: HeaderView, method: string, params: JsonObject | undefined): string | null {
    const methodHeader = headers.get("mcp-method");
    if (methodHeader === null) return "the Mcp-Method header is missing";
    if (methodHeader !== method) return `Mcp-Method header value ${describeValue(methodHeader)} does not match body value ${describeValue(method)}`;
    const sources = this.#binding.nameSources;
    if (!Object.hasOwn(sources, method)) return null;
    const field = sources[method]!;
    const bodyName = params?.[field];
    const nameHeader = headers.get("mcp-name");
    if (nameHeader === null) return typeof bodyName === "string" ? `the Mcp-Name header is missing; the body carries params.${field}` : null;
    const decoded = decodeHeaderValue(nameHeader);
    if (decoded === null) return "the Mcp-Name header has an invalid value";
    if (typeof bodyName === "string" && decoded !== bodyName) return `Mcp-Name header value ${describeValue(decoded)} does not match body value ${describeValue(bodyName)}`;
    return null;
  }

  /** `Mcp-Param-*` against the arguments, for tools/call (HTTP, Server Behavior for Custom Headers). */
  #paramHeaderProblem(headers: HeaderView, params: JsonObject, declarations: readonly ToolHeader[]): string | null {
    if (declarations.length === 0) return null;
    const args = params[this.#binding.toolHeaders?.arguments ?? "arguments"];
    for (const { path, header } of declarations) {
      const value = argumentAt(args, path);
      // A null or absent value: the client omits the header and the server expects none.
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
      const name = `Mcp-Param-${header}`;
      const raw = headers.get(name);
      if (raw === null) return `the ${name} header is missing; the body carries ${path.join(".")}`;
      const decoded = decodeHeaderValue(raw);
      if (decoded === null) return `the ${name} header has an invalid value`;
      if (!headerMatches(decoded, value)) return `the ${name} header value ${describeValue(decoded)} does not match the body value ${describeValue(value)}`;
    }
    return null;
  }
}
