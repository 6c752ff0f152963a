/**
 * Host and Origin everywhere (issue 28, defect 7; server/guards.ts hostProblem and parseHost), on
 * both faces of the handler: a server reached at a non-loopback address refuses every Host the
 * user has not listed in allowedHosts (an Origin equal to the Host is what a DNS rebinding page
 * sends), and on loopback the port part of Host is validated. Real node:http servers; the
 * requests go over real sockets with exactly the Host they name (a LAN address is also shown to
 * the handler as the socket's local address, for machines that have none).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { fixtureServer } from "../../stateless/fixture-server.js";
import { answer, arrivingAt, describeFaces, headersFor, listenerFor, META, raw, serve, type Face, type Served } from "../../stateless/support.js";

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });

/** The machine's non-loopback IPv4 addresses (a container's eth0, a LAN card). */
const lanAddresses = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .filter((a) => a.family === "IPv4" && !a.internal)
  .map((a) => a.address);

let servers: Server[] = [];
let served: Served[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  servers = [];
  await Promise.all(served.splice(0).map((s) => s.close()));
});

/** The handler on `face` behind node:http, listening on every address (0.0.0.0); its port. */
async function serveEverywhere(face: Face, options: R.HttpHandlerOptions = {}): Promise<number> {
  const http = createServer(listenerFor(face, R.createHttpHandler(fixtureServer(), options)));
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, "0.0.0.0", resolve));
  return (http.address() as AddressInfo).port;
}

/** tools/list to `address:port`, with this Host (and Origin when given). */
function listAt(address: string, port: number, host: string, origin?: string): Promise<{ status: number; text: string; headers: Headers }> {
  const headers: Record<string, string> = { ...headersFor("tools/list"), host };
  if (origin !== undefined) headers["origin"] = origin;
  return raw(`http://${address}:${port}/mcp`, "POST", headers, LIST);
}

/** The fixture server on `face` on loopback, its requests seen as arriving at `localAddress` when given. */
async function serveAt(face: Face, localAddress?: string, options: R.HttpHandlerOptions = {}): Promise<Served> {
  const s = await serve(face, {}, options, localAddress === undefined ? {} : { wrap: arrivingAt(localAddress) });
  served.push(s);
  return s;
}

const handlerOnly = (options: R.HttpHandlerOptions = {}) => R.createHttpHandler(fixtureServer(), options);
const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...headersFor("tools/list"), ...headers }, body: LIST });
const invalid = ["[::1]evil", "localhost:evil.example", "127.0.0.1:99999", "localhost:80:80", "[::1]:8o"];
const invalidHost = (host: string) => `Bad Request: Host ${JSON.stringify(host)} is not a valid host[:port]`;

describeFaces("Host and Origin", (face) => {
  describe("Host off loopback (DNS rebinding)", () => {
    it("a request that arrived at a LAN address with Host evil.example:3000 and the same Origin is refused, naming allowedHosts", async () => {
      const s = await serveAt(face, "192.168.1.20");
      const refused = await raw(s.url, "POST", { ...headersFor("tools/list"), host: "evil.example:3000", origin: "http://evil.example:3000" }, LIST);
      expect(refused.status).toBe(403);
      const message = (refused.json as { error: { message: string } }).error.message;
      expect(message).toContain('Host "evil.example:3000" is not allowed');
      expect(message).toContain("allowedHosts");
      expect(message).toContain("dnsRebindingProtection: false");
    });

    it("over node:http bound to every address: loopback requests are served, requests at a LAN address only with allowedHosts or the check off", async () => {
      const closed = await serveEverywhere(face);
      expect((await listAt("127.0.0.1", closed, `localhost:${closed}`)).status).toBe(200);
      const listed = await serveEverywhere(face, { allowedHosts: ["mcp.example.com"] });
      const open = await serveEverywhere(face, { dnsRebindingProtection: false });
      // This machine's own non-loopback addresses (there may be none: then the test above stands alone).
      for (const address of lanAddresses) {
        const refused = await listAt(address, closed, "evil.example:3000", "http://evil.example:3000");
        expect(refused.status, address).toBe(403);
        expect(refused.text, address).toContain("allowedHosts");
        expect((await listAt(address, closed, `${address}:${closed}`)).status, address).toBe(403);
        expect((await listAt(address, listed, "evil.example:3000", "http://evil.example:3000")).status, address).toBe(403);
        expect((await listAt(address, listed, "mcp.example.com", "http://mcp.example.com")).status, address).toBe(200);
        expect((await listAt(address, open, "evil.example:3000", "http://evil.example:3000")).status, address).toBe(200);
      }
    });
  });

  describe("Host on loopback: the port part is validated", () => {
    it(
      face === "native"
        ? "a Host that is no host[:port] is refused with 400 and a JSON-RPC error, whatever follows a loopback name"
        : "a Host that is no host[:port] is refused with 400 by the bridge, as text (no web Request can be made of it)",
      async () => {
        const s = await serveAt(face);
        for (const host of invalid) {
          const refused = await listAt("127.0.0.1", Number(new URL(s.url).port), host);
          expect(refused.status, host).toBe(400);
          if (face === "native") {
            expect(refused.headers.get("content-type"), host).toBe("application/json");
            expect(JSON.parse(refused.text), host).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: invalidHost(host) } });
          } else {
            expect(refused.headers.get("content-type"), host).toBe("text/plain");
            expect(refused.text, host).toBe(invalidHost(host));
          }
        }
      },
    );

    it("valid loopback Hosts with a port are served", async () => {
      const s = await serveAt(face);
      const port = Number(new URL(s.url).port);
      for (const host of ["localhost:3000", "[::1]:65535", "127.0.0.1:", `[::1]:${port}`]) expect((await listAt("127.0.0.1", port, host)).status, host).toBe(200);
    });

    it("an Origin of a loopback name on another port is still a loopback origin; one with a port no URL has is refused", async () => {
      const s = await serveAt(face);
      const port = Number(new URL(s.url).port);
      expect((await listAt("127.0.0.1", port, "localhost:3000", "http://localhost:5173")).status).toBe(200);
      expect((await listAt("127.0.0.1", port, "localhost:3000", "http://localhost:evil.example")).status).toBe(403);
    });
  });
});

describe("the web face called in process", () => {
  it("refuses a Host that is no host[:port] with 400 and a JSON-RPC error, as the native face does", async () => {
    const handler = handlerOnly();
    for (const host of invalid) {
      const refused = await answer("web", handler, request({ host }), { localAddress: "127.0.0.1" });
      expect(refused.status, host).toBe(400);
      expect(await refused.json(), host).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: invalidHost(host) } });
    }
  });
});

describe("options", () => {
  it("allowedHosts and allowedOrigins must be arrays of non-empty strings, checked at construction", () => {
    expect(() => handlerOnly({ allowedHosts: "mcp.example.com" as unknown as string[] })).toThrow(/allowedHosts must be an array of non-empty strings/);
    expect(() => handlerOnly({ allowedHosts: [""] })).toThrow(TypeError);
    expect(() => handlerOnly({ allowedOrigins: [7] as unknown as string[] })).toThrow(/allowedOrigins must be an array/);
    expect(() => handlerOnly({ dnsRebindingProtection: "no" as unknown as boolean })).toThrow(/dnsRebindingProtection must be a boolean/);
  });
});
