/**
 * HttpClientTransport (templates/runtime/http/http-client.ts) after a request ends: whatever ended it
 * (a JSON answer, an SSE answer on a stream the server keeps open, an HTTP error), the fetch's
 * own signal is aborted with "request finished", so nothing of that request's connection stays
 * open, and the id is free again.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { json, scriptedFetch, sse, within } from "../http-session-client/support.js";
import { META_KEYS, MODERN_VERSION } from "../../../helpers/fixtures.js";

const URL_ = "http://mcp.test/mcp";
const META = { [META_KEYS.protocolVersion]: MODERN_VERSION };
const call = (id: R.RequestId): R.JsonRpcMessage => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: {}, _meta: META } });
const answer = (id: R.RequestId) => ({ jsonrpc: "2.0", id, result: { content: [] } });

describe("HttpClientTransport: a finished request leaves no connection behind", () => {
  it("the fetch's signal is aborted with \"request finished\" after a JSON answer, an SSE answer and an HTTP error", async () => {
    const body = sse();
    const responses = [() => json(answer(1), 200, null), () => body.response, () => new Response("no", { status: 500 })];
    const { fetch, calls } = scriptedFetch((_c, i) => responses[i]!());
    const transport = R.createHttpClientTransport({ url: URL_, fetch });
    transport.onerror = () => {};
    await transport.start();

    await within("the JSON answer", transport.send(call(1)));
    const streamed = transport.send(call(2));
    body.write(`data: ${JSON.stringify(answer(2))}\n\n`); // the server keeps the stream open
    await within("the SSE answer", streamed);
    await within("the HTTP error", transport.send(call(3)).catch((e: unknown) => e));

    expect(calls.map((c) => c.signal?.aborted)).toEqual([true, true, true]);
    expect(calls.map((c) => c.signal?.reason)).toEqual(["request finished", "request finished", "request finished"]);
    await transport.close();
  });
});
