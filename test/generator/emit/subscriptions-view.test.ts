/**
 * The SUBSCRIPTIONS table the generator emits (generator/model/subscriptions.ts): the spec's
 * facts, checked against each revision's schema; emitted, with the Subscriptions hub, only where
 * the revision has subscriptions/listen.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { StubgenError } from "../../../generator/errors.js";
import { readSchemaDocument } from "../../../generator/load/schema-document.js";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { subscriptionTable } from "../../../generator/model/subscriptions.js";
import { REVISIONS, TEST_CACHE_DIR, TEST_OUT_DIR } from "../../helpers/schemas.js";
import { SUBSCRIPTIONS } from "../../generated/2026-07-28/index.js";

const schemaText = (revision: string) => readFileSync(join(TEST_CACHE_DIR, revision, "schema.json"), "utf8");

/** The view of a revision's schema, after `edit` changes its `$defs`. */
function viewOf(revision: string, edit: (defs: Record<string, Record<string, unknown>>) => void = () => undefined) {
  const json = JSON.parse(schemaText(revision)) as { $defs: Record<string, Record<string, unknown>> };
  edit(json.$defs);
  const doc = readSchemaDocument(JSON.stringify(json), `${revision}.json`);
  return subscriptionTable(doc, buildModel(doc, { revision, policy: policyFor(revision) }));
}

const props = (defs: Record<string, Record<string, unknown>>, name: string) => defs[name]!["properties"] as Record<string, Record<string, unknown>>;

describe("subscriptionTable", () => {
  it("2026-07-28: the four kinds of SubscriptionFilter, their notifications and capabilities; the result's resultType", () => {
    expect(viewOf("2026-07-28")).toEqual({
      listen: "subscriptions/listen",
      acknowledged: "notifications/subscriptions/acknowledged",
      filterParam: "notifications",
      subscriptionIdKey: "io.modelcontextprotocol/subscriptionId",
      completeResult: { resultType: "complete" },
      kinds: [
        { field: "toolsListChanged", notification: "notifications/tools/list_changed", capability: "tools", flag: "listChanged", uriParam: null },
        { field: "promptsListChanged", notification: "notifications/prompts/list_changed", capability: "prompts", flag: "listChanged", uriParam: null },
        { field: "resourcesListChanged", notification: "notifications/resources/list_changed", capability: "resources", flag: "listChanged", uriParam: null },
        { field: "resourceSubscriptions", notification: "notifications/resources/updated", capability: "resources", flag: "subscribe", uriParam: "uri" },
      ],
    });
    // What the generated server.ts carries is that view.
    expect(SUBSCRIPTIONS).toEqual(viewOf("2026-07-28"));
  });

  it("is null for the revisions without subscriptions/listen, whose output has no Subscriptions", () => {
    for (const revision of REVISIONS.filter((r) => !["2026-07-28", "draft"].includes(r))) {
      expect(viewOf(revision), revision).toBeNull();
      expect(readFileSync(join(TEST_OUT_DIR, revision, "server.ts"), "utf8"), revision).not.toContain("Subscriptions");
      expect(readFileSync(join(TEST_OUT_DIR, revision, "index.ts"), "utf8"), revision).not.toContain("subscriptions.js");
    }
    for (const revision of ["2026-07-28", "draft"]) {
      expect(readFileSync(join(TEST_OUT_DIR, revision, "server.ts"), "utf8"), revision).toContain("export class Subscriptions extends SubscriptionHub");
      expect(readFileSync(join(TEST_OUT_DIR, revision, "index.ts"), "utf8"), revision).toContain('from "../runtime/features/subscriptions.js"');
    }
  });

  it("leaves out a kind whose field the filter lacks (the hub never acknowledges it)", () => {
    const view = viewOf("2026-07-28", (defs) => {
      delete props(defs, "SubscriptionFilter")["promptsListChanged"];
    });
    expect(view?.kinds.map((k) => k.field)).toEqual(["toolsListChanged", "resourcesListChanged", "resourceSubscriptions"]);
  });

  it("refuses a schema that disagrees with the spec's table", () => {
    const refused = (edit: (defs: Record<string, Record<string, unknown>>) => void) => {
      try {
        viewOf("2026-07-28", edit);
      } catch (error) {
        expect(error).toBeInstanceOf(StubgenError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refused((defs) => void (props(defs, "SubscriptionFilter")["resourceSubscriptions"] = { type: "boolean" }))).toBe(
      "subscriptions/listen: expected SubscriptionFilter.resourceSubscriptions to be a list of URIs",
    );
    expect(refused((defs) => void delete (props(defs, "ServerCapabilities")["tools"]!["properties"] as Record<string, unknown>)["listChanged"])).toBe(
      "subscriptions/listen: expected ServerCapabilities.tools.listChanged (SubscriptionFilter.toolsListChanged)",
    );
    expect(refused((defs) => void delete props(defs, "NotificationMetaObject")["io.modelcontextprotocol/subscriptionId"])).toBe(
      'subscriptions/listen: expected NotificationMetaObject to declare "io.modelcontextprotocol/subscriptionId"',
    );
  });
});
