/**
 * HeaderMismatch on a tools/call (2026-07-28 basic/transports/streamable-http, Custom Headers
 * from Tool Parameters: "the client SHOULD call tools/list to check for changes to the tool's
 * inputSchema, then retry the original request with the appropriate headers"), at the wire,
 * against our own server (createHttpHandler on both faces: native node:http and web-standard,
 * test/helpers/faces.ts), whose tools/list handler changes a tool's x-mcp-header annotations
 * between the client's listing and its call: the transport lists the tools again and retries
 * once, with the same id and the new Mcp-Param-* header; with nothing new to send, or a second
 * refusal, the caller gets the -32020 error; a cancel during the refresh sends nothing more.
 */
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { deferred, describeFaces, serve, type Face, type Served } from "../stateless/support.js";
import { connectClient } from "./support.js";

const served: Served[] = [];
afterEach(async () => {
  for (const s of served.splice(0)) await s.close();
});

type Annotation = "none" | "Region" | "Zone";

/**
 * A server whose tool "t" annotates `region` as the test says at the moment of each tools/list.
 * `onList` hears of the client's listings only (numbered from 1), after their result is made:
 * the server also calls its own tools/list handler to check each call's Mcp-Param-* headers,
 * without the clientInfo every request of the client carries.
 */
async function changingServer(face: Face, onList?: (count: number) => Promise<void> | void): Promise<{ s: Served; set: (a: Annotation) => void }> {
  let annotation: Annotation = "none";
  let lists = 0;
  const s = await serve(
    face,
    {
      handlers: {
        "tools/list": async (params) => {
          const region = annotation === "none" ? { type: "string" as const } : { type: "string" as const, "x-mcp-header": annotation };
          if (params?._meta?.["io.modelcontextprotocol/clientInfo"] !== undefined) await onList?.(++lists);
          return { resultType: "complete" as const, ttlMs: 0, cacheScope: "private" as const, tools: [{ name: "t", inputSchema: { type: "object" as const, properties: { region } } }] };
        },
        "tools/call": (params) => ({ resultType: "complete", content: [{ type: "text", text: `called ${String(params.arguments?.["region"])}` }] }),
      },
    },
    // The server reads the annotations from its own tools/list on every call.
    { toolHeadersTtlMs: 0 },
  );
  served.push(s);
  return { s, set: (a) => (annotation = a) };
}

const summary = (posted: { headers: Record<string, string>; body: Record<string, unknown> }[]) =>
  posted.map((p) => [p.body["method"], p.body["id"], p.headers["mcp-param-region"] ?? p.headers["mcp-param-zone"] ?? null]);

describeFaces("HttpClientTransport: HeaderMismatch on tools/call", (face) => {
  it("lists the tools again and retries once, same id, with the header the new annotation asks for", async () => {
    const { s, set } = await changingServer(face);
    const { client, posted, errors } = await connectClient(s.url);
    await client.listTools({});
    set("Region");
    const result = await client.callTool({ name: "t", arguments: { region: "eu" } });
    expect(result).toMatchObject({ content: [{ type: "text", text: "called eu" }] });
    const [list, call, refresh, retry] = posted;
    expect(summary(posted)).toEqual([
      ["tools/list", list!.body["id"], null],
      ["tools/call", call!.body["id"], null],
      ["tools/list", "mcp-stubgen/tools-list-refresh/1", null],
      ["tools/call", call!.body["id"], "eu"],
    ]);
    // The refresh is a proper request: the call's _meta, the standard headers, nothing else.
    expect(refresh!.body["params"]).toEqual({ _meta: (call!.body["params"] as { _meta: unknown })._meta });
    expect(refresh!.headers["mcp-method"]).toBe("tools/list");
    expect(retry!.body).toEqual(call!.body);
    expect(errors).toEqual([]);
    await client.close();
  });

  it("refused again after the retry: the caller gets the HeaderMismatch error, no third POST", async () => {
    let annotation: Annotation = "Region";
    // After each listing of the client the server moves to the other header: the retry is stale too.
    const { s, set } = await changingServer(face, () => {
      annotation = annotation === "Region" ? "Zone" : "Region";
      set(annotation);
    });
    set(annotation);
    const { client, posted } = await connectClient(s.url);
    await client.listTools({});
    const error = await client.callTool({ name: "t", arguments: { region: "eu" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.McpError);
    expect((error as R.McpError).code).toBe(-32020);
    expect(posted.map((p) => p.body["method"])).toEqual(["tools/list", "tools/call", "tools/list", "tools/call"]);
    await client.close();
  });

  it("nothing changed after the refresh: no retry, the caller gets the HeaderMismatch error", async () => {
    const { s, set } = await changingServer(face);
    set("Region");
    // A proxy on the way that drops Mcp-Param-* headers: the server refuses, and a fresh
    // tools/list shows the same annotation, so a retry would send the same headers again.
    const methods: string[] = [];
    const dropping: R.FetchLike = (input, init) => {
      const headers = new Headers(init.headers);
      methods.push(String(headers.get("mcp-method")));
      headers.delete("mcp-param-region");
      return fetch(input, { ...init, headers });
    };
    const { client } = await connectClient(s.url, {}, { fetch: dropping });
    await client.listTools({});
    const error = await client.callTool({ name: "t", arguments: { region: "eu" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(R.McpError);
    expect((error as R.McpError).code).toBe(-32020);
    expect(methods).toEqual(["tools/list", "tools/call", "tools/list"]);
    await client.close();
  });

  it("a cancel while the tools are listed again closes that stream too and sends nothing more", async () => {
    const listing = deferred<void>();
    const hold = deferred<void>();
    const { s, set } = await changingServer(face, async (count) => {
      if (count === 2) {
        listing.resolve();
        await hold.promise;
      }
    });
    const { client, posted, events } = await connectClient(s.url);
    await client.listTools({});
    set("Region");
    const stop = new AbortController();
    const call = client.callTool({ name: "t", arguments: { region: "eu" } }, { signal: stop.signal }).catch((e: unknown) => e);
    await listing.promise;
    stop.abort("stop");
    expect(await call).toBeInstanceOf(R.RequestCancelledError);
    hold.resolve();
    // A request after the cancel: its POST comes right after the refresh, nothing in between.
    await client.listTools({});
    expect(posted.map((p) => p.body["method"])).toEqual(["tools/list", "tools/call", "tools/list", "tools/list"]);
    expect(events).toMatchObject([{ type: "sent", method: "tools/call", via: "stream-close" }]);
    await client.close();
  });
});
