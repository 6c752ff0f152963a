/**
 * A server reachable from other hosts without `authenticate` says so once (issue 41, finding 6;
 * templates/runtime/http/server/pipeline.ts, the authenticate stage of a handler without one):
 * the runtime learns where it is bound from its requests, so the first request that arrived at a
 * local address other than loopback logs one warning line to the handler's `logger` (default
 * stderr), on both faces of every HTTP handler; more requests log nothing more, and a server
 * with `authenticate`, or reached on loopback, logs nothing.
 *
 * The server listens on this machine's first address that is not loopback; on a machine without
 * one, it listens on loopback and each request's socket says it arrived at 192.0.2.2 (what the
 * faces read: `socket.localAddress`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import * as S from "../../../generated/2025-11-25/index.js";
import * as L from "../../../generated/2024-11-05/index.js";
import { describeFaces, listenerFor, type Face } from "../../../helpers/faces.js";

/** This machine's first IPv4 address that is not loopback, if any. */
const LAN = Object.values(networkInterfaces())
  .flat()
  .find((address) => address !== undefined && address.family === "IPv4" && !address.internal)?.address;

type Handler = R.ServedHandler;
type Listener = (request: IncomingMessage, response: ServerResponse) => void;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** `handler` on `face`, on the LAN address (else loopback, its requests arriving "at 192.0.2.2"), or on loopback; the URL of its root. */
async function serveAt(face: Face, handler: Handler, where: "lan" | "loopback"): Promise<string> {
  const listener = listenerFor(face, handler) as Listener;
  const lan = where === "lan";
  const bind = lan && LAN !== undefined ? LAN : "127.0.0.1";
  const arrivingElsewhere = lan && LAN === undefined;
  const http = createServer((request, response) => {
    if (arrivingElsewhere) Object.defineProperty(request.socket, "localAddress", { value: "192.0.2.2", configurable: true });
    listener(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, bind, resolve));
  closers.push(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  return `http://${bind}:${(http.address() as AddressInfo).port}`;
}

/** Every HTTP handler of the runtime, made with these options, and a path it serves. */
const HANDLERS: Record<string, { readonly make: (options: R.HttpHandlerOptions) => Handler; readonly path: string }> = {
  "createHttpHandler (2026-07-28)": { make: (options) => R.createHttpHandler(new R.McpServer({ logger: null }), options), path: "/mcp" },
  "createSessionHttpHandler (2025-11-25)": { make: (options) => S.createSessionHttpHandler(new S.McpServer({ logger: null }), options) as unknown as Handler, path: "/mcp" },
  "createLegacySseHandler (2024-11-05)": { make: (options) => L.createLegacySseHandler(new L.McpServer({ logger: null }), options) as unknown as Handler, path: "/sse" },
};

/** Three requests past the Host/Origin check and authentication (a DELETE: refused later, by each handler's envelope or routes). */
async function knock(url: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) statuses.push((await fetch(url, { method: "DELETE", headers: { authorization: "Bearer t" } })).status);
  return statuses;
}

describeFaces("a handler without authenticate reached at an address other than loopback", (face) => {
  for (const [name, { make, path }] of Object.entries(HANDLERS)) {
    it(`${name}: one warning on the first request, none after; none with authenticate, none on loopback`, async () => {
      const lines: string[] = [];
      const logger = (line: string): void => void lines.push(line);
      const guards = { allowedHosts: [LAN ?? "127.0.0.1"] };
      const statuses = await knock(`${await serveAt(face, make({ ...guards, logger }), "lan")}${path}`);
      expect(statuses.every((status) => status !== 403 && status !== 401)).toBe(true);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^mcp-stubgen: an HTTP handler without authenticate serves requests arriving at \S+, not a loopback address: every client is anonymous/);
      expect(lines[0]).toContain(LAN ?? "192.0.2.2");
      await knock(`${await serveAt(face, make({ ...guards, logger, authenticate: () => ({ id: "someone" }) }), "lan")}${path}`);
      await knock(`${await serveAt(face, make({ logger }), "loopback")}${path}`);
      expect(lines).toHaveLength(1);
    });
  }
});
