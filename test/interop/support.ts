/**
 * Test side of the interop suites: opens a peer (test/interop/peers) over one of the link modes
 * every suite is parametrised over, and drives raw JSON-RPC when a test is the peer itself.
 *
 * - in-memory: the peer runs in this process on one end of the SDK's InMemoryTransport pair;
 *   the test gets the other end.
 * - stdio: the peer runs in a child process (tsx) over its stdin/stdout; the test gets the SDK's
 *   StdioClientTransport that spawned it.
 */
import { fileURLToPath } from "node:url";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { waitFor } from "../helpers/async.js";
import { initializeParams } from "../helpers/fixtures.js";
import { asWire, type Observations, type Wire } from "./peers/common.js";
import { startPeer, type PeerName } from "./peers/index.js";

const PACKAGE_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const PEER_MAIN = fileURLToPath(new URL("./peers/main.ts", import.meta.url));

export type LinkMode =
  | { readonly name: string; readonly kind: "in-memory" }
  | { readonly name: string; readonly kind: "stdio"; readonly via: "ours" | "sdk" };

export const IN_MEMORY: LinkMode = { name: "SDK InMemoryTransport", kind: "in-memory" };
/** A child process; our peers use the generated StdioTransport there, the SDK peers the SDK's. */
export const STDIO: LinkMode = { name: "stdio child process", kind: "stdio", via: "ours" };

export interface PeerLink {
  /** The test's end of the connection (not started yet: connect a client to it, or a RawPeer). */
  readonly transport: SdkTransport;
  /** What the child wrote on stderr so far (stdio only). */
  stderr(): string;
  close(): Promise<void>;
}

const open: PeerLink[] = [];

/** Starts a peer and returns the test's end of its connection. */
export async function openPeer(peer: PeerName, mode: LinkMode): Promise<PeerLink> {
  let link: PeerLink;
  if (mode.kind === "in-memory") {
    const [testEnd, peerEnd] = InMemoryTransport.createLinkedPair();
    await startPeer(peer, peerEnd);
    link = { transport: testEnd, stderr: () => "", close: () => testEnd.close() };
  } else {
    // The SDK peers always speak over the SDK's StdioServerTransport in the child.
    const via = peer.startsWith("sdk-") ? "sdk" : mode.via;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", PEER_MAIN, peer, via],
      cwd: PACKAGE_ROOT,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    link = { transport, stderr: () => stderr, close: () => transport.close() };
  }
  open.push(link);
  return link;
}

/** Closes every link opened since the last call (afterEach): ends the child processes. */
export async function closePeers(): Promise<void> {
  const links = open.splice(0);
  await Promise.allSettled(links.map((link) => link.close()));
}

export { waitFor, within } from "../helpers/async.js";

export const isRequest = (m: Wire, method?: string): boolean => "id" in m && typeof m["method"] === "string" && (method === undefined || m["method"] === method);
export const isResponse = (m: Wire, id?: unknown): boolean => !("method" in m) && ("result" in m || "error" in m) && (id === undefined || m["id"] === id);
export const cancelsIn = (messages: readonly Wire[]): Wire[] => messages.filter((m) => m["method"] === "notifications/cancelled");
export const responsesIn = (messages: readonly Wire[], id: unknown): Wire[] => messages.filter((m) => isResponse(m, id));

export { cancelled } from "../helpers/fixtures.js";

/** The test as the far end of a connection: sends raw JSON-RPC, records what arrives. */
export class RawPeer {
  readonly received: Wire[] = [];
  readonly errors: Error[] = [];

  constructor(
    readonly transport: SdkTransport,
    readonly context: () => string = () => "",
  ) {}

  async start(): Promise<void> {
    this.transport.onmessage = (message) => this.received.push(asWire(message));
    this.transport.onerror = (error) => this.errors.push(error);
    await this.transport.start();
  }

  send(message: unknown): Promise<void> {
    return this.transport.send(message as JSONRPCMessage);
  }

  /** Sends a request and waits for its response. */
  async request(id: string | number, method: string, params?: Wire): Promise<Wire> {
    await this.send(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
    return this.responseTo(id);
  }

  responseTo(id: unknown): Promise<Wire> {
    return waitFor(`a response to id ${JSON.stringify(id)}`, () => this.received.find((m) => isResponse(m, id)), 10_000, this.context);
  }

  /** The first message that matches, once it has arrived. */
  message(what: string, match: (m: Wire) => boolean): Promise<Wire> {
    return waitFor(what, () => this.received.find(match), 10_000, this.context);
  }
}

/** Parses the Observations a server peer returns from its "observations" tool. */
export function parseObservations(result: unknown): Observations {
  const content = (result as { content?: { type?: string; text?: string }[] }).content;
  const text = content?.[0]?.text;
  if (typeof text !== "string") throw new Error(`not an observations result: ${JSON.stringify(result)}`);
  return JSON.parse(text) as Observations;
}

export const INITIALIZE_PARAMS = initializeParams("interop-test-client");
