/**
 * Helpers of the HTTP+SSE client tests: the official SDK 1.32 HTTP+SSE server (McpServer over
 * SSEServerTransport, GET /sse and POST /messages on node:http at 127.0.0.1:0), and a raw
 * node:http server whose GET the test scripts (to send what no conforming server would).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";

export const TEXT = (text: string) => ({ type: "text" as const, text });

export interface Listening {
  readonly origin: string;
  readonly http: Server;
  close(): Promise<void>;
}

const open: Listening[] = [];

export async function closeAll(): Promise<void> {
  for (const s of open.splice(0)) await s.close();
}

/** A node:http server on loopback with `listener`. */
export async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void, onClose: () => Promise<void> = async () => {}): Promise<Listening> {
  const http = createServer(listener);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  const listening: Listening = {
    origin: `http://127.0.0.1:${port}`,
    http,
    close: async () => {
      await onClose();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  open.push(listening);
  return listening;
}

export interface SdkSide extends Listening {
  /** The abort reasons the SDK's slow tool saw. */
  readonly aborts: unknown[];
  readonly started: { count: number };
  /** POSTs the SDK side received, by path (a fallback client's Streamable HTTP probe included). */
  readonly requests: string[];
}

/**
 * The SDK's HTTP+SSE server: `GET ssePath` opens a session (one McpServer per session, as the
 * SDK's examples do), `POST /messages?sessionId=` feeds it; anything else is 404. Tools: echo,
 * slow (waits for its signal).
 */
export async function sdkSseServer(ssePath = "/sse"): Promise<SdkSide> {
  const transports = new Map<string, SSEServerTransport>();
  const servers: McpServer[] = [];
  const aborts: unknown[] = [];
  const started = { count: 0 };
  const requests: string[] = [];
  const listening = await listen(
    (req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      requests.push(`${req.method} ${url.pathname}`);
      if (req.method === "GET" && url.pathname === ssePath) {
        const mcp = new McpServer({ name: "sdk-sse-server", version: "1.0.0" });
        mcp.registerTool("echo", { description: "echo" }, () => ({ content: [TEXT("echo from the SDK")] }));
        mcp.registerTool("slow", { description: "slow" }, async (extra) => {
          started.count++;
          await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve(), { once: true }));
          aborts.push(extra.signal.reason);
          return { content: [] };
        });
        const transport = new SSEServerTransport("/messages", res);
        transports.set(transport.sessionId, transport);
        servers.push(mcp);
        res.on("close", () => transports.delete(transport.sessionId));
        void mcp.connect(transport);
        return;
      }
      if (req.method === "POST" && url.pathname === "/messages") {
        const transport = transports.get(url.searchParams.get("sessionId") ?? "");
        if (transport === undefined) {
          res.writeHead(404).end("no session");
          return;
        }
        void transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(404).end("not found");
    },
    async () => {
      for (const mcp of servers) await mcp.close().catch(() => undefined);
    },
  );
  return Object.assign(listening, { aborts, started, requests });
}
