// The generated 2025-11-25 runtime: McpClient and McpServer from out/.
import { McpClient, McpServer } from "../../out/2025-11-25/index.js";
import type { Contender, Session } from "./contender.js";
import { ECHO_RESULT, slowTool, type Probe } from "./probe.js";
import { createLinkedPair, type Codec } from "./transport.js";

export const ours: Contender = {
  name: "mcp-stubgen",
  async connect(codec: Codec, probe: Probe): Promise<Session> {
    const [clientSide, serverSide] = createLinkedPair(codec);
    // logger: null on both sides; by default every cancel is logged to stderr.
    const server = new McpServer({
      logger: null,
      handlers: {
        "tools/call": (params, ctx) => (params.name === "slow" ? slowTool(probe, ctx.signal) : ECHO_RESULT),
      },
    });
    const client = new McpClient({ logger: null });
    await server.connect(serverSide);
    await client.connect(clientSide);
    return {
      ping: (signal) => client.ping(signal === undefined ? undefined : { signal }),
      callTool: (name, signal) => client.callTool({ name }, signal === undefined ? undefined : { signal }),
      close: () => client.close(),
    };
  },
};
