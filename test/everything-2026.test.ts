/**
 * The everything-server's two eras on one URL: which requests the router sends to the
 * 2026-07-28 handler (examples/everything-2026/era.ts).
 */
import { describe, expect, it } from "vitest";
import { isModern, type RoutedRequest } from "../examples/everything-2026/era.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const post = (protocolVersion: string | undefined, body: unknown, sessionId?: string): RoutedRequest => ({ method: "POST", protocolVersion, sessionId, body });

describe("isModern (which era a request belongs to)", () => {
  it("sends a POST that claims 2026-07-28 in its header or its _meta, and no session, to the 2026-07-28 handler", () => {
    expect(isModern(post("2026-07-28", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }))).toBe(true);
    expect(isModern(post(undefined, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }))).toBe(true);
    // Malformed claims get the modern errors: no _meta at all, a header version nobody speaks,
    // a _meta version that contradicts a legacy header, initialize sent the modern way (-32601 there).
    expect(isModern(post("2026-07-28", { jsonrpc: "2.0", id: 1, method: "server/discover", params: {} }))).toBe(true);
    expect(isModern(post("v999.0.0", { jsonrpc: "2.0", id: 1, method: "server/discover" }))).toBe(true);
    expect(isModern(post(" 2026-07-28 ", "not json-rpc"))).toBe(true);
    expect(isModern(post("2025-11-25", { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }))).toBe(true);
    expect(isModern(post("2026-07-28", { jsonrpc: "2.0", id: 1, method: "initialize", params: { _meta: META } }))).toBe(true);
  });

  it("keeps sessions, their GET and DELETE, and requests without a claim on the 2025-11-25 path", () => {
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } } };
    expect(isModern(post(undefined, initialize))).toBe(false);
    // The conformance suite's 2025 DNS-rebinding probe: a legacy version header on initialize.
    expect(isModern(post("2025-11-25", initialize))).toBe(false);
    expect(isModern(post("2025-11-25", { jsonrpc: "2.0", id: 2, method: "tools/list" }, "session-1"))).toBe(false);
    expect(isModern(post("2026-07-28", { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: META } }, "session-1"))).toBe(false);
    for (const version of ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]) {
      expect(isModern(post(version, { jsonrpc: "2.0", id: 2, method: "tools/list" }))).toBe(false);
    }
    expect(isModern({ method: "GET", protocolVersion: "2026-07-28", sessionId: undefined, body: undefined })).toBe(false);
    expect(isModern({ method: "DELETE", protocolVersion: "2025-11-25", sessionId: "session-1", body: undefined })).toBe(false);
    // A _meta without the version key, or a batch, is no claim.
    expect(isModern(post(undefined, { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: { progressToken: 1 } } }))).toBe(false);
    expect(isModern(post(undefined, [{ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }]))).toBe(false);
  });
});
