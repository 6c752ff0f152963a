/**
 * The router's two pure rules (moved here from examples/everything-2026/era.ts with the routing):
 * which POST outside a session claims 2026-07-28 (claimsModernEra), and which session revision an
 * `initialize` opens (sessionRevisionFor). The wire behaviour of both: routing.test.ts.
 */
import { describe, expect, it } from "vitest";
import { BASIC_META } from "../../../../helpers/fixtures.js";
import { R25 } from "./support.js";

const { claimsModernEra: claims, sessionRevisionFor } = R25;
/** What the router passes: the modern handler's `_meta` key and the session handlers' versions (their generated bindings). */
const ERA = { metaKey: "io.modelcontextprotocol/protocolVersion", legacyVersions: new Set(["2025-03-26", "2025-06-18", "2025-11-25"]) };
const claimsModernEra = (header: string | null, body: unknown) => claims(header, body, ERA);
const request = (method: string, params?: unknown) => ({ jsonrpc: "2.0", id: 1, method, ...(params === undefined ? {} : { params }) });

describe("claimsModernEra (basic/versioning: a dual-era server selects its behavior from how the client opens)", () => {
  it("a _meta version, or a header naming no initialize-era version: 2026-07-28", () => {
    expect(claimsModernEra("2026-07-28", request("tools/list", { _meta: BASIC_META }))).toBe(true);
    expect(claimsModernEra(null, request("tools/list", { _meta: BASIC_META }))).toBe(true);
    // Malformed claims get the modern errors: no _meta, an unknown header version, a _meta
    // version beside a legacy header, initialize sent the modern way.
    expect(claimsModernEra("2026-07-28", request("server/discover", {}))).toBe(true);
    expect(claimsModernEra("v999.0.0", request("server/discover"))).toBe(true);
    expect(claimsModernEra(" 2026-07-28 ", "not json-rpc")).toBe(true);
    expect(claimsModernEra("2025-11-25", request("tools/list", { _meta: BASIC_META }))).toBe(true);
    expect(claimsModernEra("2026-07-28", request("initialize", { _meta: BASIC_META }))).toBe(true);
    // A later version than any known today is modern too (dates after 2025-11-25).
    expect(claimsModernEra("2027-01-01", request("tools/list"))).toBe(true);
  });

  it("no claim, or an initialize-era header: the session era", () => {
    const initialize = request("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } });
    expect(claimsModernEra(null, initialize)).toBe(false);
    // The conformance suite's 2025 DNS-rebinding probe: a legacy version header on initialize.
    expect(claimsModernEra("2025-11-25", initialize)).toBe(false);
    for (const version of ["2025-03-26", "2025-06-18", "2025-11-25", " 2025-06-18"]) {
      expect(claimsModernEra(version, request("tools/list")), version).toBe(false);
    }
    // A _meta without the version key, or a batch, is no claim.
    expect(claimsModernEra(null, request("ping", { _meta: { progressToken: 1 } }))).toBe(false);
    expect(claimsModernEra(null, [request("tools/list", { _meta: BASIC_META })])).toBe(false);
    expect(claimsModernEra(null, undefined)).toBe(false);
  });

  it("knows the eras only from the handlers' bindings: no version is legacy by its date", () => {
    // A session era that negotiates only 2025-11-25: an older date names no session of it.
    const only = { metaKey: "x-version", legacyVersions: new Set(["2025-11-25"]) };
    expect(claims("2025-06-18", request("tools/list"), only)).toBe(true);
    expect(claims("2025-11-25", request("tools/list"), only)).toBe(false);
    // The `_meta` key is the modern handler's, whatever it is called.
    expect(claims(null, request("tools/list", { _meta: { "x-version": "2027-01-01" } }), only)).toBe(true);
    expect(claims(null, request("tools/list", { _meta: BASIC_META }), only)).toBe(false);
  });
});

describe("sessionRevisionFor (Lifecycle, Version Negotiation)", () => {
  const served = ["2025-11-25", "2025-06-18", "2025-03-26"];
  it("the newest served revision not newer than the one asked for", () => {
    expect(sessionRevisionFor("2025-11-25", served)).toBe("2025-11-25");
    expect(sessionRevisionFor("2025-06-18", served)).toBe("2025-06-18");
    expect(sessionRevisionFor("2025-07-01", served)).toBe("2025-06-18");
    expect(sessionRevisionFor("2025-03-26", served)).toBe("2025-03-26");
    expect(sessionRevisionFor("2026-07-28", served)).toBe("2025-11-25");
    expect(sessionRevisionFor("2025-06-18", ["2025-11-25", "2025-03-26"])).toBe("2025-03-26");
  });

  it("an older, unknown or missing version: the newest served", () => {
    expect(sessionRevisionFor("2024-11-05", served)).toBe("2025-11-25");
    expect(sessionRevisionFor("latest", served)).toBe("2025-11-25");
    expect(sessionRevisionFor(undefined, served)).toBe("2025-11-25");
    expect(sessionRevisionFor(20251125, served)).toBe("2025-11-25");
    expect(sessionRevisionFor("2025-06-18", [])).toBeUndefined();
  });
});
