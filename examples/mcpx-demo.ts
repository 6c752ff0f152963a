/**
 * Cancellation across an MCPx gateway (run `npm run generate` first, then `npm run example:mcpx`).
 *
 * Three participants on one in-memory gateway: "tools-server" holds one McpServer per client
 * peer (two MCPx transports on its single link), and "alice" and "bob" each hold an McpClient.
 * Both clients initialize, so their request ids coincide, then both start the same slow tool
 * call at once. Alice aborts hers after its second progress notification: her
 * notifications/cancelled crosses the gateway inside an ordinary envelope, carrying her original
 * request id unchanged; only alice's handler sees its signal abort, bob's call with the very same
 * id completes, and nothing acknowledges the cancel. Prints every envelope the gateway routes,
 * each endpoint's cancellation events and the gateway's counts; exits non-zero if any of that
 * did not happen.
 */
import {
  createMcpxGateway, createMcpxTransport, describeCancellation, McpClient, McpServer, RequestCancelledError,
  type CallToolResult, type CancellationEvent, type JsonRpcMessage, type McpxEnvelope, type McpxTransport, type RequestId,
} from "../out/2025-11-25/index.js";

type Peer = "alice" | "bob";
const SERVER = "tools-server";
const SLOW_MS = 300;
const REASON = "alice pressed stop";

/** One line per envelope: from → to, kind, and what its JSON-RPC payload is. */
function describeEnvelope(envelope: McpxEnvelope): string {
  const msg = envelope.payload as JsonRpcMessage; // the MCPx transports send JSON-RPC messages only
  let what: string;
  if (!("method" in msg)) what = `${"result" in msg ? "result" : "error"} for id ${String(msg.id)}`;
  else if ("id" in msg) what = `${msg.method} (request id ${String(msg.id)})`;
  else if (msg.method === "notifications/cancelled") what = `${msg.method} requestId=${JSON.stringify(msg.params?.["requestId"])} reason=${JSON.stringify(msg.params?.["reason"])}`;
  else if (msg.method === "notifications/progress") what = `${msg.method} token=${JSON.stringify(msg.params?.["progressToken"])} progress=${String(msg.params?.["progress"])}`;
  else what = msg.method;
  return `${`${envelope.from} → ${(envelope.to ?? ["*"]).join(",")}`.padEnd(22)} ${envelope.kind}  ${what}`;
}

const routed: McpxEnvelope[] = [];
const gateway = createMcpxGateway({
  onRoute: (envelope) => {
    routed.push(envelope);
    console.log(`gateway #${String(routed.length).padStart(2, "0")}  ${describeEnvelope(envelope)}`);
  },
  onDrop: (_envelope, cause, from) => console.log(`gateway: DROPPED an envelope from ${from} (${cause})`),
});

const cancellations: Array<{ who: string; event: CancellationEvent }> = [];
const onCancellation = (who: string) => (event: CancellationEvent) => {
  cancellations.push({ who, event });
  console.log(`  cancellation event: ${describeCancellation(who, event)}`);
};

/** Resolves after `ms`, or as soon as `signal` aborts; true when it was aborted. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve(true);
    }, { once: true });
  });

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const handlerSaw = new Map<Peer, string>();
const serverIds = new Map<Peer, RequestId>();

const serverLink = gateway.join(SERVER); // one link for the server, shared by its conversations
const serverTransports: McpxTransport[] = [];
/** The server's side of one conversation: its own McpServer, its own transport on the shared link. */
async function serve(peer: Peer): Promise<McpServer> {
  const server = new McpServer({
    logger: null,
    onCancellation: onCancellation(`${SERVER}/${peer}`),
    handlers: {
      initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: SERVER, version: "0.1.0" } }),
      "tools/call": async (params, ctx) => {
        serverIds.set(peer, ctx.requestId);
        console.log(`${SERVER}: ${peer}'s tools/call "${params.name}" started (request id ${String(ctx.requestId)})`);
        await ctx.sendProgress(1, 3, "warming up"); // no-ops unless the caller asked for progress
        await ctx.sendProgress(2, 3, "working");
        const aborted = await sleep(SLOW_MS, ctx.signal);
        handlerSaw.set(peer, aborted ? `signal aborted, reason ${JSON.stringify(ctx.signal.reason)}` : "ran to the end");
        console.log(`${SERVER}: ${peer}'s handler ${handlerSaw.get(peer) ?? ""}`);
        return text(aborted ? "never sent" : `${peer}: done after ${SLOW_MS} ms`);
      },
    },
  });
  const transport = createMcpxTransport({ participantId: SERVER, peerId: peer, link: serverLink });
  serverTransports.push(transport);
  await server.connect(transport);
  return server;
}

const servers = [await serve("alice"), await serve("bob")];
const links = [serverLink];
/** A client participant: its own link, one conversation with the server. */
async function client(peer: Peer): Promise<McpClient> {
  const link = gateway.join(peer);
  links.push(link);
  const mcp = new McpClient({ logger: null, onCancellation: onCancellation(peer) });
  await mcp.connect(createMcpxTransport({ participantId: peer, peerId: SERVER, link }));
  const init = await mcp.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: peer, version: "0.1.0" } });
  console.log(`${peer}: initialized with ${init.serverInfo.name}`);
  await mcp.notify("notifications/initialized");
  return mcp;
}
const alice = await client("alice");
const bob = await client("bob");

console.log("--- both clients start the slow tool; alice aborts after her second progress notification");
const controller = new AbortController();
const [aliceOutcome, bobOutcome] = await Promise.allSettled([
  alice.callTool({ name: "slow" }, {
    signal: controller.signal,
    onProgress: (p) => {
      console.log(`alice: progress ${p.progress}/${String(p.total)} ${p.message ?? ""}`);
      if (p.progress === 2) controller.abort(REASON);
    },
  }),
  bob.callTool({ name: "slow" }, { onProgress: (p) => console.log(`bob: progress ${p.progress}/${String(p.total)} ${p.message ?? ""}`) }),
]);
await new Promise((resolve) => setTimeout(resolve, 20)); // room for any late envelope to show up

console.log("--- outcome");
console.log(`ids: alice's slow call was request id ${String(serverIds.get("alice"))}, bob's was ${String(serverIds.get("bob"))} (ids are per sender)`);
const aliceErr = aliceOutcome.status === "rejected" ? aliceOutcome.reason : undefined;
console.log(`alice: ${aliceErr instanceof RequestCancelledError ? `rejected with ${aliceErr.name} (request id ${String(aliceErr.requestId)}), reason ${JSON.stringify(aliceErr.reason)}` : `NOT cancelled: ${String(aliceErr ?? "it resolved")}`}`);
const bobText = bobOutcome.status === "fulfilled" ? bobOutcome.value.content[0] : undefined;
console.log(`bob: ${bobText?.type === "text" ? `result "${bobText.text}"` : `no result: ${bobOutcome.status === "rejected" ? String(bobOutcome.reason) : "?"}`}`);
console.log(`${SERVER} handlers: alice's ${handlerSaw.get("alice") ?? "?"}; bob's ${handlerSaw.get("bob") ?? "?"}`);
const [forAlice, forBob] = serverTransports.map((t) => t.counts);
console.log(`${SERVER} transports on one link: for alice delivered ${forAlice?.delivered} ignored ${forAlice?.ignored}; for bob delivered ${forBob?.delivered} ignored ${forBob?.ignored}`);
console.log(`gateway counts: ${JSON.stringify(gateway.counts)}`);

await Promise.all([alice.close(), bob.close(), ...servers.map((s) => s.close())]);
for (const link of links) link.close();

// The checks: what this example claims to show.
const payloads = routed.map((e) => ({ envelope: e, msg: e.payload as JsonRpcMessage }));
const cancels = payloads.filter(({ msg }) => "method" in msg && msg.method === "notifications/cancelled");
const cancelledId = aliceErr instanceof RequestCancelledError ? aliceErr.requestId : undefined;
const answersToAlice = payloads.filter(({ envelope, msg }) => envelope.to?.includes("alice") && !("method" in msg) && msg.id === cancelledId);
const failures = [
  !(aliceErr instanceof RequestCancelledError) && "alice's call was not rejected with RequestCancelledError",
  bobText?.type !== "text" && "bob's call got no result",
  serverIds.get("alice") !== serverIds.get("bob") && "the two slow calls did not share a request id",
  handlerSaw.get("alice")?.includes(REASON) !== true && "alice's handler did not see its signal abort with the reason",
  handlerSaw.get("bob") !== "ran to the end" && "bob's handler did not run to the end",
  cancels.length !== 1 && `expected one notifications/cancelled envelope, saw ${cancels.length}`,
  cancels.length === 1 && cancels[0]?.envelope.from !== "alice" && "the cancel envelope did not come from alice",
  answersToAlice.length !== 0 && `alice's cancelled id ${String(cancelledId)} got a response envelope`,
  cancellations.some(({ who }) => who === `${SERVER}/bob` || who === "bob") && "bob's conversation saw a cancellation event",
].filter((f): f is string => typeof f === "string");
for (const failure of failures) console.log(`FAILED: ${failure}`);
if (failures.length > 0) process.exitCode = 1;
else console.log("ok: one cancel envelope with alice's original id, no acknowledgement, bob unaffected");
