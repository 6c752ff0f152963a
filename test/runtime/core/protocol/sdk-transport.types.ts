// The generated Transport is structurally the @modelcontextprotocol/sdk Transport: the SDK's
// transports plug into the generated client and server unchanged (compiled by `npm test`).
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpClient, McpServer, createInMemoryTransportPair, type Transport } from "../../../generated/2025-11-25/index.js";

export async function sdkTransportsPlugIn() {
  const [sdkA, sdkB] = InMemoryTransport.createLinkedPair();
  await new McpServer().connect(sdkA);
  await new McpClient().connect(sdkB);
  await new McpClient().connect(new StdioClientTransport({ command: "node" }));
  await new McpServer().connect(new StdioServerTransport());
  await new McpServer().connect(new StreamableHTTPServerTransport({ sessionIdGenerator: () => "session" }));
  await new McpClient().connect(new StreamableHTTPClientTransport(new URL("http://127.0.0.1:1/mcp")));
  // And the other way: ours fit where the SDK expects its Transport.
  const [ours] = createInMemoryTransportPair();
  const asSdk: SdkTransport = ours;
  const back: Transport = asSdk;
  return back;
}
