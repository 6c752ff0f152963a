/**
 * Real parts for the MCPx network tests: the example gateway bin as a child process
 * (examples/mcpx-gateway.ts through tsx) or a gateway in this process, tokens signed with its
 * secret (with chosen time claims too), and a raw WebSocket participant that records every frame
 * it is sent (to see refusals and what reaches whom).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { SignJWT } from "jose";
import WebSocket from "ws";
import { PACKAGE_ROOT } from "../../../../generator/project.js";
import { attachMcpxGateway } from "../../../../templates/runtime/addons/mcpx-ws/gateway.js";
import { createMcpxTokenVerifier, signMcpxToken } from "../../../../templates/runtime/addons/mcpx-ws/token.js";
import type { McpxRefusal } from "../../../../templates/runtime/transports/mcpx-hub.js";
import { waitFor } from "../../../helpers/async.js";

export const SECRET = "mcpx-network-test-secret-0123456789abcdef";
export const TOPIC = "room";

export const token = (participantId: string, capabilities: readonly string[] = ["mcp", "mcp/*", "chat"], topic = TOPIC) =>
  signMcpxToken(SECRET, { participantId, topic, capabilities });

/** Now, in the seconds of JWT time claims. */
export const seconds = (): number => Math.floor(Date.now() / 1000);

/** A token of `id` (capabilities chat, topic TOPIC) with exactly these time claims (seconds). */
export function timed(id: string, claims: { iat?: number; exp?: number }): Promise<string> {
  const jwt = new SignJWT({ participantId: id, topic: TOPIC, capabilities: ["chat"] }).setProtectedHeader({ alg: "HS256" });
  if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(new TextEncoder().encode(SECRET));
}

/** A gateway in this process (attachMcpxGateway on a node:http server on 127.0.0.1) and what it refused. */
export interface InProcessGateway {
  readonly url: string;
  readonly refusals: McpxRefusal[];
  close(): Promise<void>;
}

/** Starts an in-process gateway verifying SECRET's tokens (with `maxLifetimeMs` when given). */
export async function startInProcessGateway(maxLifetimeMs?: number): Promise<InProcessGateway> {
  const refusals: McpxRefusal[] = [];
  const http = createServer();
  const gateway = attachMcpxGateway(http, { verify: createMcpxTokenVerifier({ secret: SECRET }, { maxLifetimeMs }), onRefusal: (r) => refusals.push(r) });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws`,
    refusals,
    async close() {
      await gateway.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

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
