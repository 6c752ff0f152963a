// The node:http server both HTTP contenders run behind: it turns each IncomingMessage into a
// web-standard Request and writes the handler's Response back, streaming its body. The same
// bridge for both sides, so only the MCP handler differs. When the client goes away before the
// response is complete, the Request's signal aborts and the response body's reader is cancelled:
// the two ways a web-standard handler can learn of it.
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type WebHandler = (request: Request) => Promise<Response>;

export interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function toRequest(req: IncomingMessage, origin: string, body: Buffer, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? "GET";
  const init: RequestInit = { method, headers, signal };
  if (method !== "GET" && method !== "HEAD") init.body = new Uint8Array(body);
  return new Request(new URL(req.url ?? "/", origin), init);
}

async function writeResponse(response: Response, res: ServerResponse, gone: AbortSignal): Promise<void> {
  const headers: Record<string, string[]> = {};
  response.headers.forEach((value, name) => {
    (headers[name] ??= []).push(value);
  });
  res.writeHead(response.status, headers);
  if (response.body === null) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel(gone.reason).catch(() => {});
  if (gone.aborted) cancel();
  else gone.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } catch {
    // The stream was cancelled (the client went away) or failed: nothing more to write.
    res.destroy();
  } finally {
    gone.removeEventListener("abort", cancel);
  }
}

async function serve(handler: WebHandler, origin: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const client = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) client.abort(new Error("the client closed the connection"));
  });
  try {
    const request = toRequest(req, origin, await readBody(req), client.signal);
    await writeResponse(await handler(request), res, client.signal);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(`bridge error: ${String(error)}`);
  }
}

/** Serves `handler` on 127.0.0.1 at a free port, behind the bridge. */
export async function listen(handler: WebHandler): Promise<Listening> {
  let origin = "";
  const listening = await listenNode((req, res) => void serve(handler, origin, req, res));
  origin = new URL(listening.url).origin;
  return listening;
}

/** Serves a node:http request listener as it is on 127.0.0.1 at a free port (the raw floors, our faces). */
export function listenNode(listener: RequestListener): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createServer(listener);
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
