/**
 * Host and Origin everywhere (issue 28, defect 7; http/guards.ts hostProblem and parseHost): a
 * server reached at a non-loopback address refuses every Host the user has not listed in
 * allowedHosts (an Origin equal to the Host is what a DNS rebinding page sends), and on loopback
 * the port part of Host is validated, by the web handler and by the node adapter alike. Real
 * node:http servers; the requests go over real sockets with exactly the Host they name.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../../generated/2026-07-28/index.js";
import { fixtureServer } from "../../stateless/fixture-server.js";
import { headersFor, META, raw } from "../../stateless/support.js";

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } });

/** The machine's non-loopback IPv4 addresses (a container's eth0, a LAN card). */
const lanAddresses = Object.values(networkInterfaces())
  .flatMap((list) => list ?? [])
  .filter((a) => a.family === "IPv4" && !a.internal)
  .map((a) => a.address);

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  servers = [];
});

/** The handler behind node:http, listening on every address (0.0.0.0); its port. */
async function serveEverywhere(options: R.HttpHandlerOptions = {}): Promise<number> {
  const http = createServer(R.toNodeListener(R.createHttpHandler(fixtureServer(), options)));
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, "0.0.0.0", resolve));
  return (http.address() as AddressInfo).port;
}

/** tools/list to `address:port`, with this Host (and Origin when given). */
function listAt(address: string, port: number, host: string, origin?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { ...headersFor("tools/list"), host };
  if (origin !== undefined) headers["origin"] = origin;
  return raw(`http://${address}:${port}/mcp`, "POST", headers, LIST);
}

const handlerOnly = (options: R.HttpHandlerOptions = {}) => R.createHttpHandler(fixtureServer(), options);
const request = (headers: Record<string, string>) => new Request("http://127.0.0.1/mcp", { method: "POST", headers: { ...headersFor("tools/list"), ...headers }, body: LIST });

describe("Host off loopback (DNS rebinding)", () => {
  it("a request that arrived at a LAN address with Host evil.example:3000 and the same Origin is refused, naming allowedHosts", async () => {
    const handler = handlerOnly();
    const answer = await handler(request({ host: "evil.example:3000", origin: "http://evil.example:3000" }), { localAddress: "192.168.1.20" });
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { error: { message: string } };
    expect(body.error.message).toContain('Host "evil.example:3000" is not allowed');
    expect(body.error.message).toContain("allowedHosts");
    expect(body.error.message).toContain("dnsRebindingProtection: false");
  });

  it("over node:http bound to every address: loopback requests are served, requests at a LAN address only with allowedHosts or the check off", async () => {
    const closed = await serveEverywhere();
    expect((await listAt("127.0.0.1", closed, `localhost:${closed}`)).status).toBe(200);
    const listed = await serveEverywhere({ allowedHosts: ["mcp.example.com"] });
    const open = await serveEverywhere({ dnsRebindingProtection: false });
    // This machine's own non-loopback addresses (there may be none: then the handler test above stands alone).
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

  it("allowedHosts and allowedOrigins must be arrays of non-empty strings, checked at construction", () => {
    expect(() => handlerOnly({ allowedHosts: "mcp.example.com" as unknown as string[] })).toThrow(/allowedHosts must be an array of non-empty strings/);
    expect(() => handlerOnly({ allowedHosts: [""] })).toThrow(TypeError);
    expect(() => handlerOnly({ allowedOrigins: [7] as unknown as string[] })).toThrow(/allowedOrigins must be an array/);
    expect(() => handlerOnly({ dnsRebindingProtection: "no" as unknown as boolean })).toThrow(/dnsRebindingProtection must be a boolean/);
  });
});

describe("Host on loopback: the port part is validated", () => {
  const invalid = ["[::1]evil", "localhost:evil.example", "127.0.0.1:99999", "localhost:80:80", "[::1]:8o"];

  it("the web handler refuses a Host that is no host[:port] with 400, whatever follows a loopback name", async () => {
    const handler = handlerOnly();
    for (const host of invalid) {
      const answer = await handler(request({ host }), { localAddress: "127.0.0.1" });
      expect(answer.status, host).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message, host).toBe(`Bad Request: Host ${JSON.stringify(host)} is not a valid host[:port]`);
    }
    // Valid loopback Hosts with a port are still served.
    for (const host of ["localhost:3000", "[::1]:65535", "127.0.0.1:"]) expect((await handler(request({ host }))).status, host).toBe(200);
  });

  it("the node adapter refuses the same Hosts with 400, over a loopback socket", async () => {
    const port = await serveEverywhere();
    for (const host of invalid) {
      const answer = await listAt("127.0.0.1", port, host);
      expect(answer.status, host).toBe(400);
      expect(answer.text, host).toBe(`Bad Request: Host ${JSON.stringify(host)} is not a valid host[:port]`);
    }
    expect((await listAt("127.0.0.1", port, `[::1]:${port}`)).status).toBe(200);
  });

  it("an Origin of a loopback name on another port is still a loopback origin; one with a port no URL has is refused", async () => {
    const handler = handlerOnly();
    expect((await handler(request({ host: "localhost:3000", origin: "http://localhost:5173" }))).status).toBe(200);
    expect((await handler(request({ host: "localhost:3000", origin: "http://localhost:evil.example" }))).status).toBe(403);
  });
});
