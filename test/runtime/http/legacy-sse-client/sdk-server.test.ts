/**
 * Interop: our 2024-11-05 McpClient over createLegacySseClientTransport against the official SDK
 * 1.32 HTTP+SSE server (SSEServerTransport), on loopback.
 */
import { afterEach, describe, expect, it } from "vitest";
import * as R from "../../../generated/2024-11-05/index.js";
import { waitFor, within } from "../../../helpers/async.js";
import { closeAll, sdkSseServer, TEXT } from "./support.js";

afterEach(closeAll);

const INITIALIZE = { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "legacy-client-test", version: "1.0.0" } };

describe("our HTTP+SSE client against SDK 1.32 SSEServerTransport", () => {
  it("initializes, lists and calls tools, cancels a call (the SDK's handler aborts), and close ends the stream", async () => {
    const sdk = await sdkSseServer();
    const errors: Error[] = [];
    const client = new R.McpClient({ logger: null, onError: (e) => errors.push(e) });
    const transport = R.createLegacySseClientTransport({ url: `${sdk.origin}/sse` });
    await client.connect(transport, { initialize: false });
    expect(transport.endpoint?.pathname).toBe("/messages");
    expect(await within("initialize", client.initialize(INITIALIZE))).toMatchObject({ protocolVersion: "2024-11-05", serverInfo: { name: "sdk-sse-server" } });
    await client.notify("notifications/initialized");
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "slow"]);
    expect(await client.callTool({ name: "echo" })).toEqual({ content: [TEXT("echo from the SDK")] });

    const controller = new AbortController();
    const call = client.callTool({ name: "slow" }, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the SDK's slow tool started", () => (sdk.started.count === 1 ? true : undefined));
    controller.abort("stop");
    expect(await within("the cancelled call", call)).toBeInstanceOf(R.RequestCancelledError);
    await waitFor("the SDK's handler aborted", () => (sdk.aborts.length === 1 ? true : undefined));

    let closed = false;
    const onclose = transport.onclose;
    transport.onclose = () => {
      closed = true;
      onclose?.();
    };
    await client.close();
    expect(closed).toBe(true);
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/initialized" })).rejects.toThrow(/closed/);
    expect(errors).toEqual([]);
  });
});
