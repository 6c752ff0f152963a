// Our generated 2026-07-28 server over HTTP: createHttpHandler(server) from out/2026-07-28 (the
// generated Streamable HTTP handler, web-standard) around one McpServer, with its defaults
// (Host/Origin validation on for a loopback bind) except maxInFlightPerPrincipal, raised to the
// default maxInFlight (4,096) so that the storm's 1,000 streams from one anonymous client all get
// in, as a server sized for such a client would be configured (the SDK has no such bound).
//
// Read from the module at run time: a generated output without createHttpHandler (older
// templates) leaves the HTTP rows without our column instead of failing the whole bench.
import * as v2026 from "../../../out/2026-07-28/index.js";
import { ECHO_RESULT_COMPLETE, slowToolWithProgress, type Probe } from "../probe.js";

type CreateHttpHandler = (server: v2026.McpServer, options: { readonly maxInFlightPerPrincipal: number }) => v2026.HttpHandler;

const generated: Readonly<Record<string, unknown>> = v2026;

/** The two tools, with the cache hints SDK 2.x gives its tools/list by default (ttlMs 0, private). */
const TOOLS: v2026.ListToolsResult = {
  resultType: "complete",
  tools: [
    { name: "echo", description: "answers at once", inputSchema: { type: "object" } },
    { name: "slow", description: "waits for its signal", inputSchema: { type: "object" } },
  ],
  cacheScope: "private",
  ttlMs: 0,
};

/** Whether out/2026-07-28 has the HTTP handler (else the HTTP rows show ours as missing). */
export const oursHasHttp = typeof generated["createHttpHandler"] === "function";

/** maxInFlightPerPrincipal: above the storm's 1,000 streams (the default is 256). */
export const IN_FLIGHT_PER_PRINCIPAL = 4096;

/** The generated handler as is (a WebHandler; toNodeListener takes it as an HttpHandler, faces.ts). */
export function oursHandler(probe: Probe): v2026.HttpHandler {
  const create = generated["createHttpHandler"];
  if (typeof create !== "function") throw new Error("out/2026-07-28 has no createHttpHandler: regenerate (npm run build && npm run generate)");
  const server = new v2026.McpServer({
    logger: null,
    serverInfo: { name: "bench-server", version: "1.0.0" },
    handlers: {
      "tools/call": (params, ctx) => (params.name === "slow" ? slowToolWithProgress(probe, ctx.signal, () => ctx.sendProgress(0)) : ECHO_RESULT_COMPLETE),
      // As a real server has one; the handler may read it for the tools' x-mcp-header declarations.
      "tools/list": () => TOOLS,
    },
  });
  return (create as CreateHttpHandler)(server, { maxInFlightPerPrincipal: IN_FLIGHT_PER_PRINCIPAL });
}
