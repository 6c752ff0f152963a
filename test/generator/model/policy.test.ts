/**
 * generator/model/policy.ts: the era a schema shows, the known revision whose prose rules a
 * revision follows (its own, the nearest earlier of its era, or the config's `rulesOf`), the
 * session versions a server negotiates, and the table checked against the schema.
 */
import { describe, expect, it } from "vitest";
import {
  checkPolicy,
  DEFAULT_POLICY,
  inheritanceNote,
  isDateLabel,
  KNOWN_REVISIONS,
  policyFor,
  resolvePolicy,
  schemaBatches,
  schemaEra,
  sessionVersions,
} from "../../../generator/model/policy.js";
import { unionMethods } from "../../../generator/model/model.js";
import { catchStubgenError, docFrom, request } from "../support.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

describe("schemaEra: read from the client requests the schema defines", () => {
  it("initialize: the session era; server/discover: the stateless era; neither: none shown", () => {
    expect(schemaEra(new Set(["initialize", "tools/call"]))).toBe("session");
    expect(schemaEra(new Set(["server/discover", "tools/call"]))).toBe("stateless");
    expect(schemaEra(new Set(["tools/call"]))).toBeNull();
  });

  it("from a schema's ClientRequest union, before any model is built", () => {
    const doc = docFrom({ ClientRequest: { anyOf: [ref("DiscoverRequest"), ref("CallToolRequest")] }, DiscoverRequest: request("server/discover"), CallToolRequest: request("tools/call") });
    expect([...unionMethods(doc, "ClientRequest")].sort()).toEqual(["server/discover", "tools/call"]);
    expect(schemaEra(unionMethods(doc, "ClientRequest"))).toBe("stateless");
    expect(unionMethods(doc, "ServerRequest").size).toBe(0);
  });
});

describe("schemaBatches: JSONRPCMessage admits an array", () => {
  it("a member that is an array (2025-03-26's JSONRPCBatchRequest), through a $ref or inline", () => {
    const message = (members: unknown[]) => docFrom({ JSONRPCMessage: { anyOf: members }, Request: { type: "object" }, Batch: { type: "array", items: ref("Request") } });
    expect(schemaBatches(message([ref("Request"), ref("Batch")]))).toBe(true);
    expect(schemaBatches(message([ref("Request"), { items: ref("Request") }]))).toBe(true);
    expect(schemaBatches(message([ref("Request")]))).toBe(false);
    expect(schemaBatches(docFrom({ Other: { type: "object" } }))).toBe(false);
  });
});

describe("resolvePolicy", () => {
  it("a known revision of its schema's era: its own line", () => {
    expect(resolvePolicy("2025-06-18", "session")).toEqual({ policy: policyFor("2025-06-18"), basis: "2025-06-18", inherited: false });
    expect(resolvePolicy("2026-07-28", "stateless")).toEqual({ policy: policyFor("2026-07-28"), basis: "2026-07-28", inherited: false });
    expect(resolvePolicy("draft", "stateless").inherited).toBe(false);
  });

  it("an unknown date: the nearest known revision of the schema's era dated no later", () => {
    expect(resolvePolicy("2027-01-01", "stateless")).toMatchObject({ basis: "2026-07-28", inherited: true });
    expect(resolvePolicy("2025-12-31", "session")).toMatchObject({ basis: "2025-11-25", inherited: true });
    expect(resolvePolicy("2025-07-01", "session")).toMatchObject({ basis: "2025-06-18", inherited: true });
    // A session-era schema dated after the stateless era began still gets the session era's rules.
    expect(resolvePolicy("2027-01-01", "session")).toMatchObject({ basis: "2025-11-25", inherited: true });
    expect(resolvePolicy("2027-01-01", "session").policy.era).toBe("session");
    // Earlier than every known one of the era: the earliest.
    expect(resolvePolicy("2026-01-01", "stateless")).toMatchObject({ basis: "2026-07-28", inherited: true });
    expect(resolvePolicy("2020-01-01", "session")).toMatchObject({ basis: "2024-11-05", inherited: true });
  });

  it("a label that is not a date: the latest known dated revision of the era", () => {
    expect(resolvePolicy("custom", "stateless")).toMatchObject({ basis: "2026-07-28", inherited: true });
    expect(resolvePolicy("custom", "session")).toMatchObject({ basis: "2025-11-25", inherited: true });
  });

  it("a known label whose schema is of the other era: the other era's rules, never the label's", () => {
    expect(resolvePolicy("2025-11-25", "stateless")).toMatchObject({ basis: "2026-07-28", inherited: true });
    expect(resolvePolicy("2026-07-28", "session")).toMatchObject({ basis: "2025-11-25", inherited: true });
  });

  it("a schema that shows no era (a fragment): its label's line, else the session era's", () => {
    expect(resolvePolicy("2026-07-28", null)).toMatchObject({ basis: "2026-07-28", inherited: false });
    expect(resolvePolicy("fixture", null).policy.era).toBe("session");
  });

  it("rulesOf chooses a known revision of the era; another era or an unknown one is an error naming what was expected", () => {
    expect(resolvePolicy("2027-01-01", "session", "2025-06-18")).toMatchObject({ basis: "2025-06-18", inherited: true });
    expect(resolvePolicy("2025-06-18", "session", "2025-06-18")).toMatchObject({ basis: "2025-06-18", inherited: false });
    expect(catchStubgenError(() => resolvePolicy("2027-01-01", "stateless", "2025-11-25")).message).toMatch(/2025-11-25 is of the session era.*expected one of 2026-07-28, draft/);
    expect(catchStubgenError(() => resolvePolicy("2027-01-01", "stateless", "2099-01-01")).message).toMatch(/expected a known revision \(2024-11-05, .*\), got "2099-01-01"/);
  });

  it("the line generate prints names the label, the basis and how to choose another", () => {
    expect(inheritanceNote("2027-01-01", "2026-07-28")).toBe(
      '2027-01-01: rules of 2026-07-28 for cancellation, timeouts and the HTTP transport\'s rules (what only the spec\'s prose says; the schema decides the rest; set "rulesOf" in the config to choose another)',
    );
  });
});

describe("the policy table", () => {
  it("knows each revision's era and HTTP transport", () => {
    const line = (revision: string) => {
      const { era, sessionHttp, versionHeader, priming, batches } = policyFor(revision);
      return { era, sessionHttp, versionHeader, priming, batches };
    };
    expect(line("2024-11-05")).toEqual({ era: "session", sessionHttp: "sse", versionHeader: false, priming: false, batches: false });
    expect(line("2025-03-26")).toEqual({ era: "session", sessionHttp: "streamable", versionHeader: false, priming: false, batches: true });
    expect(line("2025-06-18")).toEqual({ era: "session", sessionHttp: "streamable", versionHeader: true, priming: false, batches: false });
    expect(line("2025-11-25")).toEqual({ era: "session", sessionHttp: "streamable", versionHeader: true, priming: true, batches: false });
    expect(line("2026-07-28").era).toBe("stateless");
    expect(line("2026-07-28").sessionHttp).toBeNull();
    expect(DEFAULT_POLICY.era).toBe("session");
  });

  it("lists its revisions oldest first; only dates are dates", () => {
    expect(KNOWN_REVISIONS).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"]);
    expect(KNOWN_REVISIONS.filter(isDateLabel)).toEqual(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"]);
  });

  it("checkPolicy: a revision's own line must agree with its schema on batches; an inherited line is not checked", () => {
    const file = { file: "schema.json" };
    expect(() => checkPolicy(file, "2025-03-26", resolvePolicy("2025-03-26", "session"), true)).not.toThrow();
    expect(catchStubgenError(() => checkPolicy(file, "2025-03-26", resolvePolicy("2025-03-26", "session"), false)).message).toMatch(
      /the 2025-03-26 policy says JSON-RPC batches are part of the protocol, but the schema's JSONRPCMessage does not admit an array/,
    );
    expect(() => checkPolicy(file, "2025-12-31", resolvePolicy("2025-12-31", "session"), true)).not.toThrow();
  });
});

describe("sessionVersions: what a session server may negotiate", () => {
  const versions = (revision: string, era: "session" | "stateless", batches = false) => sessionVersions(revision, resolvePolicy(revision, era), batches);

  it("the known Streamable HTTP session revisions up to this one, oldest first, each with its transport rules", () => {
    expect(versions("2025-11-25", "session")).toEqual([
      { version: "2025-03-26", versionHeader: false, priming: false, batches: true },
      { version: "2025-06-18", versionHeader: true, priming: false, batches: false },
      { version: "2025-11-25", versionHeader: true, priming: true, batches: false },
    ]);
    expect(versions("2025-03-26", "session", true)).toEqual([{ version: "2025-03-26", versionHeader: false, priming: false, batches: true }]);
  });

  it("an unknown session revision: the known ones up to its basis, then itself with the basis's rules and its schema's batches", () => {
    expect(versions("2025-12-31", "session", true).map((v) => v.version)).toEqual(["2025-03-26", "2025-06-18", "2025-11-25", "2025-12-31"]);
    expect(versions("2025-12-31", "session", true).at(-1)).toEqual({ version: "2025-12-31", versionHeader: true, priming: true, batches: true });
  });

  it("none for the stateless era and for HTTP+SSE", () => {
    expect(versions("2026-07-28", "stateless")).toEqual([]);
    expect(versions("2024-11-05", "session")).toEqual([]);
  });
});
