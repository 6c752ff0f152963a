/**
 * The `oauth` add-on (templates/runtime/addons/oauth/) against a real authorization server and
 * our protected MCP server on loopback (bearerAuth), with every request recorded:
 *   - the authorization code flow on our transport: discovery from the 401, dynamic
 *     registration, PKCE S256, the RFC 8707 resource, the `iss` of the response checked
 *     (a wrong one is refused before the code is redeemed);
 *   - client credentials with MemoryOAuthClientProvider on our transport, and the same provider
 *     on the SDK v2's StreamableHTTPClientTransport (the SDK's own auth() drives it);
 *   - refusals: protected resource metadata naming another resource, an oversized metadata
 *     document, metadata whose issuer is not the one asked for.
 * The auth/* scenarios of the official suite (npm run conformance) check the rest at the wire.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import * as S from "../../../generated/2025-11-25/index.js";
import { auth, MemoryOAuthClientProvider, type OAuthClientProvider } from "../../../../templates/runtime/addons/oauth/auth.js";
import { MAX_METADATA_BYTES } from "../../../../templates/runtime/addons/oauth/discovery.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const http = createServer(listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += String(chunk);
  return text;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
};

interface Recorded {
  /** The MCP-Protocol-Version of each metadata GET (Authorization, Server Metadata Discovery). */
  readonly metadataVersions: Array<string | undefined>;
  readonly registrations: Array<Record<string, unknown>>;
  readonly authorizations: URLSearchParams[];
  readonly tokens: Array<{ form: URLSearchParams; authorization: string | undefined }>;
}

/** An authorization server: metadata, registration, an /authorize that approves at once (with `iss`), a token endpoint checking PKCE. */
async function authorizationServer(options: { issOnRedirect?: (issuer: string) => string | undefined; metadataPadding?: number; issuerInMetadata?: (issuer: string) => string } = {}): Promise<{ issuer: string; seen: Recorded }> {
  const seen: Recorded = { metadataVersions: [], registrations: [], authorizations: [], tokens: [] };
  const challenges = new Map<string, string>();
  let issuer = "";
  issuer = await listen((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", issuer);
      if (req.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
        seen.metadataVersions.push(req.headers["mcp-protocol-version"] as string | undefined);
        json(res, 200, {
          issuer: options.issuerInMetadata?.(issuer) ?? issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          registration_endpoint: `${issuer}/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
          authorization_response_iss_parameter_supported: true,
          ...(options.metadataPadding === undefined ? {} : { padding: "x".repeat(options.metadataPadding) }),
        });
        return;
      }
      if (req.method === "POST" && url.pathname === "/register") {
        const metadata = JSON.parse(await readBody(req)) as Record<string, unknown>;
        seen.registrations.push(metadata);
        json(res, 201, { ...metadata, client_id: "dyn-client", client_secret: "dyn-secret" });
        return;
      }
      if (req.method === "GET" && url.pathname === "/authorize") {
        seen.authorizations.push(url.searchParams);
        const code = `code-${seen.authorizations.length}`;
        challenges.set(code, url.searchParams.get("code_challenge") ?? "");
        const back = new URL(url.searchParams.get("redirect_uri") ?? "");
        back.searchParams.set("code", code);
        back.searchParams.set("state", url.searchParams.get("state") ?? "");
        const iss = options.issOnRedirect === undefined ? issuer : options.issOnRedirect(issuer);
        if (iss !== undefined) back.searchParams.set("iss", iss);
        res.writeHead(302, { location: back.href }).end();
        return;
      }
      if (req.method === "POST" && url.pathname === "/token") {
        const form = new URLSearchParams(await readBody(req));
        seen.tokens.push({ form, authorization: req.headers.authorization });
        if (form.get("grant_type") === "authorization_code") {
          const expected = challenges.get(form.get("code") ?? "");
          const actual = createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url");
          if (expected !== actual) return json(res, 400, { error: "invalid_grant", error_description: "PKCE" });
        }
        json(res, 200, { access_token: "good-token", token_type: "Bearer", expires_in: 3600 }, { "cache-control": "no-store" });
        return;
      }
      res.writeHead(404).end();
    })();
  });
  return { issuer, seen };
}

/** Our 2026-07-28 server behind bearerAuth (token "good-token"), its metadata naming `issuer` (and `resource`, when given). */
async function protectedServer(issuer: string, publishedResource?: string): Promise<{ url: string; principals: Array<string | undefined> }> {
  const principals: Array<string | undefined> = [];
  const server = new R.McpServer({
    serverInfo: { name: "protected", version: "1.0.0" },
    logger: null,
    handlers: {
      "tools/list": (_params, ctx) => {
        principals.push(ctx.principal?.id);
        return { resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [] };
      },
    },
  });
  let guard: R.BearerAuth | undefined;
  const base = await listen((req, res) => {
    // A server publishing metadata for another resource at its own well-known URL.
    if (publishedResource !== undefined && req.url === "/.well-known/oauth-protected-resource/mcp") return json(res, 200, { resource: publishedResource, authorization_servers: [issuer] });
    void R.toNodeListener(guard!.withMetadata(R.createHttpHandler(server, { authenticate: guard!.authenticate })))(req, res);
  });
  guard = R.bearerAuth({
    resource: `${base}/mcp`,
    authorizationServers: [issuer],
    verify: (token) => (token === "good-token" ? { id: "alice" } : undefined),
  });
  return { url: `${base}/mcp`, principals };
}

/** A provider whose "user" approves by one GET of the authorization URL, and a flow that then redeems the code. */
function interactive(): { provider: MemoryOAuthClientProvider; oauthFlow: (p: OAuthClientProvider, o: Parameters<typeof auth>[1]) => Promise<"AUTHORIZED" | "REDIRECT"> } {
  let callback: URL | undefined;
  const provider = new MemoryOAuthClientProvider({
    redirectUrl: "http://127.0.0.1:9/callback",
    clientMetadata: { client_name: "flow-test", redirect_uris: ["http://127.0.0.1:9/callback"] },
    onRedirect: async (url) => {
      const response = await fetch(url, { redirect: "manual" });
      callback = new URL(response.headers.get("location") ?? "");
    },
  });
  const oauthFlow = async (p: OAuthClientProvider, o: Parameters<typeof auth>[1]) => {
    const first = await auth(p, o);
    if (first !== "REDIRECT" || callback === undefined) return first;
    return auth(p, { ...o, authorizationCode: callback.searchParams.get("code") ?? "", iss: callback.searchParams.get("iss") ?? undefined });
  };
  return { provider, oauthFlow };
}

async function listWith(url: string, provider: OAuthClientProvider, oauthFlow: R.HttpClientAuthOptions["oauthFlow"]): Promise<unknown> {
  const client = new R.McpClient({ clientInfo: { name: "flow-test", version: "1.0.0" }, logger: null });
  await client.connect(R.createHttpClientTransport({ url, authProvider: provider, oauthFlow }));
  try {
    return await client.listTools({});
  } finally {
    await client.close();
  }
}

describe("the oauth add-on's authorization code flow", () => {
  it("registers, authorizes with PKCE S256 and the resource, checks iss, redeems the code; the request then passes", async () => {
    const as = await authorizationServer();
    const { url, principals } = await protectedServer(as.issuer);
    const { provider, oauthFlow } = interactive();
    await expect(listWith(url, provider, oauthFlow)).resolves.toMatchObject({ tools: [] });
    expect(principals).toEqual(["alice"]);
    expect(as.seen.registrations).toEqual([expect.objectContaining({ client_name: "flow-test", application_type: "native" })]);
    const [asked] = as.seen.authorizations;
    expect(asked?.get("code_challenge_method")).toBe("S256");
    expect(asked?.get("client_id")).toBe("dyn-client");
    expect(asked?.get("resource")).toBe(url);
    const [token] = as.seen.tokens;
    expect(token?.form.get("grant_type")).toBe("authorization_code");
    expect(token?.form.get("resource")).toBe(url);
    expect(token?.authorization).toBe(`Basic ${btoa("dyn-client:dyn-secret")}`);
    expect(provider.tokens()).toMatchObject({ access_token: "good-token", issuer: as.issuer });
    // The metadata requests (one per auth() run: the redirect, then the code) name the version of
    // the refused request (the client's own), not one the add-on knows.
    expect(as.seen.metadataVersions).toEqual(["2026-07-28", "2026-07-28"]);
  });

  it("auth() called without a protocol version sends no MCP-Protocol-Version; a malformed one is refused", async () => {
    const as = await authorizationServer();
    const { url } = await protectedServer(as.issuer);
    const provider = new MemoryOAuthClientProvider({
      clientMetadata: { client_name: "svc", grant_types: ["client_credentials"] },
      clientInformation: { client_id: "svc", client_secret: "s3cret" },
      clientCredentials: true,
    });
    await expect(auth(provider, { serverUrl: url })).resolves.toBe("AUTHORIZED");
    expect(as.seen.metadataVersions).toEqual([undefined]);
    await expect(auth(provider, { serverUrl: url, protocolVersion: "2026-07-28\r\nx: y" })).rejects.toThrow(/protocolVersion must be a short string of visible ASCII characters/);
  });

  it("an authorization response whose iss is another issuer is refused before the code is redeemed (RFC 9207)", async () => {
    const as = await authorizationServer({ issOnRedirect: () => "https://evil.example" });
    const { url, principals } = await protectedServer(as.issuer);
    const { provider, oauthFlow } = interactive();
    await expect(listWith(url, provider, oauthFlow)).rejects.toThrow(/iss/);
    expect(as.seen.tokens).toEqual([]);
    expect(principals).toEqual([]);
  });

  it("a missing iss where the server says it sends one is refused too", async () => {
    const as = await authorizationServer({ issOnRedirect: () => undefined });
    const { url } = await protectedServer(as.issuer);
    const { provider, oauthFlow } = interactive();
    await expect(listWith(url, provider, oauthFlow)).rejects.toThrow();
    expect(as.seen.tokens).toEqual([]);
  });
});

describe("the oauth add-on's refusals", () => {
  it("protected resource metadata naming another resource: no authorization server is asked", async () => {
    const as = await authorizationServer();
    const { url } = await protectedServer(as.issuer, "https://other.example/mcp");
    const { provider, oauthFlow } = interactive();
    await expect(listWith(url, provider, oauthFlow)).rejects.toThrow(/names the resource https:\/\/other\.example\/mcp/);
    expect(as.seen.registrations).toEqual([]);
  });

  it(`a metadata document over ${MAX_METADATA_BYTES} bytes is refused`, async () => {
    const as = await authorizationServer({ metadataPadding: MAX_METADATA_BYTES });
    const { url } = await protectedServer(as.issuer);
    const { provider, oauthFlow } = interactive();
    await expect(listWith(url, provider, oauthFlow)).rejects.toThrow(/no authorization server metadata/);
    expect(as.seen.registrations).toEqual([]);
  });

  it("metadata whose issuer is not the one asked for is refused (RFC 8414 §3.3)", async () => {
    const as = await authorizationServer({ issuerInMetadata: () => "https://impostor.example" });
    const { url } = await protectedServer(as.issuer);
    const { provider, oauthFlow } = interactive();
    await expect(listWith(url, provider, oauthFlow)).rejects.toThrow(/issuer/);
    expect(as.seen.registrations).toEqual([]);
  });
});

describe("MemoryOAuthClientProvider with client credentials", () => {
  const credentials = () =>
    new MemoryOAuthClientProvider({
      clientMetadata: { client_name: "svc", grant_types: ["client_credentials"] },
      clientInformation: { client_id: "svc", client_secret: "s3cret" },
      clientCredentials: true,
    });

  it("on our transport with the add-on's auth: a client_credentials grant, no redirect", async () => {
    const as = await authorizationServer();
    const { url, principals } = await protectedServer(as.issuer);
    await expect(listWith(url, credentials(), auth)).resolves.toMatchObject({ tools: [] });
    expect(principals).toEqual(["alice"]);
    expect(as.seen.authorizations).toEqual([]);
    expect(as.seen.tokens.map((t) => [t.form.get("grant_type"), t.form.get("resource"), t.authorization])).toEqual([["client_credentials", url, `Basic ${btoa("svc:s3cret")}`]]);
  });

  it("on the SDK v2's StreamableHTTPClientTransport (the SDK's auth drives it) against our 2025-11-25 session server", async () => {
    const as = await authorizationServer();
    const server = new S.McpServer({ serverInfo: { name: "protected-2025", version: "1.0.0" }, logger: null, handlers: { "tools/list": () => ({ tools: [] }) } });
    let guard: S.BearerAuth | undefined;
    const base = await listen((req, res) => void S.toNodeListener(guard!.withMetadata(handler))(req, res));
    guard = S.bearerAuth({ resource: `${base}/mcp`, authorizationServers: [as.issuer], verify: (token) => (token === "good-token" ? { id: "svc" } : undefined) });
    const handler = S.createSessionHttpHandler(server, { authenticate: guard.authenticate });
    closers.push(() => handler.close());
    const client = new Client({ name: "sdk-v2", version: "2.4.0" }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: credentials() }));
    closers.push(() => client.close());
    await expect(client.listTools()).resolves.toMatchObject({ tools: [] });
    expect(as.seen.tokens.map((t) => t.form.get("grant_type"))).toEqual(["client_credentials"]);
  });
});
