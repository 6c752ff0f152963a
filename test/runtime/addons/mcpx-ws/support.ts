/**
 * Real parts for the MCPx network tests: the example gateway bin as a child process
 * (examples/mcpx-gateway.ts through tsx), tokens signed with its secret, and a raw WebSocket
 * participant that records every frame it is sent (to see refusals and what reaches whom).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import WebSocket from "ws";
import { PACKAGE_ROOT } from "../../../../generator/project.js";
import { signMcpxToken } from "../../../../templates/runtime/addons/mcpx-ws/token.js";
import { waitFor } from "../../../helpers/async.js";

export const SECRET = "mcpx-network-test-secret-0123456789abcdef";
export const TOPIC = "room";

export const token = (participantId: string, capabilities: readonly string[] = ["mcp", "mcp/*", "chat"], topic = TOPIC) =>
  signMcpxToken(SECRET, { participantId, topic, capabilities });

export interface GatewayProcess {
  readonly url: string;
  readonly port: number;
  readonly stderr: () => string;
  readonly child: ChildProcess;
  /** SIGKILL: the process dies without telling anyone. */
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/** Starts examples/mcpx-gateway.ts with `args`, resolved once it prints its address. */
export async function startGateway(args: readonly string[]): Promise<GatewayProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(PACKAGE_ROOT, "examples", "mcpx-gateway.ts"), "--secret", SECRET, ...args], {
    cwd: PACKAGE_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out = (out + chunk.toString("utf8")).slice(-64_000)));
  child.stderr.on("data", (chunk: Buffer) => (err = (err + chunk.toString("utf8")).slice(-64_000)));
  const url = await waitFor("the gateway to listen", () => {
    if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}):\n${err}`);
    return /listening (ws:\/\/\S+)/.exec(out)?.[1];
  }, 30_000);
  const exited = () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once("exit", () => resolve())));
  return {
    url,
    port: Number(new URL(url).port),
    stderr: () => err,
    child,
    async kill() {
      child.kill("SIGKILL");
      await exited();
    },
    async stop() {
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited();
      clearTimeout(force);
    },
  };
}

/** A participant speaking raw frames: every frame it gets, parsed, and how its socket closed. */
export interface RawParticipant {
  readonly frames: Array<{ [key: string]: unknown }>;
  readonly socket: WebSocket;
  closed: { code: number; reason: string } | undefined;
  send(frame: string | object): void;
  errors(): string[];
}

export async function rawParticipant(url: string, bearer: string, topic = TOPIC): Promise<RawParticipant> {
  const socket = new WebSocket(`${url}?topic=${encodeURIComponent(topic)}`, { headers: { authorization: `Bearer ${bearer}` }, maxPayload: 64 * 1024 * 1024 });
  const participant: RawParticipant = {
    frames: [],
    socket,
    closed: undefined,
    send: (frame) => socket.send(typeof frame === "string" ? frame : JSON.stringify(frame)),
    errors: () => participant.frames.filter((f) => f["kind"] === "system/error").map((f) => String((f["payload"] as { error?: unknown }).error)),
  };
  socket.on("message", (data) => {
    try {
      participant.frames.push(JSON.parse(String(data)) as { [key: string]: unknown });
    } catch {
      participant.frames.push({ unparsable: String(data) });
    }
  });
  socket.on("error", () => undefined);
  socket.on("close", (code, reason) => (participant.closed = { code, reason: String(reason) }));
  await waitFor("a welcome or a close", () => (participant.frames.length > 0 || participant.closed !== undefined ? true : undefined));
  return participant;
}
