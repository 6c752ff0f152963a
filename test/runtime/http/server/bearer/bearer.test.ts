/**
 * runtime/http/server/bearer.ts through our 2026-07-28 handler (createHttpHandler behind
 * withMetadata), on both faces (the web face called in process, the native face over a loopback
 * socket, where authenticate is given a view of the request head, not a Request): the Authorization
 * header read as RFC 6750 §2.1 says and bounded, the 401/403 challenges (RFC 6750 §3, RFC 9728
 * §5.1), scopes per operation from the Mcp-Method header, a throwing `verify` never taken as a
 * refusal or as a principal, the metadata document's methods, and the options checked.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { answer, describeFaces } from "../../stateless/support.js";

const RESOURCE = "http://127.0.0.1:3000/mcp";
const seen: Array<string | undefined> = [];
const server = new R.McpServer({
  serverInfo: { name: "bearer", version: "1.0.0" },
  logger: null,
  handlers: {
    "tools/list": (_params, ctx) => {
      seen.push(ctx.principal?.id);
      return { resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] };
    },
  },
});

const tokens: Readonly<Record<string, R.BearerPrincipal>> = {
  reader: { id: "r", scopes: ["mcp:read"] },
  writer: { id: "w", scopes: ["mcp:read", "mcp:write"] },
};

function handlerWith(options: Partial<R.BearerAuthOptions> = {}, onError?: (error: Error) => void): R.HttpHandler {
  const guard = R.bearerAuth({
    resource: RESOURCE,
    authorizationServers: ["https://as.example/"],
    verify: (token) => tokens[token],
    requiredScopes: (request) => (request.headers.get("mcp-method") === "tools/call" ? ["mcp:read", "mcp:write"] : ["mcp:read"]),
    ...options,
  });
  return guard.withMetadata(R.createHttpHandler(server, { authenticate: guard.authenticate, ...(onError === undefined ? {} : { onError }) }));
}

function post(method: string, authorization?: string): Request {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    host: "127.0.0.1:3000",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
  };
  if (authorization !== undefined) headers["authorization"] = authorization;
  const params = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} } };
  return new Request(RESOURCE, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
}

describeFaces("bearerAuth", (face) => {
  describe("bearerAuth on the 2026-07-28 handler", () => {
    it("no token: 401 naming the metadata and the scope the request needs; the handler is not reached", async () => {
      seen.length = 0;
      const response = await answer(face, handlerWith(), post("tools/list"));
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", scope="mcp:read"');
      expect(seen).toEqual([]);
    });

    it("a token verify does not know, or a malformed header: 401 invalid_token", async () => {
      for (const authorization of ["Bearer nobody", "Basic cmVhZGVy", "Bearer", "Bearer a b", "Bearer rea\u00efder"]) {
        const response = await answer(face, handlerWith(), post("tools/list", authorization));
        expect(response.status, authorization).toBe(401);
        expect(response.headers.get("www-authenticate"), authorization).toContain('error="invalid_token"');
      }
    });

    it("a token longer than maxTokenLength is refused without calling verify", async () => {
      let calls = 0;
      const handler = handlerWith({ maxTokenLength: 16, verify: () => (calls++, tokens["reader"]) });
      expect((await answer(face, handler, post("tools/list", `Bearer ${"a".repeat(17)}`))).status).toBe(401);
      expect(calls).toBe(0);
      expect((await answer(face, handler, post("tools/list", `Bearer ${"a".repeat(16)}`))).status).toBe(200);
      expect(calls).toBe(1);
    });

    it("the scheme is case-insensitive; the principal reaches ctx.principal", async () => {
      seen.length = 0;
      const response = await answer(face, handlerWith(), post("tools/list", "bearer reader"));
      expect(response.status).toBe(200);
      expect(seen).toEqual(["r"]);
    });

    it("scopes per operation (Mcp-Method): 403 insufficient_scope with the scopes it needs", async () => {
      const response = await answer(face, handlerWith(), post("tools/call", "Bearer reader"));
      expect(response.status).toBe(403);
      expect(response.headers.get("www-authenticate")).toBe(
        'Bearer resource_metadata="http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp", scope="mcp:read mcp:write", error="insufficient_scope", error_description="this request needs the scope(s) mcp:write"',
      );
      expect((await answer(face, handlerWith(), post("tools/list", "Bearer reader"))).status).toBe(200);
    });

    it("a verify that throws answers 500 and reports it: never served as nobody", async () => {
      seen.length = 0;
      const errors: Error[] = [];
      const response = await answer(face, handlerWith({ verify: () => Promise.reject(new Error("introspection down")) }, (error) => errors.push(error)), post("tools/list", "Bearer reader"));
      expect(response.status).toBe(500);
      expect(errors.map((e) => e.message).join()).toContain("introspection down");
      expect(seen).toEqual([]);
    });
  });

  describe("the protected resource metadata document", () => {
    const handler = handlerWith({ scopesSupported: ["mcp:read", "mcp:write"], metadata: { resource_name: "Demo" } });
    const at = "http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp";

    it("GET: the document, public (CORS), without authentication", async () => {
      const response = await answer(face, handler, new Request(at));
      expect(response.status).toBe(200);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(await response.json()).toEqual({
        resource_name: "Demo",
        resource: RESOURCE,
        authorization_servers: ["https://as.example"],
        scopes_supported: ["mcp:read", "mcp:write"],
        bearer_methods_supported: ["header"],
      });
    });

    it("HEAD has no body, OPTIONS is a preflight answer, other methods 405", async () => {
      const head = await answer(face, handler, new Request(at, { method: "HEAD" }));
      expect([head.status, await head.text()]).toEqual([200, ""]);
      expect((await answer(face, handler, new Request(at, { method: "OPTIONS" }))).status).toBe(204);
      const posted = await answer(face, handler, new Request(at, { method: "POST", body: "{}" }));
      expect([posted.status, posted.headers.get("allow")]).toEqual([405, "GET, HEAD, OPTIONS"]);
    });

    it("a resource at the root has its document at the bare well-known path", () => {
      expect(R.protectedResourceMetadataUrl("https://mcp.example/").href).toBe("https://mcp.example/.well-known/oauth-protected-resource");
      expect(R.protectedResourceMetadataUrl("https://mcp.example/a/b/").href).toBe("https://mcp.example/.well-known/oauth-protected-resource/a/b");
    });
  });
});

describe("bearerAuth's options, checked at once", () => {
  const base = { resource: RESOURCE, authorizationServers: ["https://as.example"], verify: () => undefined };
  it("names the bad option", () => {
    expect(() => R.bearerAuth({ ...base, verify: "no" as never })).toThrow(/verify must be a function/);
    expect(() => R.bearerAuth({ ...base, authorizationServers: [] })).toThrow(/authorizationServers must be a non-empty array/);
    expect(() => R.bearerAuth({ ...base, requiredScopes: ["has space"] })).toThrow(/requiredScopes must be an array of scope tokens/);
    expect(() => R.bearerAuth({ ...base, scopesSupported: [""] })).toThrow(/scopesSupported/);
    expect(() => R.bearerAuth({ ...base, resource: "not a url" })).toThrow();
  });
});

describeFaces("withMetadata keeps what the handler is", (face) => {
  it("a wrapped session handler is still one (sessionCount live, hasSession, close) and can stand behind the era router, which serves the metadata through it", async () => {
    const { R25 } = await import("../era-router/support.js");
    const guard = R25.bearerAuth({ resource: RESOURCE, authorizationServers: ["https://as.example/"], verify: () => undefined });
    const sessions = R25.createSessionHttpHandler(new R25.McpServer({ logger: null }));
    const wrapped = guard.withMetadata(sessions);
    expect([typeof wrapped.hasSession, typeof wrapped.close, typeof wrapped.serveCall, wrapped.versions]).toEqual(["function", "function", "function", sessions.versions]);
    const router = R25.createEraRouter({ sessions: { "2025-11-25": wrapped } });
    const document = await answer(face, router, new Request(guard.metadataUrl, { headers: { host: "127.0.0.1:3000" } }));
    expect(document.status).toBe(200);
    expect(await document.json()).toMatchObject({ resource: RESOURCE, authorization_servers: ["https://as.example"] });
    const opened = await answer(
      face,
      router,
      new Request("http://127.0.0.1:3000/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", host: "127.0.0.1:3000" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
      }),
    );
    expect(opened.status).toBe(200);
    expect(wrapped.sessionCount).toBe(1);
    expect(wrapped.hasSession(opened.headers.get("mcp-session-id")!)).toBe(true);
    await wrapped.close();
    expect(wrapped.sessionCount).toBe(0);
  });
});
