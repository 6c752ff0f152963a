// The common face of the two implementations under test.
import type { Probe } from "./probe.js";
import type { Codec } from "./transport.js";

/** The slow tool waits for its signal; the echo tool answers at once. */
export type ToolName = "echo" | "slow";

/** A connected client/server pair of one implementation. */
export interface Session {
  ping(signal?: AbortSignal): Promise<unknown>;
  callTool(name: ToolName, signal?: AbortSignal): Promise<unknown>;
  close(): Promise<void>;
}

export interface Contender {
  readonly name: string;
  /** A client and a server of this implementation over a fresh linked transport pair. */
  connect(codec: Codec, probe: Probe): Promise<Session>;
}
