/**
 * The interop peers by name: each connects itself to the transport it is given and returns.
 * Loaded lazily, so that a child process imports only its own peer (startup time).
 */
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";

type StartPeer = (transport: SdkTransport) => Promise<void>;

export const PEERS = {
  "sdk-server": async () => (await import("./sdk-server.js")).startSdkServer,
  "our-server": async () => (await import("./our-server.js")).startOurServer,
  "sdk-client": async () => (await import("./sdk-client.js")).startSdkClient,
  "our-client": async () => (await import("./our-client.js")).startOurClient,
} satisfies Record<string, () => Promise<StartPeer>>;

export type PeerName = keyof typeof PEERS;

export const isPeerName = (name: unknown): name is PeerName => typeof name === "string" && Object.hasOwn(PEERS, name);

/** Starts the named peer on a transport. */
export async function startPeer(name: PeerName, transport: SdkTransport): Promise<void> {
  const start: StartPeer = await PEERS[name]();
  await start(transport);
}
