/**
 * The SDK's Client as the peer of a raw test server (malformed server→client cancels): the same
 * behaviour as our-client.ts, through the SDK's API.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CreateMessageRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { aborted, errorText, sampled, samplingText, WireTap, type HandlerRecord, type Observations } from "./common.js";

export async function startSdkClient(transport: SdkTransport): Promise<void> {
  const wire = new WireTap(transport);
  const handlers: Record<string, HandlerRecord> = {};
  const errors: string[] = [];
  const client = new Client({ name: "sdk-interop-client", version: "1.0.0" }, { capabilities: { sampling: {}, roots: {} } });
  client.onerror = (error) => errors.push(errorText(error));
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const text = samplingText(request.params);
    if (text !== "slow") return sampled(text);
    const record: HandlerRecord = { requestId: extra.requestId, returned: false };
    handlers[JSON.stringify(extra.requestId)] = record;
    record.signalReason = await aborted(extra.signal);
    record.returned = true;
    return sampled("too late");
  });
  client.setRequestHandler(ListRootsRequestSchema, () => {
    const observations: Observations = { sent: wire.sent, received: wire.received, handlers, events: [], errors };
    return { roots: [], _meta: { observations } };
  });
  // Client.connect sends initialize and waits for its result: not awaited, as above.
  void client.connect(wire).catch((error: unknown) => errors.push(errorText(error)));
}
