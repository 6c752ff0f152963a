/**
 * Interop: the official SDK 1.32 client over its SSEClientTransport (the 2024-11-05 HTTP+SSE
 * client) against our createLegacySseHandler, on a real node:http server on loopback, on both
 * faces of the handler.
 */
import { afterEach, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { aborted, waitFor, within } from "../../../helpers/async.js";
import { closeAll, serve, describeFaces } from "./support.js";

afterEach(closeAll);

const TEXT = (text: string) => ({ type: "text" as const, text });

describeFaces("SDK 1.32 SSEClientTransport against our HTTP+SSE server", (face) => {
  it("connects (initialize on 2024-11-05), lists and calls tools; a cancelled call aborts our handler; close ends the session", async () => {
    const reasons: unknown[] = [];
    let started = 0;
    const served = await serve(face, {
      serverInfo: { name: "ours", version: "1.0.0" },
      handlers: {
        "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }, { name: "slow", inputSchema: { type: "object" } }] }),
        "tools/call": async (params, ctx) => {
          if (params.name === "slow") {
            started++;
            reasons.push(await aborted(ctx.signal));
            return { content: [] };
          }
          return { content: [TEXT(`echo ${JSON.stringify(params.arguments ?? {})}`)] };
        },
      },
    });
    const client = new Client({ name: "sdk-sse-client", version: "1.0.0" });
    await within("connect", client.connect(new SSEClientTransport(new URL(`${served.origin}/sse`))));
    expect(client.getServerVersion()).toEqual({ name: "ours", version: "1.0.0" });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "slow"]);
    expect(await client.callTool({ name: "echo", arguments: { a: 1 } })).toEqual({ content: [TEXT('echo {"a":1}')] });

    const controller = new AbortController();
    const call = client.callTool({ name: "slow" }, undefined, { signal: controller.signal }).catch((e: unknown) => e);
    await waitFor("the slow handler started", () => (started === 1 ? true : undefined));
    controller.abort("stop");
    expect(await within("the cancelled call", call)).toBeInstanceOf(Error);
    await waitFor("our handler's signal aborted", () => (reasons.length === 1 ? true : undefined));
    expect(served.events).toContainEqual(expect.objectContaining({ type: "received", method: "tools/call" }));

    // A call still running when the client closes: the stream's end aborts it.
    void client.callTool({ name: "slow" }).catch(() => undefined);
    await waitFor("the second slow handler started", () => (started === 2 ? true : undefined));
    await client.close();
    await waitFor("closing the stream aborted the running handler", () => (reasons.length === 2 ? true : undefined));
    expect(served.errors).toEqual([]);
  });
});
