// The generated runtime: McpClient and McpServer from out/2026-07-28 (the revision it speaks
// best) and out/2025-11-25 (for the rows that ping: 2026-07-28 has no ping).
import * as v2025 from "../../out/2025-11-25/index.js";
import * as v2026 from "../../out/2026-07-28/index.js";
import type { Contender, Revision, Session } from "./contender.js";
import { noPing } from "./contender.js";
import { ECHO_RESULT, ECHO_RESULT_COMPLETE, slowTool, type Probe } from "./probe.js";
import { createLinkedPair, type Codec } from "./transport.js";

const CLIENT_INFO = { name: "bench-client", version: "1.0.0" };
const SERVER_INFO = { name: "bench-server", version: "1.0.0" };
/**
 * The in-memory rows put up to 20,000 calls in flight on one connection, past the default bound
 * (maxRequestsInFlight, 1024, which the SDKs do not have): off, so that every row measures the
 * calls it sends. The bound costs one comparison per request when on.
 */
export const MAX_IN_FLIGHT = Number.POSITIVE_INFINITY;
const options = (signal: AbortSignal | undefined) => (signal === undefined ? undefined : { signal });

async function connect2025(codec: Codec, probe: Probe): Promise<Session> {
  const [clientSide, serverSide] = createLinkedPair(codec);
  // logger: null on both sides; by default every cancel is logged to stderr.
  const server = new v2025.McpServer({
    logger: null,
    // The rows hold up to 20,000 calls on one connection; the SDKs bound nothing (see MAX_IN_FLIGHT).
    maxRequestsInFlight: MAX_IN_FLIGHT,
    handlers: {
      "tools/call": (params, ctx) => (params.name === "slow" ? slowTool(probe, ctx.signal) : ECHO_RESULT),
    },
  });
  const client = new v2025.McpClient({ logger: null });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    ping: (signal) => client.ping(options(signal)),
    callTool: (name, signal) => client.callTool({ name }, options(signal)),
    close: () => client.close(),
  };
}

async function connect2026(codec: Codec, probe: Probe): Promise<Session> {
  const [clientSide, serverSide] = createLinkedPair(codec);
  const server = new v2026.McpServer({
    logger: null,
    maxRequestsInFlight: MAX_IN_FLIGHT,
    serverInfo: SERVER_INFO,
    handlers: {
      "tools/call": (params, ctx) => (params.name === "slow" ? slowTool(probe, ctx.signal) : ECHO_RESULT_COMPLETE),
    },
  });
  // Stateless: no handshake; every request carries version, capabilities and clientInfo in _meta.
  const client = new v2026.McpClient({ logger: null, clientInfo: CLIENT_INFO });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    ping: () => noPing("2026-07-28"),
    callTool: (name, signal) => client.callTool({ name }, options(signal)),
    close: () => client.close(),
  };
}

const CONNECT: Readonly<Record<Revision, (codec: Codec, probe: Probe) => Promise<Session>>> = {
  "2025-11-25": connect2025,
  "2026-07-28": connect2026,
};

export const ours: Contender = {
  name: "mcp-stubgen",
  revisions: ["2026-07-28", "2025-11-25"],
  connect: (revision, codec, probe) => CONNECT[revision](codec, probe),
};
