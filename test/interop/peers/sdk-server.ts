/**
 * The official SDK's McpServer, as the peer of the generated McpClient. Tools:
 * - echo: answers at once;
 * - slow: sends one progress notification (when asked for progress), then waits for its signal;
 * - slow-then-late: the same, and once cancelled ignores its signal and answers anyway. The SDK
 *   drops whatever a cancelled handler returns, so the late result is also written straight on
 *   the transport, as a server whose answer crossed the cancel on the wire would;
 * - hold / release: hold answers when release is called;
 * - observations: what this server saw (Observations, as JSON text).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { aborted, errorText, TEXT, WireTap, type HandlerRecord, type Observations } from "./common.js";

export const SDK_ECHO_TEXT = "echo from the SDK server";
export const LATE_TEXT = "late result";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export async function startSdkServer(transport: SdkTransport): Promise<void> {
  const wire = new WireTap(transport);
  const handlers: Record<string, HandlerRecord> = {};
  const errors: string[] = [];
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));

  const server = new McpServer({ name: "sdk-interop-server", version: "1.0.0" });
  server.server.onerror = (error) => errors.push(errorText(error));

  const waitForCancel = async (extra: Extra, late: boolean) => {
    const record: HandlerRecord = { requestId: extra.requestId, returned: false };
    handlers[JSON.stringify(extra.requestId)] = record;
    const progressToken = extra._meta?.progressToken;
    if (progressToken !== undefined) {
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress: 1, message: "started" } });
    }
    record.signalReason = await aborted(extra.signal);
    if (late) await wire.send({ jsonrpc: "2.0", id: extra.requestId, result: { content: [TEXT(LATE_TEXT)] } });
    record.returned = true;
    return { content: [TEXT(`${LATE_TEXT}, returned by the handler`)] };
  };

  server.registerTool("echo", { description: "answers at once" }, () => ({ content: [TEXT(SDK_ECHO_TEXT)] }));
  server.registerTool("slow", { description: "waits for its cancellation" }, (extra) => waitForCancel(extra, false));
  server.registerTool("slow-then-late", { description: "waits for its cancellation, then answers anyway" }, (extra) => waitForCancel(extra, true));
  server.registerTool("hold", { description: "answers once release is called" }, async () => {
    await released;
    return { content: [TEXT("held")] };
  });
  server.registerTool("release", { description: "lets hold answer" }, () => {
    release();
    return { content: [TEXT("released")] };
  });
  server.registerTool("observations", { description: "what this server saw" }, () => {
    const observations: Observations = { sent: wire.sent, received: wire.received, handlers, events: [], errors };
    return { content: [TEXT(JSON.stringify(observations))] };
  });

  await server.connect(wire);
}
