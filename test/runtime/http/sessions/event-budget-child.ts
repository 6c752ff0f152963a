/**
 * The child process of event-budget.test.ts, run as `node --import tsx --max-old-space-size=512
 * --expose-gc event-budget-child.ts SESSIONS CHARS`: a 2025-11-25 server behind
 * createSessionHttpHandler on 127.0.0.1 with the default bounds, and SESSIONS sessions, each
 * calling a tool whose response is CHARS characters of two-byte text (so what the event store
 * counts, UTF-16 × 2, is what the heap holds). The tool closes its stream first (the 2025-11-25
 * polling pattern, handler.closeStream), so its response is only stored, for a resumption that
 * never comes, and no byte of it crosses the socket. Prints one JSON line: the bytes the stores
 * hold, the sessions open, the heap and RSS before and after (after a GC), and the most RSS seen.
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import * as R from "../../../generated/2025-11-25/index.js";

const [sessions, chars] = process.argv.slice(2).map(Number) as [number, number];
const BIG = "\u20ac".repeat(chars); // one string; the response's JSON text is the copy a session's store keeps

const served: { handler?: R.SessionHttpHandler } = {};
const server = new R.McpServer({
  logger: null,
  protocolVersions: ["2025-11-25"],
  handlers: {
    "tools/call": async (_params, ctx) => {
      served.handler!.closeStream(ctx.http!.headers.get("mcp-session-id")!, ctx.requestId);
      await new Promise((resolve) => setImmediate(resolve));
      return { content: [{ type: "text", text: BIG }] };
    },
  },
});
const errors: string[] = [];
const handler = R.createSessionHttpHandler(server, { responses: "sse", onError: (error) => errors.push(error.message) });
served.handler = handler;
const http = createServer(R.toNodeListener(handler) as unknown as Parameters<typeof createServer>[1]);
await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
const port = (http.address() as AddressInfo).port;
const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** One POST on a kept-alive connection: its status, session id and body. */
function post(message: object, sessionId?: string): Promise<{ status: number; sessionId: string | undefined; body: string }> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
  if (sessionId !== undefined) headers["mcp-session-id"] = sessionId;
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: "/mcp", method: "POST", agent, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, sessionId: res.headers["mcp-session-id"] as string | undefined, body }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(message));
  });
}

async function oneSession(): Promise<void> {
  const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } });
  const call = await post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "big" } }, init.sessionId);
  if (call.status !== 200) throw new Error(`tools/call answered ${call.status}: ${call.body.slice(0, 200)}`);
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
gc();
const before = process.memoryUsage();
let maxRss = before.rss;
for (let i = 0; i < sessions; i += 4) {
  await Promise.all([oneSession(), oneSession(), oneSession(), oneSession()]);
  maxRss = Math.max(maxRss, process.memoryUsage().rss);
}
// Every response stored: nothing in flight.
while (server.inFlight.received > 0) await new Promise((resolve) => setTimeout(resolve, 5));
gc();
const after = process.memoryUsage();
maxRss = Math.max(maxRss, after.rss);
console.log(JSON.stringify({ sessions: handler.sessionCount, stored: handler.storedEventBytes, before, after, maxRss, errors: errors.slice(0, 3) }));
process.exit(0);
