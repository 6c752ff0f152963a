/**
 * The `authenticate` option of createHttpHandler (server/pipeline.ts authenticateStage) and what it
 * gives handlers: `ctx.principal` and `ctx.http`, over a real node:http server on loopback, on both
 * faces of the handler (ctx.http is the web Request on the web face, a view of the same head on
 * the native one).
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { createInMemoryTransportPair } from "../../../../generated/2026-07-28/index.js";
import { call, describeFaces, headersFor, META, post, serve, type Served } from "../../stateless/support.js";

type Seen = { principal: R.Principal | undefined; http: R.HttpRequestContext | undefined };

/** A server whose `tools/call` reports what its ctx says of the sender. */
function recorder(seen: Seen[]): R.McpServerOptions {
  return {
    handlers: {
      "tools/call": (_params, ctx) => {
        seen.push({ principal: ctx.principal, http: ctx.http });
        return { resultType: "complete", content: [{ type: "text", text: ctx.principal?.id ?? "nobody" }] };
      },
    },
  };
}

/** A bearer-token check: `alice-token` is alice, anything else a 401. */
const bearer: R.Authenticate = (request) => {
  const header = request.headers.get("authorization");
  if (header === "Bearer alice-token") return { id: "alice", scopes: ["tools"] };
  return new Response(JSON.stringify({ error: "invalid_token" }), { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
};

describeFaces("authenticate", (face) => {
  let served: Served | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });

  describe("authenticate", () => {
    it("gives every handler the principal it returned and the HTTP request, as ctx.principal and ctx.http", async () => {
      const seen: Seen[] = [];
      served = await serve(face, recorder(seen), { authenticate: bearer });
      const answer = await call(`${served.url}?tenant=t1`, 1, "tools/call", { name: "echo", arguments: {} }, { authorization: "Bearer alice-token" });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 1, result: { content: [{ text: "alice" }] } });
      expect(seen).toHaveLength(1);
      expect(seen[0]!.principal).toEqual({ id: "alice", scopes: ["tools"] });
      expect(seen[0]!.http?.headers.get("authorization")).toBe("Bearer alice-token");
      expect(new URL(seen[0]!.http!.url).searchParams.get("tenant")).toBe("t1");
    });

    it("answers with the Response it returned, as it is, and no handler runs", async () => {
      const seen: Seen[] = [];
      served = await serve(face, recorder(seen), { authenticate: bearer });
      const answer = await call(served.url, 1, "tools/call", { name: "echo", arguments: {} }, { authorization: "Bearer mallory" });
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toBe('Bearer error="invalid_token"');
      expect(answer.json).toEqual({ error: "invalid_token" });
      expect(seen).toEqual([]);
    });

    it("runs before the body is read: a refused client's body (even one that is not JSON) is never parsed", async () => {
      served = await serve(face, {}, { authenticate: bearer });
      const answer = await post(served.url, "{not json", headersFor("tools/call"));
      expect(answer.status).toBe(401);
    });

    it("a throw or a result that is no principal answers 500 and reports it, never serves the request as nobody", async () => {
      const seen: Seen[] = [];
      const results: unknown[] = [new Error("token store down"), { id: "" }, { id: 7 }, null, "alice"];
      let next = 0;
      served = await serve(face, recorder(seen), {
        authenticate: () => {
          const result = results[next++];
          if (result instanceof Error) throw result;
          return result as R.Principal;
        },
      });
      for (let i = 0; i < results.length; i++) {
        const answer = await call(served.url, i, "tools/call", { name: "echo", arguments: {} });
        expect(answer.status, String(i)).toBe(500);
        expect(answer.json).toEqual({ jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } });
      }
      expect(seen).toEqual([]);
      expect(served.errors.map((e) => e.message)).toEqual([
        "token store down",
        "authenticate must return a Principal (an object with a non-empty string id) or a Response, got an object",
        "authenticate must return a Principal (an object with a non-empty string id) or a Response, got an object",
        "authenticate must return a Principal (an object with a non-empty string id) or a Response, got null",
        'authenticate must return a Principal (an object with a non-empty string id) or a Response, got "alice"',
      ]);
    });

    it("an async authenticate is awaited; notifications are authenticated too", async () => {
      let asked = 0;
      served = await serve(face, {}, {
        authenticate: async (request) => {
          asked++;
          await new Promise((resolve) => setTimeout(resolve, 1));
          return request.headers.get("authorization") === "Bearer ok" ? { id: "ok" } : new Response(null, { status: 403 });
        },
      });
      const refused = await post(served.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, { ...headersFor("notifications/cancelled"), "mcp-method": undefined });
      expect(refused.status).toBe(403);
      const accepted = await post(
        served.url,
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
        { ...headersFor("notifications/cancelled"), authorization: "Bearer ok" },
      );
      expect(accepted.status).toBe(202);
      expect(asked).toBe(2);
    });

    it("is validated when the handler is made: anything but a function is a TypeError", () => {
      const server = new R.McpServer({});
      expect(() => R.createHttpHandler(server, { authenticate: "yes" as unknown as R.Authenticate })).toThrow(new TypeError('authenticate must be a function, got "yes"'));
    });

    it("without it, and on transports that know no principal, ctx.principal and ctx.http are undefined", async () => {
      const seen: Seen[] = [];
      served = await serve(face, recorder(seen));
      await call(served.url, 1, "tools/call", { name: "echo", arguments: {} });
      expect(seen[0]!.principal).toBeUndefined();
      expect(seen[0]!.http?.url).toBe(served.url);

      const [clientSide, serverSide] = createInMemoryTransportPair();
      const server = new R.McpServer(recorder(seen));
      await server.connect(serverSide);
      const client = new R.McpClient();
      await client.connect(clientSide);
      await client.callTool({ name: "echo", arguments: {}, _meta: META });
      expect(seen[1]).toEqual({ principal: undefined, http: undefined });
      await client.close();
      await server.close();
    });
  });
});
