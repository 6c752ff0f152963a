import { describe, expect, it } from "vitest";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor, type RevisionPolicy } from "../../../generator/model/policy.js";
import { revisionRules } from "../../../generator/model/rules.js";
import { catchStubgenError, docFrom, request } from "../support.js";

const STATELESS = policyFor("2026-07-28");
const metaProps = {
  "io.modelcontextprotocol/protocolVersion": { type: "string" },
  "io.modelcontextprotocol/clientCapabilities": { type: "object" },
  "io.modelcontextprotocol/clientInfo": { type: "object" },
};
const defs = (requestMeta: Record<string, unknown> | undefined) => ({
  ...(requestMeta === undefined ? {} : { RequestMetaObject: { type: "object", properties: requestMeta } }),
  ListenRequest: request("subscriptions/listen"),
  ListenResult: { type: "object" },
  ClientRequest: { anyOf: [{ $ref: "#/$defs/ListenRequest" }] },
});
const view = (d: Record<string, unknown>, policy: RevisionPolicy = STATELESS) => {
  const doc = docFrom(d, { file: "rev.json" });
  return revisionRules(doc, buildModel(doc, { revision: "test", policy }), policy);
};

describe("revisionRules (generator/model/rules.ts)", () => {
  it("copies the policy when the schema agrees with it", () => {
    expect(view(defs(metaProps))).toEqual({
      cancellers: ["client"],
      endableByReceiver: ["subscriptions/listen"],
      longLived: ["subscriptions/listen"],
      cancelByClosingStream: true,
      defaultTimeoutMs: 60_000,
      defaultMaxTotalTimeoutMs: 600_000,
      requestMeta: {
        protocolVersion: "io.modelcontextprotocol/protocolVersion",
        clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
        clientInfo: "io.modelcontextprotocol/clientInfo",
      },
    });
    expect(view(defs(undefined), policyFor("2025-11-25")).requestMeta).toBeNull();
  });

  it("names the file and pointer when the _meta definition or one of its keys is missing", () => {
    const missingDef = catchStubgenError(() => view(defs(undefined)));
    expect(missingDef.format()).toBe("rev.json#/$defs: expected a definition RequestMetaObject (the request _meta the client fills on every request)");
    const { ["io.modelcontextprotocol/clientInfo"]: _, ...withoutInfo } = metaProps;
    const missingKey = catchStubgenError(() => view(defs(withoutInfo)));
    expect(missingKey.format()).toBe('rev.json#/$defs/RequestMetaObject/properties: expected RequestMetaObject to declare the property "io.modelcontextprotocol/clientInfo"');
  });

  it("refuses a policy that names a request the schema does not have", () => {
    const policy = { ...STATELESS, endableByReceiver: ["subscriptions/watch"] };
    expect(catchStubgenError(() => view(defs(metaProps), policy)).message).toBe(
      "the test policy names subscriptions/watch in endableByReceiver, but the schema has no such request",
    );
  });
});
