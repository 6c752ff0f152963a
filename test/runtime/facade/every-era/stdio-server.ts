/** A child process serving the every-era registration set over stdio (every-era.test.ts spawns it with tsx). */
import { McpServers } from "../../../generated/every-era/index.js";
import { StdioTransport } from "../../../generated/runtime/transports/stdio.js";
import { registerAll } from "./registrations.js";

const server = new McpServers({ serverInfo: { name: "every-era-stdio", version: "1.0.0" }, logger: null });
registerAll(server);
await server.connect(new StdioTransport({ input: process.stdin, output: process.stdout }));
