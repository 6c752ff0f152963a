// Enterprise-managed authorization (the MCP extension of SEP-990; the Identity Assertion JWT
// Authorization Grant draft, draft-ietf-oauth-identity-assertion-authz-grant): the user signed
// in at the enterprise's identity provider (IdP); the client gets access to an MCP server
// without a browser, in two token requests:
//   1. at the IdP, an RFC 8693 token exchange: the user's ID token (`subject_token`, type
//      `urn:ietf:params:oauth:token-type:id_token`) for an Identity Assertion JWT Authorization
//      Grant (`requested_token_type` `urn:ietf:params:oauth:token-type:id-jag`), whose `audience`
//      is the MCP server's authorization server (its issuer) and `resource` the MCP server;
//   2. at that authorization server, the ID-JAG as the `assertion` of a JWT bearer grant
//      (RFC 7523 §2.1), the client authenticating as it is registered there.
// The IdP request and response are oauth4webapi's (its token request, error and JSON checks);
// the exchange's `issued_token_type` is checked here (the response's `token_type` is `N_A`,
// RFC 8693 §2.2.1, which a plain token response processor refuses).

import * as oauth from "oauth4webapi";
import { describeValue } from "../../core/protocol.js";
import { requestOptions } from "./discovery.js";
import { assertionOf, checkSource, JWT_BEARER_GRANT, withScope, type Source, type TokenGrant } from "./grants.js";

export const TOKEN_EXCHANGE_GRANT: string = "urn:ietf:params:oauth:grant-type:token-exchange";
export const ID_TOKEN_TYPE: string = "urn:ietf:params:oauth:token-type:id_token";
export const ID_JAG_TOKEN_TYPE: string = "urn:ietf:params:oauth:token-type:id-jag";

export interface IdJagGrantOptions {
  /** The IdP's token endpoint (https, or http on loopback). */
  readonly idpTokenEndpoint: string | URL;
  /** The IdP's issuer identifier (default: the token endpoint's origin). */
  readonly idpIssuer?: string | undefined;
  /** The user's ID token from the IdP (a function: a fresh one per exchange). */
  readonly idToken: Source<string>;
  /** This client's id at the IdP. */
  readonly idpClientId: string;
  /** Its secret at the IdP (client_secret_post), for a confidential client there. */
  readonly idpClientSecret?: string | undefined;
}

/** The options checked (a TypeError naming the field). */
function checked(options: IdJagGrantOptions): URL {
  if (typeof options !== "object" || options === null) throw new TypeError(`idJagGrant options must be an object, got ${describeValue(options)}`);
  let endpoint: URL;
  try {
    endpoint = new URL(options.idpTokenEndpoint);
  } catch {
    throw new TypeError(`idJagGrant idpTokenEndpoint must be a URL, got ${describeValue(options.idpTokenEndpoint)}`);
  }
  checkSource(options.idToken, "idJagGrant idToken");
  if (typeof options.idpClientId !== "string" || options.idpClientId === "") throw new TypeError(`idJagGrant idpClientId must be a non-empty string, got ${describeValue(options.idpClientId)}`);
  if (options.idpClientSecret !== undefined && typeof options.idpClientSecret !== "string") throw new TypeError(`idJagGrant idpClientSecret must be a string, got ${describeValue(options.idpClientSecret)}`);
  if (options.idpIssuer !== undefined && typeof options.idpIssuer !== "string") throw new TypeError(`idJagGrant idpIssuer must be a string, got ${describeValue(options.idpIssuer)}`);
  return endpoint;
}

/**
 * The enterprise-managed grant: each token request first exchanges the ID token at the IdP for
 * an ID-JAG addressed to the flow's authorization server and resource, then sends it as a JWT
 * bearer assertion. The scopes asked for go into both requests.
 */
export function idJagGrant(options: IdJagGrantOptions): TokenGrant {
  const endpoint = checked(options);
  const idp: oauth.AuthorizationServer = { issuer: options.idpIssuer ?? endpoint.origin, token_endpoint: endpoint.href };
  const client: oauth.Client = { client_id: options.idpClientId };
  const clientAuth = options.idpClientSecret === undefined ? oauth.None() : oauth.ClientSecretPost(options.idpClientSecret);
  return async (scope, context) => {
    if (context.resource === undefined) throw new TypeError("idJagGrant: the MCP server publishes no protected resource metadata, so there is no resource to ask an ID-JAG for");
    const parameters = new URLSearchParams({
      requested_token_type: ID_JAG_TOKEN_TYPE,
      audience: context.issuer,
      resource: context.resource,
      subject_token: await assertionOf(options.idToken, "idJagGrant idToken"),
      subject_token_type: ID_TOKEN_TYPE,
    });
    withScope(parameters, scope);
    const response = await oauth.genericTokenEndpointRequest(idp, client, clientAuth, TOKEN_EXCHANGE_GRANT, parameters, requestOptions(context.fetchFn, endpoint));
    // RFC 8693 §2.2.1: token_type "N_A" for a token that is not an access token.
    const exchanged = await oauth.processGenericTokenEndpointResponse(idp, client, response, { recognizedTokenTypes: { n_a: () => {} } });
    const issued: unknown = (exchanged as { issued_token_type?: unknown }).issued_token_type;
    if (issued !== ID_JAG_TOKEN_TYPE) throw new TypeError(`idJagGrant: the IdP issued ${describeValue(issued)}, not an ID-JAG (${ID_JAG_TOKEN_TYPE})`);
    return withScope(new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: await assertionOf(exchanged.access_token, "the ID-JAG") }), scope);
  };
}
