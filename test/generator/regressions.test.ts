/**
 * Regression tests: each reproduces, on the smallest input that shows it, a bug found in
 * generator/ while writing the unit tests (all fixed since).
 */
import { describe, expect, it } from "vitest";
import { emitTypes } from "../../generator/emit/emit-types.js";
import { buildModel } from "../../generator/model/model.js";
import { parseJson } from "../../generator/load/parse-json.js";
import { policyFor } from "../../generator/model/policy.js";
import { readSchemaDocument } from "../../generator/load/schema-document.js";
import { catchStubgenError, docFrom, request } from "./support.js";

describe("regressions", () => {
  describe("parse-json", () => {
    // A string that runs into the end of its line (a missing closing quote, the usual case of
    // an unterminated string) fails on the raw newline, and the message quotes that newline
    // as is: format() is two lines, though StubgenError promises one line for the CLI.
    it("format() stays on one line when the offending character is a newline", () => {
      const err = catchStubgenError(() => parseJson('{\n  "a": "abc,\n  "b": 1\n}', "f.json"));
      expect(err.location).toMatchObject({ line: 2, column: 13 });
      expect(err.format()).not.toContain("\n");
    });
  });

  describe("model: an inline direction union object gets the union's name as its typeName", () => {
    // unionMembers() locates an inline union object with name = the union's name, so
    // target.name is never null for it: the "prefer a member that names a definition" choice in
    // buildModel (meant for 2026-07-28) picks the inline ClientNotification over
    // CancelledNotification, and paramsExpr's `member.at.pointer === /$defs/<union>` branch is dead.
    it("2026-07-28 shape: notifications/cancelled is typed by CancelledNotification", () => {
      const params = { $ref: "#/$defs/CancelledNotificationParams" };
      const doc = docFrom({
        CancelledNotificationParams: { type: "object", properties: { requestId: { type: "string" } } },
        CancelledNotification: request("notifications/cancelled", params, { description: "Cancels a request." }),
        ClientNotification: request("notifications/cancelled", params, { description: "The client's notification." }),
        ServerNotification: { anyOf: [{ $ref: "#/$defs/CancelledNotification" }] },
      });
      const [cancelled] = buildModel(doc, { revision: "2026-07-28", policy: policyFor("2026-07-28") }).methods;
      expect(cancelled?.typeName).toBe("CancelledNotification");
      expect(cancelled?.description).toBe("Cancels a request.");
    });

    // Worse for requests: the by-name result rule turns "ClientRequest" into "ClientResult"
    // (every MCP schema has that union), and the facade method is named client().
    it("an inline ClientRequest object does not get ClientResult as its result", () => {
      const doc = docFrom({
        Result: { type: "object" },
        EmptyResult: { $ref: "#/$defs/Result" },
        ClientResult: { anyOf: [{ $ref: "#/$defs/EmptyResult" }] },
        ClientRequest: request("ping"),
      });
      const [ping] = buildModel(doc, { revision: "r", policy: policyFor("r") }).methods;
      expect(ping).toMatchObject({ method: "ping", results: ["EmptyResult"], resultRule: "default" });
      expect(ping?.typeName).toBeNull();
    });
  });

  describe("schema-document: checkRefs walks property names as if they were keywords", () => {
    // A property named "$ref" (as in a schema that describes JSON Schema documents) is taken
    // for a reference and rejected; conversely a dangling $ref under a property named "const",
    // "enum", "default" or "examples" is never checked.
    it('accepts an object schema with a property named "$ref"', () => {
      const text = JSON.stringify({ $defs: { RefHolder: { type: "object", properties: { $ref: { type: "string" } } } } });
      expect(readSchemaDocument(text, "r.json").defs.has("RefHolder")).toBe(true);
    });

    it('rejects a dangling $ref under a property named "const"', () => {
      const text = JSON.stringify({ $defs: { A: { type: "object", properties: { const: { $ref: "#/$defs/Missing" } } } } });
      const err = catchStubgenError(() => readSchemaDocument(text, "r.json"));
      expect(err.location.pointer).toBe("/$defs/A/properties/const/$ref");
    });
  });

  describe("emit-types: a title keyword on a nested schema", () => {
    // json-schema-to-typescript names a titled sub-schema after its title and declares it
    // separately. No published MCP schema has a nested title today, but nothing strips it: the
    // nested schema becomes an extra export and, when its title equals a definition's name,
    // takes that name and the definition is renamed Other1 (Holder.inner gets the wrong type).
    it("exports the definitions only, under their own names", async () => {
      const doc = docFrom({
        Holder: { type: "object", properties: { inner: { title: "Other", type: "object", properties: { z: { type: "string" } } } } },
        Other: { type: "object", properties: { q: { type: "number" } } },
      });
      const source = await emitTypes(doc, "r");
      expect([...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1])).toEqual(["Holder", "Other"]);
    });
  });
  describe("result overrides and fallbacks", () => {
    const base = {
      PingRequest: request("ping"),
      ClientRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }] },
    };

    it("rejects an override for a method the schema does not have (a typo would go unnoticed)", () => {
      const doc = docFrom({ Result: { type: "object" }, ...base });
      const err = catchStubgenError(() => buildModel(doc, { revision: "r", policy: policyFor("r"), resultOverrides: { pnig: "Result" } }));
      expect(err.message).toContain('"pnig"');
      expect(err.message).toContain("ping");
    });

    it("fails clearly when neither EmptyResult nor Result exists instead of naming a missing type", () => {
      const err = catchStubgenError(() => buildModel(docFrom(base), { revision: "r", policy: policyFor("r") }));
      expect(err.message).toContain("--result-override ping=TypeName");
    });

    it("does not take `things/do-more` in a description for the method `things/do`", () => {
      const doc = docFrom({
        Result: { type: "object" },
        DoRequest: request("things/do"),
        MoreResult: { type: "object", description: "The response to a things/do-more request." },
        ClientRequest: { anyOf: [{ $ref: "#/$defs/DoRequest" }] },
      });
      expect(buildModel(doc, { revision: "r", policy: policyFor("r") }).methods[0]).toMatchObject({ results: ["Result"], resultRule: "default" });
    });
  });

  describe("emit-types: the false schema", () => {
    it("becomes never, not an open object", async () => {
      const doc = readSchemaDocument(JSON.stringify({ $defs: { Nothing: false, Holder: { type: "object", properties: { n: { $ref: "#/$defs/Nothing" } } } } }), "f.json");
      const source = await emitTypes(doc, "r");
      expect(source).toMatch(/^export type Nothing = never$/m);
    });
  });
});
