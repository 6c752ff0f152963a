// The grants without a user a provider can run (its `prepareTokenRequest`): what
// MemoryOAuthClientProvider's `grant` option takes. Each returns the token request's parameters,
// `grant_type` first; the flow (auth.ts) adds the `resource` and the client authentication.
//   - client credentials (RFC 6749 §4.4; the MCP client-credentials extension, SEP-1046);
//   - JWT bearer (RFC 7523 §2.1): a JWT the workload already holds, its identity from its
//     platform (workload identity federation, SEP-1933), sent as `assertion`;
//   - enterprise-managed authorization (id-jag.ts): an ID-JAG from the enterprise's identity
//     provider (RFC 8693 token exchange), then sent as a JWT bearer assertion.

import type { FetchLike } from "../../http/fetch.js";
import { describeValue } from "../../core/protocol.js";

/** `grant_type` of the JWT bearer grant (RFC 7523 §2.1). */
export const JWT_BEARER_GRANT: string = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Longest assertion sent, in characters: a bigger one is the assertion source's bug. */
export const MAX_ASSERTION_LENGTH: number = 16 * 1024;

/** What the flow knows when it asks for a grant: whom the token is for, and from where. */
export interface TokenRequestContext {
  /** The authorization server's issuer identifier (RFC 8414). */
  readonly issuer: string;
  /** Its token endpoint. */
  readonly tokenEndpoint: string;
  /** The protected resource the token is for, exactly as its metadata names it (RFC 8707), when known. */
  readonly resource: string | undefined;
  /** The transport's fetch (middleware applied, no token): for requests of the grant's own. */
  readonly fetchFn: FetchLike;
}

/** A grant: the token request's parameters (with `grant_type`) for these scopes. */
export type TokenGrant = (scope: string | undefined, context: TokenRequestContext) => Promise<URLSearchParams>;

/** A value or a function giving it (a fresh one each time: a workload token is short-lived). */
export type Source<T> = T | (() => T | Promise<T>);

/** The value of a source, checked to be a compact JWT of at most MAX_ASSERTION_LENGTH characters. */
export async function assertionOf(source: Source<string>, name: string): Promise<string> {
  const value: unknown = typeof source === "function" ? await source() : source;
  if (typeof value !== "string" || value.length > MAX_ASSERTION_LENGTH || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(value)) {
    throw new TypeError(`${name} must be a compact JWT of at most ${MAX_ASSERTION_LENGTH} characters, got ${describeValue(value)}`);
  }
  return value;
}

/** A source option checked at construction: a string or a function. */
export function checkSource(value: unknown, name: string): void {
  if (typeof value !== "string" && typeof value !== "function") throw new TypeError(`${name} must be a string or a function returning one, got ${describeValue(value)}`);
}

/** `parameters` with `scope` set, unless there is none (an empty scope is not sent). */
export const withScope = (parameters: URLSearchParams, scope: string | undefined): URLSearchParams => {
  if (scope !== undefined && scope !== "") parameters.set("scope", scope);
  return parameters;
};

/** The client credentials grant (RFC 6749 §4.4): the client authenticates, nothing else is sent. */
export function clientCredentialsGrant(): TokenGrant {
  return (scope) => Promise.resolve(withScope(new URLSearchParams({ grant_type: "client_credentials" }), scope));
}

/**
 * The JWT bearer grant (RFC 7523 §2.1) with an assertion the workload holds (workload identity
 * federation, SEP-1933: a platform-issued JWT whose `aud` is the authorization server). A
 * refusal (invalid_grant, invalid_scope, unauthorized_client) ends the flow: the flow does not
 * retry it or fall back to another grant.
 */
export function jwtBearerGrant(assertion: Source<string>): TokenGrant {
  checkSource(assertion, "jwtBearerGrant assertion");
  return async (scope) => withScope(new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: await assertionOf(assertion, "the JWT bearer assertion") }), scope);
}
