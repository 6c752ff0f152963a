/**
 * The generated McpClient as the peer of a raw test server (malformed server→client cancels). It
 * initializes, then answers sampling/createMessage ("slow" waits for its cancellation, anything
 * else is answered at once with "sampled: <text>") and reports what it saw in the
 * `_meta.observations` of its roots/list result.
 */
import { McpClient, type CancellationEvent, type Transport } from "../../generated/2025-11-25/index.js";
import { aborted, errorText, sampled, samplingText, WireTap, type HandlerRecord, type Observations } from "./common.js";

export async function startOurClient(transport: Transport): Promise<void> {
  const wire = new WireTap(transport);
  const handlers: Record<string, HandlerRecord> = {};
  const events: CancellationEvent[] = [];
  const errors: string[] = [];
  const client: McpClient = new McpClient({
    logger: null,
    onCancellation: (event) => events.push(event),
    onError: (error) => errors.push(errorText(error)),
    handlers: {
      "sampling/createMessage": async (params, ctx) => {
        const text = samplingText(params);
        if (text !== "slow") return sampled(text);
        const record: HandlerRecord = { requestId: ctx.requestId, returned: false };
        handlers[JSON.stringify(ctx.requestId)] = record;
        record.signalReason = await aborted(ctx.signal);
        record.returned = true;
        return sampled("too late");
      },
      "roots/list": () => {
        const observations: Observations = { sent: wire.sent, received: wire.received, handlers, events, errors, inFlight: client.inFlight };
        return { roots: [], _meta: { observations } };
      },
    },
  });
  await client.connect(wire, { initialize: false });
  // Not awaited: over the in-memory transport the test's end starts only after this returns.
  void client
    .initialize({ protocolVersion: "2025-11-25", capabilities: { sampling: {}, roots: {} }, clientInfo: { name: "stubgen-interop-client", version: "1.0.0" } })
    .then(() => client.notify("notifications/initialized"))
    .catch((error: unknown) => errors.push(errorText(error)));
}
