/**
 * The options of the session HTTP client transport (templates/runtime/http/http-session-client.ts):
 * a bad number names its option, the lowest values allowed pass, the global fetch is the default
 * (and its absence is an error at construction), listening is the default, and start() is a
 * promise like every Transport's.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { handshake, json, initializeResult, scriptedFetch, sessionScript, within } from "./support.js";

const URL_ = "http://mcp.test/mcp";

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("SessionHttpClientTransport: options", () => {
  it("a bad number names its option, the bound and the value; the lowest values allowed pass", () => {
    const { fetch } = scriptedFetch(() => new Response(null, { status: 202 }));
    const bad: Array<[Partial<R.SessionHttpClientTransportOptions>, string]> = [
      [{ maxMessageBytes: 0 }, "maxMessageBytes must be an integer ≥ 1, got 0"],
      [{ reconnect: { maxAttempts: -1 } }, "reconnect.maxAttempts must be an integer ≥ 0, got -1"],
      [{ reconnect: { defaultRetryMs: 1.5 } }, "reconnect.defaultRetryMs must be an integer ≥ 0, got 1.5"],
      [{ reconnect: { maxRetryMs: "5" as unknown as number } }, 'reconnect.maxRetryMs must be an integer ≥ 0, got "5"'],
    ];
    for (const [options, message] of bad) {
      expect(() => R.createSessionHttpClientTransport({ url: URL_, fetch, ...options })).toThrow(new RangeError(message));
    }
    expect(R.createSessionHttpClientTransport({ url: URL_, fetch, maxMessageBytes: 1, reconnect: { maxAttempts: 0, defaultRetryMs: 0, maxRetryMs: 0 } })).toBeInstanceOf(
      R.SessionHttpClientTransport,
    );
  });

  it("without options.fetch the global fetch is used; without either the constructor throws", async () => {
    const { fetch, calls } = scriptedFetch(() => new Response(null, { status: 202 }));
    const seen: unknown[] = [];
    vi.stubGlobal("fetch", (input: string | URL, init: RequestInit) => {
      seen.push(input);
      return fetch(input, init);
    });
    const transport = R.createSessionHttpClientTransport({ url: URL_, listen: false });
    await within("a notification", transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(seen).toEqual([URL_]);
    expect(calls.map((c) => [c.method, c.body])).toEqual([["POST", { jsonrpc: "2.0", method: "notifications/initialized" }]]);
    await transport.close();

    vi.stubGlobal("fetch", undefined);
    expect(() => R.createSessionHttpClientTransport({ url: URL_ })).toThrow(new TypeError("no fetch: pass options.fetch"));
  });

  it("listens by default: the GET stream opens after notifications/initialized", async () => {
    const { fetch, calls } = scriptedFetch(sessionScript((call) => (call.method === "GET" ? new Response(null, { status: 405 }) : json(initializeResult()))));
    const transport = R.createSessionHttpClientTransport({ url: URL_, fetch });
    await handshake(transport);
    await within("close", transport.close());
    expect(calls.map((c) => c.method)).toEqual(["POST", "POST", "GET", "DELETE"]);
  });

  it("start() resolves", async () => {
    const transport = R.createSessionHttpClientTransport({ url: URL_, fetch: scriptedFetch(() => new Response(null, { status: 202 })).fetch });
    const started = transport.start();
    expect(started).toBeInstanceOf(Promise);
    await expect(started).resolves.toBeUndefined();
    await transport.close();
  });
});
