/**
 * The client code the docs show, run as written (test/helpers/readme-snippets.ts: the block is
 * written to out/readme-snippets/ with its "./out/" imports re-rooted, and imported) against our
 * 2026-07-28 server on loopback, with what crossed the wire recorded at the server:
 *   - docs/http-client.md "Streamable HTTP client (2026-07-28)" (`http-client-example`): an input request
 *     answered by the elicitation handler, and an abort that closes the stream (the handler's
 *     ctx.signal aborts, no notifications/cancelled is POSTed);
 *   - docs/auth.md (`auth-provider`): an AuthProvider's token reaches the server as
 *     `Authorization: Bearer` on every POST, and a 401 rejects with UnauthorizedError (an
 *     HttpStatusError 401). (Until issue 30 this was a fetch wrapper in conformance/README.md.)
 * Both blocks also type-check under the strictest options users vendor the output with.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PACKAGE_ROOT } from "../../../../generator/project.js";
import * as R from "../../../generated/2026-07-28/index.js";
import { abortOf, deferred } from "../stateless/support.js";
import { importCodeBlock } from "../../../helpers/readme-snippets.js";
import { typecheckFiles } from "../../../helpers/typecheck.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

const BOUND_MS = 10_000;
/** `promise`, or a rejection naming `what` after BOUND_MS: a hang fails here, not in vitest's timeout. */
function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no outcome within ${BOUND_MS} ms`)), BOUND_MS)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Our server behind createHttpHandler + toNodeListener; `gate` may answer a POST itself (an
 * auth check), else it goes to the handler. Every POST's headers are recorded.
 */
async function serveRecorded(
  handlers: R.McpServerOptions["handlers"],
  gate?: (headers: IncomingHttpHeaders) => number | undefined,
): Promise<{ url: string; posted: IncomingHttpHeaders[] }> {
  const server = new R.McpServer({ serverInfo: { name: "readme", version: "1.0.0" }, logger: null, handlers });
  const listener = R.toNodeListener(R.createHttpHandler(server));
  const posted: IncomingHttpHeaders[] = [];
  const http = createServer((req, res) => {
    posted.push(req.headers);
    const status = gate?.(req.headers);
    if (status !== undefined) {
      res.writeHead(status).end();
      return;
    }
    void listener(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, posted };
}

describe("docs/http-client.md: the 2026-07-28 HTTP client example", () => {
  it("answers the server's input request, then aborts a call: the handler sees it, no notification is POSTed", async () => {
    const slowSignal = deferred<AbortSignal>();
    const { url, posted } = await serveRecorded({
      "tools/call": async (params, ctx) => {
        if (params.name === "greet") {
          const who = { who: { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } } satisfies R.InputRequests;
          const answers = ctx.input.responses(who);
          if (answers === undefined) return ctx.input.required(who);
          return { resultType: "complete", content: [{ type: "text", text: `hello ${String(answers.who.content?.["name"])}` }] };
        }
        await ctx.sendProgress(1);
        slowSignal.resolve(ctx.signal);
        await abortOf(ctx.signal);
        return { resultType: "complete", content: [] };
      },
    });
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const example = await importCodeBlock<{ main: (url?: string) => Promise<void> }>("docs/http-client.md", "http-client-example");
    await bounded(example.main(url), "the docs example");

    expect(log.mock.calls).toEqual([[[{ type: "text", text: "hello Ada" }]], ["slow: tools/call was cancelled: user pressed stop"]]);
    const signal = await bounded(slowSignal.promise, "the slow handler");
    await bounded(abortOf(signal), "the slow handler's signal");
    expect(signal.aborted).toBe(true);
    // connect()'s server/discover, greet, its retry with the answer, slow; nothing else (no notifications/cancelled).
    expect(posted.map((h) => [h["mcp-method"], h["mcp-name"]])).toEqual([
      ["server/discover", undefined],
      ["tools/call", "greet"],
      ["tools/call", "greet"],
      ["tools/call", "slow"],
    ]);
  });
});

describe("docs/auth.md: an AuthProvider adds Authorization", () => {
  const handlers: R.McpServerOptions["handlers"] = {
    "tools/list": () => ({ resultType: "complete", ttlMs: 0, cacheScope: "private", tools: [{ name: "t", inputSchema: { type: "object" } }] }),
    "tools/call": () => ({ resultType: "complete", content: [{ type: "text", text: "ok" }] }),
  };
  const onlyToken = (token: string) => (headers: IncomingHttpHeaders) => (headers.authorization === `Bearer ${token}` ? undefined : 401);

  it("puts the token on every POST; the server sees it", async () => {
    const { url, posted } = await serveRecorded(handlers, onlyToken("t-1"));
    const auth = await importCodeBlock<{ connect: (url: string, getToken: () => Promise<string>) => Promise<R.McpClient> }>("docs/auth.md", "auth-provider");
    let asked = 0;
    const client = await auth.connect(url, async () => (asked++, "t-1"));
    await expect(bounded(client.listTools({}), "tools/list")).resolves.toMatchObject({ tools: [{ name: "t" }] });
    await expect(bounded(client.callTool({ name: "t", arguments: {} }), "tools/call")).resolves.toMatchObject({ content: [{ type: "text", text: "ok" }] });
    expect(posted.map((h) => [h["mcp-method"], h.authorization])).toEqual([
      ["server/discover", "Bearer t-1"],
      ["tools/list", "Bearer t-1"],
      ["tools/call", "Bearer t-1"],
    ]);
    expect(asked).toBe(3);
    await client.close();
  });

  it("a token the server refuses: 401, and connect() (its server/discover) rejects with UnauthorizedError, an HttpStatusError", async () => {
    const { url } = await serveRecorded(handlers, onlyToken("t-1"));
    const auth = await importCodeBlock<{ connect: (url: string, getToken: () => Promise<string>) => Promise<R.McpClient> }>("docs/auth.md", "auth-provider");
    const error = await bounded(auth.connect(url, async () => "stale").catch((e: unknown) => e), "connect");
    // The block imports out/, another copy of the runtime than R's: the class chain is checked by name.
    expect(Object.getPrototypeOf(Object.getPrototypeOf(error)).constructor.name).toBe("HttpStatusError");
    expect(error).toMatchObject({ name: "UnauthorizedError", status: 401, method: "server/discover" });
  });
});

describe("the documented client blocks type-check", () => {
  it("under the strictest options", async () => {
    await importCodeBlock("docs/http-client.md", "http-client-example");
    await importCodeBlock("docs/auth.md", "auth-provider");
    const folder = join(PACKAGE_ROOT, "out", "readme-snippets");
    const diagnostics = typecheckFiles([join(folder, "http-client-example.ts"), join(folder, "auth-provider.ts")]);
    expect(diagnostics).toEqual([]);
  });
});
