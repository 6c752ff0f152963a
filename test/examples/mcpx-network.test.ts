/**
 * The README's "MCPx over a network", as written: the gateway bin, a server participant and a
 * client participant (examples/mcpx-peer.ts), three processes on loopback; the client's abort
 * reaches the server's handler as its ctx.signal.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../generator/project.js";
import { waitFor } from "../helpers/async.js";
import { SECRET, startGateway, type GatewayProcess } from "../runtime/addons/mcpx-ws/support.js";

let gateway: GatewayProcess | undefined;
const peers: Array<ReturnType<typeof spawn>> = [];

afterAll(async () => {
  for (const peer of peers) if (peer.exitCode === null) peer.kill("SIGKILL");
  await gateway?.stop();
});

const peer = (args: readonly string[]) => {
  const proc = spawn(process.execPath, ["--import", "tsx", "examples/mcpx-peer.ts", "--secret", SECRET, "--url", gateway!.url, ...args], { cwd: PACKAGE_ROOT, stdio: ["ignore", "pipe", "pipe"] });
  peers.push(proc);
  const out = { text: "" };
  proc.stdout!.on("data", (chunk: Buffer) => (out.text += chunk.toString("utf8")));
  proc.stderr!.on("data", (chunk: Buffer) => (out.text += chunk.toString("utf8")));
  return { proc, out };
};

it("gateway, server, client: the client's abort crosses the gateway and the server's ctx.signal aborts", async () => {
  gateway = await startGateway(["--port", "0"]);
  const server = peer(["--role", "server"]);
  await waitFor("the server to join", () => (server.out.text.includes('joined "demo"') ? true : undefined), 30_000, () => server.out.text);
  const client = peer(["--role", "client", "--abort-after-ms", "300"]);
  const [code] = (await once(client.proc, "exit")) as [number | null];
  expect(client.out.text).toMatch(/alice: progress 1\/50/);
  expect(client.out.text).toMatch(/alice: cancelled request \d+ \(the user pressed stop\)/);
  expect(code).toBe(0);
  await waitFor("the server's handler to abort", () => (/tools: alice's handler saw ctx\.signal abort: "the user pressed stop"/.test(server.out.text) ? true : undefined), 10_000, () => server.out.text);
});
