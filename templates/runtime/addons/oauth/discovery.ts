// Discovery for the `oauth` add-on, as each revision's basic/authorization says: the protected
// resource metadata (RFC 9728; 2025-06-18 and later), then the authorization server's metadata
// (RFC 8414 or OpenID Connect Discovery), with the 2025-03-26 fallbacks (no resource metadata:
// the MCP server's origin is the authorization server; no metadata there: its default endpoints).
// The metadata documents are processed by oauth4webapi (issuer echo check, RFC 8414 §3.3 /
// RFC 9728 §3.3); what this file adds is the order of the well-known URLs MCP prescribes. Every
// document read is bounded (MAX_METADATA_BYTES), and no redirect is followed.

import * as oauth from "oauth4webapi";
import type { FetchLike } from "../../http/fetch.js";

/** Largest metadata document read, in bytes; a bigger one is refused. */
export const MAX_METADATA_BYTES: number = 64 * 1024;

/** http: is accepted for loopback hosts only (development, tests); everything else must be https:. */
export function isLoopback(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

/** oauth4webapi's request options: our fetch (middleware included), no redirects, http: for loopback only. */
export function requestOptions(fetchFn: FetchLike, url: URL): { [oauth.customFetch]: (url: string, options: oauth.CustomFetchOptions<string, unknown>) => Promise<Response>; [oauth.allowInsecureRequests]: boolean } {
  return {
    [oauth.customFetch]: (target, options) => fetchFn(target, options as RequestInit),
    [oauth.allowInsecureRequests]: url.protocol === "http:" && isLoopback(url),
  };
}

/** A body of at most MAX_METADATA_BYTES as a new Response (the processors read it again), or undefined when bigger. */
async function bounded(response: Response): Promise<Response | undefined> {
  const length = Number(response.headers.get("content-length") ?? "0");
  if (length > MAX_METADATA_BYTES) {
    await response.body?.cancel().catch(() => {});
    return undefined;
  }
  const reader = response.body?.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader?.read();
    if (next === undefined || next.done) break;
    size += next.value.byteLength;
    if (size > MAX_METADATA_BYTES) {
      await reader?.cancel().catch(() => {});
      return undefined;
    }
    parts.push(next.value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return new Response(bytes, { status: response.status, headers: response.headers });
}

/** GET a metadata URL: the Response when 200 (bounded), undefined for a 4xx (try the next one). */
async function getDocument(fetchFn: FetchLike, url: URL, protocolVersion: string | undefined): Promise<Response | undefined> {
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url))) throw new Error(`metadata URL ${url.href}: https is required`);
  // Authorization, Server Metadata Discovery: clients SHOULD send the protocol version they speak.
  const headers: Record<string, string> = protocolVersion === undefined ? { accept: "application/json" } : { accept: "application/json", "mcp-protocol-version": protocolVersion };
  const response = await fetchFn(url, { method: "GET", headers, redirect: "manual" });
  if (response.status === 200) return bounded(response);
  await response.body?.cancel().catch(() => {});
  if (response.status >= 400 && response.status < 500) return undefined;
  throw new Error(`metadata ${url.href}: HTTP ${response.status}`);
}

/**
 * The protected resource metadata of `serverUrl`: from the challenge's `resource_metadata` when
 * given, else the path-inserted well-known URL, then the root one (2025-11-25 Protected Resource
 * Metadata Discovery Requirements). Undefined when none exists (a 2025-03-26 server).
 */
export async function discoverResource(fetchFn: FetchLike, serverUrl: URL, resourceMetadataUrl: URL | undefined, protocolVersion?: string): Promise<oauth.ResourceServer | undefined> {
  const candidates: URL[] = [];
  if (resourceMetadataUrl !== undefined) candidates.push(resourceMetadataUrl);
  else {
    const path = serverUrl.pathname === "/" ? "" : serverUrl.pathname.replace(/\/$/, "");
    if (path !== "") candidates.push(new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin));
    candidates.push(new URL("/.well-known/oauth-protected-resource", serverUrl.origin));
  }
  for (const url of candidates) {
    const response = await getDocument(fetchFn, url, protocolVersion);
    if (response === undefined) continue;
    const body: unknown = await response.json();
    if (typeof body !== "object" || body === null || typeof (body as { resource?: unknown }).resource !== "string") throw new Error(`protected resource metadata ${url.href}: no "resource"`);
    return body as oauth.ResourceServer;
  }
  return undefined;
}

/**
 * The well-known URLs of an issuer's metadata, in the order of 2025-11-25 "Authorization Server
 * Metadata Discovery": with a path, RFC 8414 path insertion, OIDC path insertion, OIDC path
 * appending; without, RFC 8414 then OIDC.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname === "/" ? "" : issuer.pathname.replace(/\/$/, "");
  if (path === "") return [new URL("/.well-known/oauth-authorization-server", issuer.origin), new URL("/.well-known/openid-configuration", issuer.origin)];
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * The metadata of the authorization server `issuer`, its `issuer` checked against it by
 * oauth4webapi (RFC 8414 §3.3: a mismatch is an error, never a fallback). Undefined when no
 * well-known URL has a document.
 */
export async function discoverAuthorizationServer(fetchFn: FetchLike, issuer: URL, protocolVersion?: string): Promise<oauth.AuthorizationServer | undefined> {
  for (const url of authorizationServerMetadataUrls(issuer)) {
    const response = await getDocument(fetchFn, url, protocolVersion);
    if (response === undefined) continue;
    return oauth.processDiscoveryResponse(issuer, response);
  }
  return undefined;
}

/** The 2025-03-26 defaults of a server without metadata ("Fallbacks for Servers without Metadata Discovery"). */
export function defaultEndpoints(origin: URL): oauth.AuthorizationServer {
  return {
    issuer: origin.origin,
    authorization_endpoint: new URL("/authorize", origin.origin).href,
    token_endpoint: new URL("/token", origin.origin).href,
    registration_endpoint: new URL("/register", origin.origin).href,
  };
}
