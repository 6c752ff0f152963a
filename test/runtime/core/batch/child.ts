// A generated McpServer of the revision named in argv[2] (2025-03-26, which has JSON-RPC batches,
// or 2025-06-18, which has not) over stdio on this process's stdin and stdout: the far end of the
// batch tests' real child process. Tools: "echo" (answers its `text` after a macrotask) and "slow"
// (answers only when cancelled, which means never: a cancelled request gets no response).
import * as R0326 from "../../../generated/2025-03-26/index.js";
import * as R0618 from "../../../generated/2025-06-18/index.js";
import { StdioTransport } from "../../../generated/2025-03-26/stdio.js";
import { batchServerOptions } from "./support.js";

const revision = process.argv[2];
const server = revision === "2025-03-26" ? new R0326.McpServer(batchServerOptions() as never) : new R0618.McpServer(batchServerOptions() as never);
await server.connect(new StdioTransport({ input: process.stdin, output: process.stdout }));
