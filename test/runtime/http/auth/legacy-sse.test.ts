/**
 * The authorization of runtime/http/auth.ts on the HTTP+SSE client (2024-11-05) and on the
 * fallback client that switches to it: the token goes on the stream's GET and on every POST to
 * the endpoint, against our HTTP+SSE server behind bearerAuth (its 401 answers the GET), served on
 * both faces of the handler.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2024-11-05/index.js";
import * as S from "../../../generated/2025-11-25/index.js";
import { describeFaces, listen, type Face, type Listening } from "../../../helpers/faces.js";

const INITIALIZE = { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "legacy-auth-test", version: "1.0.0" } };

const open: Array<{ server: R.McpServer; listening: Listening }> = [];
afterEach(async () => {
  for (const { server, listening } of open.splice(0)) {
    await server.close().catch(() => undefined);
    await listening.close();
  }
});

/** A 2024-11-05 server with `options` behind the HTTP+SSE handler with `handlerOptions`, on `face`; its origin (no path). */
async function serve(face: Face, options: R.McpServerOptions = {}, handlerOptions: R.LegacySseHandlerOptions = {}): Promise<{ origin: string }> {
  const server = new R.McpServer({ logger: null, ...options });
  const listening = await listen(face, R.createLegacySseHandler(server, handlerOptions));
  open.push({ server, listening });
  return { origin: listening.origin };
}

function guarded(origin: string, seen: string[]): R.BearerAuth {
  return R.bearerAuth({
    resource: `${origin}/sse`,
    authorizationServers: ["https://as.example"],
    verify: (token, request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname} ${token}`);
      return token === "sse-token" ? { id: "sse-user" } : undefined;
    },
  });
}

describeFaces("bearer authorization of the HTTP+SSE transport", (face) => {
  describe("authProvider on the HTTP+SSE client", () => {
    it("the token goes on the GET of the stream and on every POST; the handler sees the principal", async () => {
      const seen: string[] = [];
      const principals: Array<string | undefined> = [];
      let guard: R.BearerAuth | undefined;
      const served = await serve(face, 
        { handlers: { "tools/list": (_params, ctx) => (principals.push(ctx.principal?.id), { tools: [] }) } },
        { authenticate: (request) => guard!.authenticate(request) },
      );
      guard = guarded(served.origin, seen);
      const client = new R.McpClient({ logger: null });
      await client.connect(R.createLegacySseClientTransport({ url: `${served.origin}/sse`, authProvider: { token: async () => "sse-token" } }), { initialize: false });
      await client.initialize(INITIALIZE);
      await client.listTools({});
      await client.close();
      expect(seen.map((line) => line.replace(/\?.*$/, "").split(" ").slice(0, 2).join(" "))).toEqual(["GET /sse", "POST /messages", "POST /messages"]);
      expect(seen.every((line) => line.endsWith(" sse-token"))).toBe(true);
      expect(principals).toEqual(["sse-user"]);
    });

    it("a refused token on the GET: start() rejects with LegacySseConnectError, status 401, its cause the UnauthorizedError", async () => {
      let guard: R.BearerAuth | undefined;
      const served = await serve(face, {}, { authenticate: (request) => guard!.authenticate(request) });
      guard = guarded(served.origin, []);
      const transport = R.createLegacySseClientTransport({ url: `${served.origin}/sse`, authProvider: { token: async () => "wrong" } });
      const error: unknown = await transport.start().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(R.LegacySseConnectError);
      expect(error).toMatchObject({ status: 401 });
      const cause = (error as Error).cause;
      expect(cause).toBeInstanceOf(R.UnauthorizedError);
      expect(cause).toMatchObject({ status: 401, challenge: { error: "invalid_token" } });
    });
  });

  describe("authProvider on the fallback client", () => {
    it("the probe and the HTTP+SSE transport after the fallback both carry the token", async () => {
      const seen: string[] = [];
      let guard: R.BearerAuth | undefined;
      const served = await serve(face, { handlers: { "tools/list": () => ({ tools: [] }) } }, { authenticate: (request) => guard!.authenticate(request) });
      guard = guarded(served.origin, seen);
      const client = new S.McpClient({ logger: null });
      const transport = S.createFallbackHttpClientTransport({ url: `${served.origin}/sse`, authProvider: { token: async () => "sse-token" } });
      await client.connect(transport, { initialize: false });
      await client.initialize({ ...INITIALIZE, protocolVersion: "2025-11-25" }).catch(() => undefined);
      expect(transport.kind).toBe("http+sse");
      await client.close();
      // The initialize POST to /sse (refused by the old server, 4xx) and everything after carried the token.
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen.every((line) => line.endsWith(" sse-token"))).toBe(true);
      expect(seen.some((line) => line.startsWith("GET /sse"))).toBe(true);
    });
  });
});
