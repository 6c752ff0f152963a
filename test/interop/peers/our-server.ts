/**
 * The generated McpServer (2025-11-25), as the peer of the SDK's Client. Tools:
 * - echo: answers with its `text` argument;
 * - slow: sends one progress notification (when asked for progress), waits for ctx.signal,
 *   then returns anyway (the runtime must drop that result: the request was cancelled);
 * - sample: sends sampling/createMessage through ctx.request (no signal of its own: the
 *   runtime ties it to the handler's signal), then waits like slow;
 * - observations: what this server saw (Observations, as JSON text).
 */
import { McpServer, type CancellationEvent, type Transport } from "../../generated/2025-11-25/index.js";
import { aborted, errorText, SAMPLING_PARAMS, TEXT, WireTap, type HandlerRecord, type Observations } from "./common.js";

export const OUR_SERVER_INFO = { name: "stubgen-interop-server", version: "1.0.0" };

export async function startOurServer(transport: Transport): Promise<void> {
  const wire = new WireTap(transport);
  const handlers: Record<string, HandlerRecord> = {};
  const events: CancellationEvent[] = [];
  const errors: string[] = [];

  const server: McpServer = new McpServer({
    logger: null,
    onCancellation: (event) => events.push(event),
    onError: (error) => errors.push(errorText(error)),
    handlers: {
      initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: OUR_SERVER_INFO }),
      "tools/list": () => ({
        tools: ["echo", "slow", "sample", "observations"].map((name) => ({ name, inputSchema: { type: "object" as const } })),
      }),
      "tools/call": async (params, ctx) => {
        const record: HandlerRecord = { requestId: ctx.requestId, returned: false };
        switch (params.name) {
          case "echo":
            return { content: [TEXT(`echo: ${String(params.arguments?.["text"])}`)] };
          case "observations": {
            const observations: Observations = { sent: wire.sent, received: wire.received, handlers, events, errors, inFlight: server.inFlight };
            return { content: [TEXT(JSON.stringify(observations))] };
          }
          case "slow":
            handlers[JSON.stringify(ctx.requestId)] = record;
            await ctx.sendProgress(1, undefined, "started");
            break;
          case "sample":
            handlers[JSON.stringify(ctx.requestId)] = record;
            ctx.request("sampling/createMessage", SAMPLING_PARAMS).then(
              () => (record.nested = { outcome: "resolved" }),
              (error: unknown) => (record.nested = { outcome: "rejected", name: (error as Error).name, reason: (error as { reason?: unknown }).reason }),
            );
            break;
          default:
            return { content: [TEXT(`no tool ${params.name}`)], isError: true };
        }
        record.signalReason = await aborted(ctx.signal);
        record.returned = true;
        return { content: [TEXT("too late: this result must not be sent")] };
      },
    },
  });
  await server.connect(wire);
}
