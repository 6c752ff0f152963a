/**
 * Three web origins on loopback, served by one static handler over the bundled pages:
 *
 * - the host's, http://127.0.0.1:A, which also serves the MCP server at /mcp (same origin as
 *   the host page, so no CORS is involved);
 * - the app's, http://localhost:B: another host name as well as another port, so the iframe is
 *   cross-site, not only cross-origin (Chromium gives it its own process);
 * - a third one, http://127.0.0.1:C, whose page posts forged messages to the other two.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

export interface Origins {
  readonly host: string;
  readonly app: string;
  readonly third: string;
  close(): Promise<void>;
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
};

/** Serves the files of `dir` (GET, flat names only); `/mcp` goes to `mcp` when given. */
function staticListener(dir: string, mcp?: Listener): Listener {
  return (request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    if (mcp !== undefined && path === "/mcp") return mcp(request, response);
    const name = normalize(path).replace(/^\/+/, "");
    if (request.method !== "GET" || name.includes("/") || name.includes("\\") || name === "") {
      response.writeHead(404).end();
      return;
    }
    readFile(join(dir, name)).then(
      (body) => {
        response.writeHead(200, { "content-type": TYPES[extname(name)] ?? "application/octet-stream", "cache-control": "no-store" });
        response.end(body);
      },
      () => response.writeHead(404).end(),
    );
  };
}

async function listen(listener: Listener): Promise<{ server: Server; port: number }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Starts the three origins over the files of `dir`; the host's also routes /mcp to `mcp`. */
export async function serveOrigins(dir: string, mcp?: Listener): Promise<Origins> {
  const [host, app, third] = await Promise.all([listen(staticListener(dir, mcp)), listen(staticListener(dir)), listen(staticListener(dir))]);
  const servers = [host.server, app.server, third.server];
  return {
    host: `http://127.0.0.1:${host.port}`,
    app: `http://localhost:${app.port}`,
    third: `http://127.0.0.1:${third.port}`,
    async close() {
      await Promise.all(
        servers.map(async (server) => {
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }),
      );
    },
  };
}
