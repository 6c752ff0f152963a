// The load process: the HTTP clients of the floor rows (floor-run.ts), in a process of their own,
// so that neither the server's process nor the bench's event loop runs them. On the bench's word
// (ipc.ts, LoadAsk) it opens kept-alive connections (keep-alive.ts) to a server, runs a number of
// echo calls over them, one at a time per connection, and checks every answer, with the same
// request bodies and headers as the fetch clients (client.ts, session-client.ts).
import { checkEcho, toolsCall } from "./client.js";
import { epochNow, type LoadAnswer, type LoadAsk, type LoadEra } from "./ipc.js";
import { formatRequest, KeepAliveConnection, requestHead } from "./keep-alive.js";
import { closeSession, openSession, sessionToolsCall } from "./session-client.js";

if (process.send === undefined) throw new Error("run by the bench (fork)");
const send = process.send.bind(process);

interface Lane {
  readonly connection: KeepAliveConnection;
  /** The request head (Host and the era's headers), formatted once. */
  readonly head: string;
  /** The body of echo call `id`. */
  readonly body: (id: number) => string;
  readonly sessionId: string | undefined;
}

interface Prepared {
  readonly url: string;
  readonly lanes: readonly Lane[];
}

let prepared: Prepared | undefined;

/** A RequestInit's headers as a plain record. */
function headersOf(init: RequestInit): Record<string, string> {
  return Object.fromEntries(new Headers(init.headers).entries());
}

async function lane(era: LoadEra, url: URL): Promise<Lane> {
  const sessionId = era === "session" ? await openSession(url.href) : undefined;
  const call = (id: number): RequestInit => (sessionId === undefined ? toolsCall(id, "echo", false) : sessionToolsCall(sessionId, id, "echo", false));
  const head = requestHead("POST", url, headersOf(call(0)));
  return { connection: await KeepAliveConnection.open(url), head, body: (id) => String(call(id).body), sessionId };
}

async function prepare(era: LoadEra, url: string, connections: number): Promise<void> {
  if (prepared !== undefined) throw new Error("prepare twice without finish");
  const target = new URL(url);
  prepared = { url, lanes: await Promise.all(Array.from({ length: connections }, () => lane(era, target))) };
}

async function run(total: number): Promise<{ seconds: number; cpuUs: number }> {
  if (prepared === undefined) throw new Error("run before prepare");
  let next = 0;
  const drive = async ({ connection, head, body }: Lane): Promise<void> => {
    for (let i = next++; i < total; i = next++) {
      const id = i + 1;
      const reply = await connection.send(formatRequest(head, body(id)));
      checkEcho(id, reply.status, reply.contentType, reply.body);
    }
  };
  const cpu0 = process.cpuUsage();
  const t0 = epochNow();
  await Promise.all(prepared.lanes.map(drive));
  const seconds = (epochNow() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { seconds, cpuUs: cpu.user + cpu.system };
}

async function finish(): Promise<void> {
  const done = prepared;
  prepared = undefined;
  if (done === undefined) return;
  for (const { connection } of done.lanes) connection.close();
  await Promise.all(done.lanes.map(({ sessionId }) => (sessionId === undefined ? undefined : closeSession(done.url, sessionId))));
}

async function handle(ask: LoadAsk): Promise<LoadAnswer> {
  if (ask.op === "prepare") await prepare(ask.era, ask.url, ask.connections);
  if (ask.op === "finish") await finish();
  if (ask.op === "run") return { id: ask.id, ...(await run(ask.total)) };
  return { id: ask.id, seconds: 0, cpuUs: 0 };
}

process.on("message", (message) => {
  const ask = message as LoadAsk;
  handle(ask).then(send, (error: unknown) => send({ id: ask.id, seconds: 0, cpuUs: 0, error: String(error) } satisfies LoadAnswer));
});
process.on("disconnect", () => void finish().finally(() => process.exit(0)));
send({ ready: true });
