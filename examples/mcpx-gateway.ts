/**
 * An MCPx v0.1 gateway over WebSocket (run `npm run generate` first):
 *
 *   npm run example:mcpx-gateway -- --port P --secret S [--redis URL] [--shape draft|v0.1] [--host H] [--heartbeat-ms N]
 *
 * Participants connect to `ws://H:P/ws?topic=NAME` with `Authorization: Bearer <JWT>` (or
 * `?token=`), HS256 tokens signed with the secret whose claims are `participantId`, `topic` and
 * `capabilities` (`signMcpxToken` in the mcpx-ws add-on). With `--redis`, gateways on the same Redis
 * share their topics. Prints `listening ws://H:P/ws` once ready (port 0 picks a free one), and
 * every refusal on stderr. SIGTERM or SIGINT closes it (the other gateways hear it leave).
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { attachMcpxGateway } from "../out/runtime/addons/mcpx-ws/gateway.js";
import { createMcpxTokenVerifier } from "../out/runtime/addons/mcpx-ws/token.js";
import { createRedisGatewayBus } from "../out/runtime/addons/redis/gateway-bus.js";
import type { GatewayBus } from "../out/runtime/transports/mcpx-hub.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8080" },
    host: { type: "string", default: "127.0.0.1" },
    secret: { type: "string" },
    redis: { type: "string" },
    shape: { type: "string", default: "both" },
    "heartbeat-ms": { type: "string" },
    "max-envelopes-per-second": { type: "string" },
  },
});
const fail = (message: string): never => {
  console.error(`mcpx-gateway: ${message}`);
  process.exit(2);
};
const secret = values.secret ?? fail("--secret S is required (HS256, at least 32 bytes)");
const shape = values.shape === "draft" || values.shape === "v0.1" || values.shape === "both" ? values.shape : fail(`--shape draft|v0.1, not ${values.shape}`);
const whole = (name: string, text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : fail(`--${name} takes a whole number, not ${text}`);
};
const port = whole("port", values.port) ?? 8080;

const bus: GatewayBus | undefined = values.redis === undefined ? undefined : await createRedisGatewayBus({ url: values.redis });
const server = createServer((_request, response) => response.writeHead(404).end());
const gateway = attachMcpxGateway(server, {
  verify: createMcpxTokenVerifier({ secret }),
  bus,
  shape,
  heartbeatMs: whole("heartbeat-ms", values["heartbeat-ms"]),
  maxEnvelopesPerSecond: whole("max-envelopes-per-second", values["max-envelopes-per-second"]),
  onRefusal: (r) => console.error(`refused ${r.reason} topic=${r.topic} participant=${r.participant}: ${r.detail}`),
});
server.listen(port, values.host, () => {
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  console.log(`listening ws://${values.host}:${bound}/ws (gateway ${gateway.hub.gatewayId}${bus === undefined ? "" : `, redis ${values.redis}`}, shape ${shape})`);
});

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await gateway.close();
  await bus?.close();
  server.close();
  server.closeAllConnections();
};
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
