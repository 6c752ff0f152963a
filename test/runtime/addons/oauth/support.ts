/**
 * A protected resource and its authorization server on one loopback port, for the `oauth` add-on's
 * grant tests: the resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource/mcp`,
 * the authorization server metadata (RFC 8414), and a token endpoint answered by the test's own
 * function, every token request recorded (form, headers).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TokenRequest {
  readonly form: URLSearchParams;
  readonly headers: IncomingMessage["headers"];
}

/** What the token endpoint answers: status, JSON body, extra headers. */
export interface TokenAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
}

export interface Loopback {
  readonly base: string;
  /** The MCP server URL (the resource). */
  readonly resource: string;
  readonly tokenRequests: TokenRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

const send = (res: ServerResponse, answer: TokenAnswer): void => {
  res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers }).end(JSON.stringify(answer.body));
};

/**
 * Serves the metadata and `token` (the token endpoint: given the request and the issuer). More
 * routes (an IdP's token endpoint) go in `routes`, by path.
 */
export async function loopbackAuthorizationServer(
  token: (request: TokenRequest, issuer: string) => TokenAnswer | Promise<TokenAnswer>,
  metadata: Record<string, unknown> = {},
  routes: Record<string, (request: TokenRequest, base: string) => TokenAnswer | Promise<TokenAnswer>> = {},
): Promise<Loopback> {
  const tokenRequests: TokenRequest[] = [];
  let base = "";
  const http = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? "/", base).pathname;
      if (req.method === "GET" && path === "/.well-known/oauth-protected-resource/mcp") return send(res, { status: 200, body: { resource: `${base}/mcp`, authorization_servers: [base] } });
      if (req.method === "GET" && path === "/.well-known/oauth-authorization-server") {
        return send(res, { status: 200, body: { issuer: base, token_endpoint: `${base}/token`, response_types_supported: ["code"], ...metadata } });
      }
      if (req.method === "POST") {
        const request = { form: new URLSearchParams(await readBody(req)), headers: req.headers };
        if (path === "/token") {
          tokenRequests.push(request);
          return send(res, await token(request, base));
        }
        const route = routes[path];
        if (route !== undefined) return send(res, await route(request, base));
      }
      res.writeHead(404).end();
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    base,
    resource: `${base}/mcp`,
    tokenRequests,
    close: () => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))),
  };
}

/** A successful token response. */
export const issued = (accessToken: string, tokenType: string = "Bearer"): TokenAnswer => ({ status: 200, body: { access_token: accessToken, token_type: tokenType, expires_in: 3600 }, headers: { "cache-control": "no-store" } });

/** An OAuth error response (RFC 6749 §5.2). */
export const oauthError = (error: string, status: number = 400, headers: Record<string, string> = {}): TokenAnswer => ({ status, body: { error, error_description: error }, headers });
