// Type-level tests of StdioClientTransport (runtime/transports/stdio-spawn.ts), as the generated
// 2025-11-25 folder re-exports it. The test run copies this file into out/2025-11-25/ and
// compiles it: every `@ts-expect-error` must still be an error, and every other line must compile.
import { spawn } from "node:child_process";
import type { Transport } from "./index.js";
import { StdioClientTransport, type StdioExit } from "./stdio-spawn.js";

// It is a Transport: McpClient.connect takes it.
export const transport: Transport = new StdioClientTransport({ command: "node", args: ["server.js"] });

// Node's own spawn fits the `spawn` option as it is.
export const withNodeSpawn = new StdioClientTransport({ command: "node", spawn });

// stderr: "inherit", "ignore" or a callback of lines.
export const lines = new StdioClientTransport({ command: "node", stderr: (line: string) => void line.length });
// @ts-expect-error "pipe" is not a stderr mode (a callback gets the lines)
export const piped = new StdioClientTransport({ command: "node", stderr: "pipe" });
// @ts-expect-error baseEnv is "safe", "inherit" or "none"
export const allEnv = new StdioClientTransport({ command: "node", baseEnv: "all" });
// @ts-expect-error env values are strings (or undefined to remove one)
export const numericEnv = new StdioClientTransport({ command: "node", env: { PORT: 8080 } });
// @ts-expect-error the command is required
export const noCommand = new StdioClientTransport({ args: ["x"] });

// exit: undefined while the server runs; its code and signal are read only.
export function exitCode(t: StdioClientTransport): number | null | undefined {
  const exit: StdioExit | undefined = t.exit;
  // @ts-expect-error exit is read only
  if (exit !== undefined) exit.code = 0;
  return exit?.code;
}
