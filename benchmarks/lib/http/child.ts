// The server process of one HTTP contender (argv[2]: ours | sdk2): its handler behind the
// node:http bridge on 127.0.0.1, and a probe the bench reads over IPC. The server runs in its own
// process so that it has a core to itself and the fetch clients do not share its event loop.
import { Probe } from "../probe.js";
import { within } from "../stats.js";
import { epochNow, type Answer, type Ask, type Ready } from "./ipc.js";
import { listen } from "./node-bridge.js";
import { HTTP_SERVERS, isHttpSide } from "./servers.js";

const side = process.argv[2];
if (!isHttpSide(side) || process.send === undefined) throw new Error("run by the bench (fork) with argv ours | sdk2");
const send = process.send.bind(process);
const probe = new Probe();
const listening = await listen(HTTP_SERVERS[side](probe));

function answer(id: number): Answer {
  const { started, aborted, lastAbortAt } = probe;
  const cpu = process.cpuUsage();
  return { id, now: epochNow(), started, aborted, lastAbortAt: lastAbortAt === 0 ? 0 : performance.timeOrigin + lastAbortAt, cpuUs: cpu.user + cpu.system };
}

async function handle(ask: Ask): Promise<void> {
  if (ask.op === "reset") probe.reset();
  if (ask.op === "untilAborted") await within(probe.untilAborted(ask.n), ask.timeoutMs);
  send(answer(ask.id));
}

process.on("message", (message) => void handle(message as Ask));
process.on("disconnect", () => void listening.close().then(() => process.exit(0)));
const ready: Ready = { ready: true, url: listening.url };
send(ready);
