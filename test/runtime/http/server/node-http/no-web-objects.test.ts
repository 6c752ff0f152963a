/**
 * The native face builds no web objects per request (templates/runtime/http/server/node-face.ts):
 * while a few tools/call requests go through toNodeListener(createHttpHandler(server)) on a real
 * loopback server, one answered with JSON and one with an SSE stream carrying progress, the global
 * Request, Response, Headers, ReadableStream and AbortController constructors are wrapped with
 * counting proxies, and none is constructed. The same requests on the web face (the handler
 * bridged as a plain web function) construct each of them, which shows the count can fail. The
 * client is node:http, which makes none of them itself; the globals are restored after.
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { headersFor, listen, META, type Face } from "../../stateless/support.js";

const WEB_CLASSES = ["Request", "Response", "Headers", "ReadableStream", "AbortController"] as const;
type WebClass = (typeof WEB_CLASSES)[number];

let restore: (() => void) | undefined;
afterEach(() => {
  restore?.();
  restore = undefined;
});

/** Wraps each global constructor of WEB_CLASSES in a Proxy that counts `new`; `restore` puts the originals back. */
function countConstructions(): Record<WebClass, number> {
  const counts = Object.fromEntries(WEB_CLASSES.map((name) => [name, 0])) as Record<WebClass, number>;
  const globals = globalThis as unknown as Record<WebClass, new (...args: unknown[]) => object>;
  const originals = WEB_CLASSES.map((name) => [name, globals[name]] as const);
  for (const [name, original] of originals) {
    const counting: typeof original = new Proxy(original, {
      construct(target, args, newTarget): object {
        counts[name]++;
        return Reflect.construct(target, args, newTarget === counting ? target : newTarget) as object;
      },
    });
    globals[name] = counting;
  }
  restore = () => {
    for (const [name, original] of originals) globals[name] = original;
  };
  return counts;
}

/** One POST over node:http; the status, content-type and body. */
function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; type: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"], text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const server = new R.McpServer({
  logger: null,
  handlers: {
    "tools/call": async (params, ctx) => {
      if (params.name === "progress") {
        await ctx.sendProgress(1, 2);
        await ctx.sendProgress(2, 2);
      }
      return { resultType: "complete", content: [{ type: "text", text: params.name }] };
    },
  },
});

/** Three tools/call answered with JSON and three with SSE (progress, then the result) on `face`, counted. */
async function callsOn(face: Face): Promise<Record<WebClass, number>> {
  const listening = await listen(face, R.createHttpHandler(server, { keepAliveMs: 0 }));
  try {
    const call = (id: number, name: string) =>
      post(listening.url, JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {}, _meta: { ...META, progressToken: id } } }), headersFor("tools/call", { name }));
    // One call before counting: whatever is made once per server (the tools/list read of the
    // x-mcp-header annotations, first compilations) is not per request.
    expect((await call(0, "plain")).status).toBe(200);
    const counts = countConstructions();
    const answers = [];
    for (let id = 1; id <= 3; id++) answers.push(await call(id, "plain"), await call(id + 10, "progress"));
    restore?.();
    restore = undefined;
    expect(answers.map((a) => [a.status, a.type])).toEqual(Array(3).fill([[200, "application/json"], [200, "text/event-stream"]]).flat());
    expect(answers[1]!.text).toContain('"progress":2');
    return counts;
  } finally {
    await listening.close();
  }
}

describe("web objects made per request", () => {
  it("the native face: no Request, Response, Headers, ReadableStream or AbortController for JSON and SSE answers", async () => {
    expect(await callsOn("native")).toEqual({ Request: 0, Response: 0, Headers: 0, ReadableStream: 0, AbortController: 0 });
  });

  it("the web face (bridged): each of them, at least once per request", async () => {
    const counts = await callsOn("web");
    for (const name of WEB_CLASSES) expect(counts[name], name).toBeGreaterThanOrEqual(6);
  });
});
