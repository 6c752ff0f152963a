/**
 * Child-process entry of the interop peers: `node --import tsx main.ts <peer> [ours|sdk]` runs
 * one peer over this process's stdin/stdout, with the generated StdioTransport ("ours") or the
 * SDK's StdioServerTransport ("sdk"). Nothing but JSON-RPC is written to stdout; the process
 * exits when its stdin ends (the SDK's StdioClientTransport closes it that way).
 */
import { PEERS, isPeerName, startPeer } from "./index.js";

const [name, via = "ours"] = process.argv.slice(2);
if (!isPeerName(name) || (via !== "ours" && via !== "sdk")) {
  console.error(`usage: main.ts <${Object.keys(PEERS).join("|")}> [ours|sdk]`);
  process.exit(2);
}
process.stdin.on("end", () => process.exit(0));
// Imported here, not at the top: each child loads only what it runs (startup time).
const transport =
  via === "sdk"
    ? new (await import("@modelcontextprotocol/sdk/server/stdio.js")).StdioServerTransport()
    : new (await import("../../generated/2025-11-25/stdio.js")).StdioTransport({ input: process.stdin, output: process.stdout });
await startPeer(name, transport);
