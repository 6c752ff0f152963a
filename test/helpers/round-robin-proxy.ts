/**
 * A round-robin HTTP proxy on loopback, as a load balancer in front of several instances: each
 * request goes to the next upstream in turn, streamed both ways (SSE included); an upstream that
 * refuses the connection is skipped for that request (as a balancer's health check would), so a
 * stopped instance's requests go to the others. `served` records which upstream took each request.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  /** http://127.0.0.1:PORT */
  readonly origin: string;
  /** The upstream index that served each request, in order. */
  readonly served: number[];
  /** The upstream the next request goes to first (a test sends a cheap request to move it on). */
  readonly nextIndex: number;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const served: number[] = [];
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, tries: number): void => {
    const index = next++ % upstreams.length;
    const target = new URL(req.url ?? "/", upstreams[index]);
    const out = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      served.push(index);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      // The client went away: so does the upstream request (an SSE stream's close reaches the instance).
      res.once("close", () => answer.destroy());
    });
    out.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED" && tries + 1 < upstreams.length && !res.headersSent) return forward(req, res, body, tries + 1);
      if (!res.headersSent) res.writeHead(502).end(`proxy: ${error.message}`);
      else res.destroy(error);
    });
    out.end(body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => forward(req, res, Buffer.concat(chunks), 0));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    get nextIndex() {
      return next % upstreams.length;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
