/**
 * A provider written for the official SDK plugs into our HTTP client transports unchanged
 * (runtime/http/auth.ts), against our servers requiring a bearer token (runtime/http/server/bearer.ts),
 * all on loopback, with what crossed the wire recorded:
 *   - SDK v2's ClientCredentialsProvider (an OAuthClientProvider) with the SDK's own `auth` as
 *     `oauthFlow`: the 401 names the resource metadata, the flow discovers the authorization
 *     server from it and gets a token (client_credentials, client_secret_basic), the request is
 *     sent again with it, and the handler sees the principal;
 *   - an SDK v2 `AuthProvider` (`token()`, `onUnauthorized()`) on the 2025-era session transport
 *     against createSessionHttpHandler: refreshed once on a 401, then an UnauthorizedError;
 *   - 403 insufficient_scope with an AuthProvider: InsufficientScopeError naming the scope.
 * Every MCP server here runs on both faces of its handler (test/helpers/faces.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { auth as sdkAuth, ClientCredentialsProvider, withLogging, type AuthProvider as SdkAuthProvider } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import * as S from "../../../generated/2025-11-25/index.js";
import { describeFaces, listenerFor } from "../../../helpers/faces.js";

const closers: Array<() => Promise<void>> = [];
const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "sdk-auth-provider", version: "1.0.0" } };
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
async function listen(listener: Listener): Promise<string> {
  const http = createServer(listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

/** An authorization server of the fewest parts: RFC 8414 metadata and a client_credentials token endpoint. */
async function authorizationServer(client: { id: string; secret: string }, scope: string): Promise<{ issuer: string; grants: string[] }> {
  const grants: string[] = [];
  let issuer = "";
  issuer = await listen((req, res) => {
    void (async () => {
      if (req.method === "GET" && req.url === "/.well-known/oauth-authorization-server") {
        res.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            issuer,
            token_endpoint: `${issuer}/token`,
            authorization_endpoint: `${issuer}/authorize`,
            response_types_supported: ["code"],
            grant_types_supported: ["client_credentials"],
            token_endpoint_auth_methods_supported: ["client_secret_basic"],
          }),
        );
        return;
      }
      if (req.method === "POST" && req.url === "/token") {
        const form = new URLSearchParams(await body(req));
        const basic = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`;
        if (req.headers.authorization !== basic || form.get("grant_type") !== "client_credentials") {
          res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_client" }));
          return;
        }
        grants.push(form.get("resource") ?? "(no resource)");
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify({ access_token: `tok-${grants.length}`, token_type: "Bearer", expires_in: 3600, scope }));
        return;
      }
      res.writeHead(404).end();
    })();
  });
  return { issuer, grants };
}

describeFaces("bearer-protected servers", (face) => {
  describe("an SDK OAuthClientProvider on the 2026-07-28 client transport", () => {
    it("gets a token through the 401's resource metadata and the SDK's auth; the handler sees the principal", async () => {
      const as = await authorizationServer({ id: "svc", secret: "s3cret" }, "mcp");
      let base = "";
      const seen: Array<string | undefined> = [];
      const server = new R.McpServer({
        serverInfo: { name: "protected", version: "1.0.0" },
        logger: null,
        handlers: {
          "tools/list": (_params, ctx) => {
            seen.push(ctx.principal?.id);
            return { resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] };
          },
        },
      });
      const posted: Array<string | undefined> = [];
      let guard: R.BearerAuth | undefined;
      base = await listen((req, res) => {
        if (req.method === "POST") posted.push(req.headers.authorization);
        listenerFor(face, guard!.withMetadata(R.createHttpHandler(server, { authenticate: guard!.authenticate })))(req, res);
      });
      guard = R.bearerAuth({
        resource: `${base}/mcp`,
        authorizationServers: [as.issuer],
        scopesSupported: ["mcp"],
        verify: (token) => (token === "tok-1" ? { id: "svc", scopes: ["mcp"] } : undefined),
      });

      const provider = new ClientCredentialsProvider({ clientId: "svc", clientSecret: "s3cret", expectedIssuer: as.issuer });
      const client = new R.McpClient({ clientInfo: { name: "sdk-provider", version: "1.0.0" } });
      await client.connect(R.createHttpClientTransport({ url: `${base}/mcp`, authProvider: provider, oauthFlow: sdkAuth }), { initialize: false });
      await expect(client.listTools({})).resolves.toMatchObject({ tools: [] });
      await expect(client.listTools({})).resolves.toMatchObject({ tools: [] });
      await client.close();

      // The first POST went without a token (401), the flow ran once, then every POST carried it.
      expect(posted).toEqual([undefined, "Bearer tok-1", "Bearer tok-1"]);
      expect(as.grants).toEqual([`${base}/mcp`]);
      expect(seen).toEqual(["svc", "svc"]);
    });
  });

  describe("an SDK AuthProvider on the 2025-11-25 session transport", () => {
    async function sessionServer(valid: () => string, scopesOf: (token: string) => string[] = () => []): Promise<{ url: string; authorizations: Array<string | undefined> }> {
      const server = new S.McpServer({ serverInfo: { name: "protected-2025", version: "1.0.0" }, logger: null, handlers: { "tools/list": () => ({ tools: [] }) } });
      const authorizations: Array<string | undefined> = [];
      let guard: S.BearerAuth | undefined;
      const base = await listen((req, res) => {
        authorizations.push(req.headers.authorization);
        listenerFor(face, guard!.withMetadata(handler))(req, res);
      });
      guard = S.bearerAuth({
        resource: `${base}/mcp`,
        authorizationServers: ["https://as.example"],
        verify: (token) => (token === valid() ? { id: "user", scopes: scopesOf(token) } : undefined),
        requiredScopes: (request) => (request.method === "POST" ? ["mcp:read"] : []),
      });
      const handler = S.createSessionHttpHandler(server, { authenticate: guard.authenticate });
      closers.push(() => handler.close());
      return { url: `${base}/mcp`, authorizations };
    }

    it("sends token() on every request and refreshes once on a 401 (onUnauthorized)", async () => {
      let current = "old";
      const { url, authorizations } = await sessionServer(() => "new", () => ["mcp:read"]);
      let refreshes = 0;
      const provider: SdkAuthProvider = {
        token: async () => current,
        onUnauthorized: async (ctx) => {
          refreshes++;
          expect(ctx.response.status).toBe(401);
          expect(ctx.serverUrl.href).toBe(url);
          current = "new";
        },
      };
      const client = new S.McpClient({ logger: null });
      await client.connect(S.createSessionHttpClientTransport({ url, authProvider: provider, listen: false }), { initialize: false });
      await client.initialize(INITIALIZE);
      await expect(client.listTools({})).resolves.toMatchObject({ tools: [] });
      await client.close();
      expect(refreshes).toBe(1);
      expect(authorizations.slice(0, 2)).toEqual(["Bearer old", "Bearer new"]);
      expect(authorizations.slice(1).every((a) => a === "Bearer new")).toBe(true);
    });

    it("a token refused again after the refresh: UnauthorizedError (an HttpStatusError 401)", async () => {
      const { url } = await sessionServer(() => "never");
      const client = new S.McpClient({ logger: null });
      await client.connect(S.createSessionHttpClientTransport({ url, authProvider: { token: async () => "t", onUnauthorized: async () => {} }, listen: false }), { initialize: false });
      const error: unknown = await client.initialize(INITIALIZE).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(S.UnauthorizedError);
      expect(error).toBeInstanceOf(S.HttpStatusError);
      expect(error).toMatchObject({ status: 401, method: "initialize" });
      await client.close();
    });

    it("403 insufficient_scope with an AuthProvider: InsufficientScopeError naming the scope", async () => {
      const { url } = await sessionServer(() => "t", () => []);
      const client = new S.McpClient({ logger: null });
      await client.connect(S.createSessionHttpClientTransport({ url, authProvider: { token: async () => "t" }, listen: false }), { initialize: false });
      const error: unknown = await client.initialize(INITIALIZE).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(S.InsufficientScopeError);
      expect(error).toMatchObject({ status: 403, requiredScope: "mcp:read" });
      await client.close();
    });
  });

  describe("middleware", () => {
    it("wraps fetch in the SDK's order (the last sees the request first); the token is set outside them", async () => {
      const order: string[] = [];
      const tag =
        (name: string): R.FetchMiddleware =>
        (next) =>
        async (input, init) => {
          order.push(`${name}:${new Headers(init?.headers).get("authorization") ?? "-"}`);
          return next(input, init);
        };
      const server = new R.McpServer({ serverInfo: { name: "mw", version: "1.0.0" }, logger: null, handlers: { "tools/list": () => ({ resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] }) } });
      const base = await listen(listenerFor(face, R.createHttpHandler(server)));
      const client = new R.McpClient({ clientInfo: { name: "mw", version: "1.0.0" } });
      await client.connect(R.createHttpClientTransport({ url: `${base}/mcp`, authProvider: { token: async () => "k" }, middleware: [tag("inner"), tag("outer")] }), { initialize: false });
      await client.listTools({});
      await client.close();
      expect(order).toEqual(["outer:Bearer k", "inner:Bearer k"]);
    });

    it("an SDK middleware (withLogging) plugs in unchanged and sees every request with its status", async () => {
      const logged: Array<[string, number, string | null | undefined]> = [];
      const server = new R.McpServer({ serverInfo: { name: "mw", version: "1.0.0" }, logger: null, handlers: { "tools/list": () => ({ resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] }) } });
      const base = await listen(listenerFor(face, R.createHttpHandler(server)));
      const client = new R.McpClient({ clientInfo: { name: "mw", version: "1.0.0" } });
      const middleware = [withLogging({ includeRequestHeaders: true, logger: (entry) => logged.push([entry.method, entry.status, entry.requestHeaders?.get("authorization")]) })];
      await client.connect(R.createHttpClientTransport({ url: `${base}/mcp`, authProvider: { token: async () => "k" }, middleware }), { initialize: false });
      await client.listTools({});
      await client.close();
      expect(logged).toEqual([["POST", 200, "Bearer k"]]);
    });
  });
});

describe("without a server", () => {
  it("serves the metadata document at the RFC 9728 path; the 401 names it", async () => {
    const guard = R.bearerAuth({ resource: "https://mcp.example/api/mcp", authorizationServers: ["https://as.example/"], verify: () => undefined, requiredScopes: ["a", "b"] });
    expect(guard.metadataUrl.href).toBe("https://mcp.example/.well-known/oauth-protected-resource/api/mcp");
    const doc = guard.serveMetadata(new Request(guard.metadataUrl));
    expect(doc?.status).toBe(200);
    expect(await doc?.json()).toEqual({ resource: "https://mcp.example/api/mcp", authorization_servers: ["https://as.example"], bearer_methods_supported: ["header"] });
    expect(guard.serveMetadata(new Request("https://mcp.example/api/mcp"))).toBeUndefined();
    const refused = await guard.authenticate(new Request("https://mcp.example/api/mcp", { method: "POST" }));
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(401);
    expect((refused as Response).headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/api/mcp", scope="a b"',
    );
    const bad = (await guard.authenticate(new Request("https://mcp.example/api/mcp", { headers: { authorization: "Bearer x" } }))) as Response;
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("bad options fail at construction, naming the option", () => {
    expect(() => R.createHttpClientTransport({ url: "http://127.0.0.1:1/mcp", middleware: [1 as never] })).toThrow(/middleware must be an array of functions/);
    expect(() => R.createHttpClientTransport({ url: "http://127.0.0.1:1/mcp", authProvider: {} as never })).toThrow(/authProvider must be/);
    expect(() => R.createHttpClientTransport({ url: "http://127.0.0.1:1/mcp", maxStepUpRetries: -1 })).toThrow(RangeError);
  });
});
