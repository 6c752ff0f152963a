// The official SDK 1.x: Client and McpServer (the high-level server with registerTool). It speaks
// the 2025 revisions only.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Contender, Session } from "./contender.js";
import { packageVersion } from "./machine.js";
import { ECHO_RESULT, slowTool, type Probe } from "./probe.js";
import { createLinkedPair, type Codec } from "./transport.js";

export const sdk1: Contender = {
  name: `SDK ${packageVersion("@modelcontextprotocol/sdk")}`,
  revisions: ["2025-11-25"],
  async connect(_revision, codec: Codec, probe: Probe): Promise<Session> {
    const [clientSide, serverSide] = createLinkedPair(codec);
    const server = new McpServer({ name: "bench-server", version: "1.0.0" });
    // No inputSchema: no argument validation, as on our side.
    server.registerTool("echo", { description: "answers at once" }, () => ECHO_RESULT);
    server.registerTool("slow", { description: "waits for its signal" }, (extra) => slowTool(probe, extra.signal));
    const client = new Client({ name: "bench-client", version: "1.0.0" });
    await server.connect(serverSide);
    await client.connect(clientSide); // initialize + notifications/initialized
    return {
      ping: (signal) => client.ping(signal === undefined ? undefined : { signal }),
      callTool: (name, signal) => client.callTool({ name }, undefined, signal === undefined ? undefined : { signal }),
      close: () => client.close(),
    };
  },
};
