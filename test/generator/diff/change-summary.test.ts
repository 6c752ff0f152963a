/**
 * generator/diff/change-summary.ts: the one clause `schema pull` prints for a schema that changed
 * against its pin, made with the diff's own machinery, or byte counts when it cannot be.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { changeSummary, schemaChange } from "../../../generator/diff/change-summary.js";
import { diffRevisions } from "../../../generator/diff/diff.js";
import { buildModel } from "../../../generator/model/model.js";
import { DEFAULT_POLICY } from "../../../generator/model/policy.js";
import { docFrom, fixturePath, request } from "../support.js";

const MINI = readFileSync(fixturePath("cli/mini.json"), "utf8");
const CHANGED = readFileSync(fixturePath("pins/mini-changed.json"), "utf8");

const side = (defs: Record<string, unknown>) => {
  const doc = docFrom(defs);
  return { doc, policy: DEFAULT_POLICY, model: buildModel(doc, { revision: "r", policy: DEFAULT_POLICY }) };
};

describe("schemaChange", () => {
  it("definitions and methods added and changed, named", () => {
    expect(schemaChange("2027-01-01", MINI, CHANGED, "x.json")).toBe(
      "1 definition added (ShoutRequest), 2 definitions changed (ClientRequest, EchoResult), 1 method added (demo/shout)",
    );
    expect(schemaChange("2027-01-01", CHANGED, MINI, "x.json")).toBe(
      "1 definition removed (ShoutRequest), 2 definitions changed (ClientRequest, EchoResult), 1 method removed (demo/shout)",
    );
  });

  it("the pinned bytes not in the cache: the size of the new ones", () => {
    expect(schemaChange("r", null, "12345", "x.json")).toBe("5 bytes now (the pinned copy is not in the cache to compare)");
  });

  it("bytes that change nothing the diff sees, or a side it cannot read: byte counts", () => {
    expect(schemaChange("r", MINI, `${MINI} `, "x.json")).toBe(`no definition or method changed (${MINI.length} bytes → ${MINI.length + 1} bytes)`);
    expect(schemaChange("r", "{", MINI, "x.json")).toBe(`1 byte → ${MINI.length} bytes (not a schema the diff can read)`);
  });
});

describe("changeSummary", () => {
  it("names four of each kind, counts the rest, and names a method of two directions once", () => {
    const defs = Object.fromEntries(["A", "B", "C", "D", "E"].map((n) => [n, { type: "string" }]));
    const results = { EmptyResult: { type: "object" }, XResult: { type: "object" } };
    const before = side({ ...results, PingRequest: request("ping"), ClientRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }] } });
    const after = side({
      ...defs,
      ...results,
      PingRequest: request("ping"),
      X: request("x/y"),
      ClientRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }, { $ref: "#/$defs/X" }] },
      ServerRequest: { anyOf: [{ $ref: "#/$defs/X" }] },
    });
    expect(changeSummary(diffRevisions(before, after))).toBe(
      "7 definitions added (A, B, C, D, …), 1 definition changed (ClientRequest), 1 method added (x/y)",
    );
    expect(changeSummary(diffRevisions(before, before))).toBe("");
  });
});
