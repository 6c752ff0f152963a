// The official SDK 2.x (@modelcontextprotocol/server, /client): McpServer with registerTool,
// served through serveStdio (the v2 entry for a long-lived connection, both eras: it classifies
// the opening exchange and pins one server instance to the connection) over the benchmark's
// transport, and a Client pinned to the revision: `versionNegotiation: { mode: { pin } }` for
// 2026-07-28 (a server/discover probe at connect, not timed), the plain initialize handshake for
// 2025-11-25.
import { Client, type ClientOptions } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Contender, Revision, Session } from "./contender.js";
import { noPing } from "./contender.js";
import { packageVersion } from "./machine.js";
import { ECHO_RESULT, slowTool, type Probe } from "./probe.js";
import { createLinkedPair } from "./transport.js";

/** A fresh server instance, as the v2 entries expect from the user's factory. */
export function sdk2Server(probe: Probe): McpServer {
  const server = new McpServer({ name: "bench-server", version: "1.0.0" });
  // No inputSchema: no argument validation, as on our side.
  server.registerTool("echo", { description: "answers at once" }, () => ECHO_RESULT);
  server.registerTool("slow", { description: "waits for its signal" }, (ctx) => slowTool(probe, ctx.mcpReq.signal));
  return server;
}

const CLIENT_OPTIONS: Readonly<Record<Revision, ClientOptions>> = {
  "2025-11-25": {},
  "2026-07-28": { versionNegotiation: { mode: { pin: "2026-07-28" } } },
};

export const sdk2: Contender = {
  name: `SDK ${packageVersion("@modelcontextprotocol/server")}`,
  revisions: ["2026-07-28", "2025-11-25"],
  async connect(revision, codec, probe): Promise<Session> {
    const [clientSide, serverSide] = createLinkedPair(codec);
    const served = serveStdio(() => sdk2Server(probe), { transport: serverSide });
    const client = new Client({ name: "bench-client", version: "1.0.0" }, CLIENT_OPTIONS[revision]);
    await client.connect(clientSide);
    const options = (signal: AbortSignal | undefined) => (signal === undefined ? undefined : { signal });
    return {
      ping: revision === "2025-11-25" ? (signal) => client.ping(options(signal)) : () => noPing(revision),
      callTool: (name, signal) => client.callTool({ name }, options(signal)),
      close: async () => {
        await client.close();
        await served.close();
      },
    };
  },
};
