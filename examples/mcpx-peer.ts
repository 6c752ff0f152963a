/**
 * An MCPx participant over WebSocket, as a server or a client (run `npm run generate` first, and
 * start a gateway: `npm run example:mcpx-gateway -- --port 8080 --secret S`):
 *
 *   npm run example:mcpx-peer -- --role server --secret S [--url ws://127.0.0.1:8080/ws] [--id tools]
 *   npm run example:mcpx-peer -- --role client --secret S [--url …] [--id alice] [--server tools] [--abort-after-ms 300]
 *
 * The server holds one McpServer per client that joins the topic (a conversation each on its one
 * link) with a slow tool that reports progress and watches `ctx.signal`. The client calls it and
 * aborts: its notifications/cancelled crosses the gateway (or two, through Redis) and the
 * server's handler sees its signal abort. Each mints its own token with the demo secret.
 */
import { parseArgs } from "node:util";
import { connectMcpxLink } from "../out/runtime/addons/mcpx-ws/link.js";
import { signMcpxToken } from "../out/runtime/addons/mcpx-ws/token.js";
import { createMcpxTransport, McpClient, McpServer, RequestCancelledError, type CallToolResult } from "../out/2025-11-25/index.js";

const { values } = parseArgs({
  options: {
    role: { type: "string" },
    url: { type: "string", default: "ws://127.0.0.1:8080/ws" },
    topic: { type: "string", default: "demo" },
    secret: { type: "string" },
    id: { type: "string" },
    server: { type: "string", default: "tools" },
    shape: { type: "string" },
    "abort-after-ms": { type: "string", default: "300" },
  },
});
const fail = (message: string): never => {
  console.error(`mcpx-peer: ${message}`);
  process.exit(2);
};
const role = values.role === "server" || values.role === "client" ? values.role : fail("--role server|client");
const secret = values.secret ?? fail("--secret S is required");
const id = values.id ?? (role === "server" ? values.server : "alice");
const shape = values.shape === "draft" || values.shape === "v0.1" ? values.shape : undefined;
const token = () => signMcpxToken(secret, { participantId: id, topic: values.topic, capabilities: ["mcp", "mcp/*", "chat"] });
const link = await connectMcpxLink({ url: values.url, topic: values.topic, token, shape, onError: (e) => console.log(`${id}: gateway error ${e.error}: ${e.message}`) });
console.log(`${id}: joined "${values.topic}" as ${link.participantId} (shape ${link.shape}); present: ${link.participants().map((p) => p.id).join(", ") || "nobody"}`);
const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });

if (role === "server") {
  const serve = async (peer: string) => {
    const server = new McpServer({
      logger: null,
      handlers: {
        initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: id, version: "0.1.0" } }),
        "tools/call": async (_params, ctx) => {
          console.log(`${id}: ${peer}'s tools/call started (request id ${String(ctx.requestId)})`);
          for (let step = 1; step <= 50 && !ctx.signal.aborted; step++) {
            await ctx.sendProgress(step, 50, `step ${step}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          console.log(`${id}: ${peer}'s handler ${ctx.signal.aborted ? `saw ctx.signal abort: ${JSON.stringify(String(ctx.signal.reason))}` : "ran to the end"}`);
          return text("done");
        },
      },
    });
    await server.connect(createMcpxTransport({ participantId: id, peerId: peer, link }));
  };
  for (const p of link.participants()) void serve(p.id);
  link.onPresence((event, p) => {
    console.log(`${id}: ${p.id} ${event === "join" ? "joined" : "left"}`);
    if (event === "join") void serve(p.id);
  });
} else {
  while (!link.participants().some((p) => p.id === values.server)) await new Promise((resolve) => setTimeout(resolve, 50));
  const client = new McpClient({ logger: null, clientInfo: { name: id, version: "0.1.0" } });
  // connect() negotiates: initialize, then notifications/initialized.
  await client.connect(createMcpxTransport({ participantId: id, peerId: values.server, link }));
  const controller = new AbortController();
  setTimeout(() => controller.abort("the user pressed stop"), Number(values["abort-after-ms"]));
  try {
    await client.callTool({ name: "slow" }, { signal: controller.signal, onProgress: (p) => console.log(`${id}: progress ${p.progress}/${String(p.total)}`) });
    console.log(`${id}: the call completed (not cancelled)`);
    process.exitCode = 1;
  } catch (error) {
    console.log(`${id}: ${error instanceof RequestCancelledError ? `cancelled request ${String(error.requestId)} (${String(error.reason)})` : `failed: ${String(error)}`}`);
  }
  await client.close();
  link.close();
}
