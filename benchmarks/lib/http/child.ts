// The server process of one HTTP contender (argv[2]: a ServerKey of servers.ts): its handler behind the
// node:http bridge on 127.0.0.1 (or its node:http listener as it is, node-servers.ts), and a probe
// the bench reads over IPC. The server runs in its own
// process so that it has a core to itself and the fetch clients do not share its event loop.
import { Probe } from "../probe.js";
import { collect, within } from "../stats.js";
import { edgeStatuses } from "./edge-servers.js";
import { epochNow, type Answer, type Ask, type Ready } from "./ipc.js";
import { listen, listenNode } from "./node-bridge.js";
import { isNodeServerKey, NODE_SERVERS } from "./node-servers.js";
import { isServerKey, WEB_SERVERS } from "./servers.js";

const side = process.argv[2];
if (!isServerKey(side) || process.send === undefined) {
  throw new Error(`run by the bench (fork) with argv one of ${[...Object.keys(WEB_SERVERS), ...Object.keys(NODE_SERVERS)].join(" | ")}`);
}
const send = process.send.bind(process);
const probe = new Probe();
const listening = isNodeServerKey(side) ? await listenNode(NODE_SERVERS[side](probe)) : await listen(WEB_SERVERS[side](probe));

function answer(id: number, heapBytes = 0, rssBytes = 0): Answer {
  const { started, aborted, lastAbortAt } = probe;
  const cpu = process.cpuUsage();
  return { id, now: epochNow(), started, aborted, lastAbortAt: lastAbortAt === 0 ? 0 : performance.timeOrigin + lastAbortAt, cpuUs: cpu.user + cpu.system, heapBytes, rssBytes };
}

/** The memory use after full collections (the process runs with --expose-gc), with a turn in between for finalizers. */
async function collected(): Promise<NodeJS.MemoryUsage> {
  collect();
  await new Promise((resolve) => setImmediate(resolve));
  collect();
  return process.memoryUsage();
}

async function handle(ask: Ask): Promise<void> {
  if (ask.op === "heap") return void send(answer(ask.id, (await collected()).heapUsed));
  if (ask.op === "memory") {
    const { heapUsed, rss } = await collected();
    return void send(answer(ask.id, heapUsed, rss));
  }
  if (ask.op === "statuses") return void send({ ...answer(ask.id), statuses: edgeStatuses() });
  if (ask.op === "reset") probe.reset();
  if (ask.op === "untilAborted") await within(probe.untilAborted(ask.n), ask.timeoutMs);
  send(answer(ask.id));
}

process.on("message", (message) => void handle(message as Ask));
process.on("disconnect", () => void listening.close().then(() => process.exit(0)));
const ready: Ready = { ready: true, url: listening.url };
send(ready);
