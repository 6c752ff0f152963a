/**
 * REGISTRY of the generated server.ts (generator/emit/registry-view.ts) for every published
 * revision: the methods and notifications the registrations serve, and the facts of the spec's
 * prose by revision (invalid tool arguments, structured content, the resource-not-found code,
 * resultType and caching fields, how list changes go out); and a schema without the definitions
 * the registerX types name serves nothing of that kind.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSchemaDocument } from "../../../generator/load/schema-document.js";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { registryFacts } from "../../../generator/model/registry-facts.js";
import { registryView } from "../../../generator/emit/registry-view.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { REGISTRY as R2024 } from "../../generated/2024-11-05/server.js";
import { REGISTRY as R2025 } from "../../generated/2025-11-25/server.js";
import { REGISTRY as R2026 } from "../../generated/2026-07-28/server.js";

function view(revision: string, listen: boolean) {
  const file = join(TEST_CACHE_DIR, revision, "schema.json");
  const doc = readSchemaDocument(readFileSync(file, "utf8"), file);
  const policy = policyFor(revision);
  return registryView({ ...buildModel(doc, { revision, policy }), policy, registry: registryFacts(doc) }, listen);
}

describe("REGISTRY by revision", () => {
  it("2024-11-05: -32602 for invalid arguments, no structured content, no completions capability, notifications", () => {
    expect(R2024).toMatchObject({ invalidArguments: "invalid-params", resourceNotFound: -32002, structuredContent: false, completionsCapability: false, announce: "notify" });
    expect(R2024.methods).toContain("resources/subscribe");
    expect(R2024.notifications).toEqual(["notifications/tools/list_changed", "notifications/prompts/list_changed", "notifications/resources/list_changed", "notifications/resources/updated"]);
  });

  it("2025-06-18 has structured content and still -32602; 2025-11-25 answers invalid arguments with a tool error (SEP-1303)", () => {
    expect(view("2025-06-18", false)).toMatchObject({ invalidArguments: "invalid-params", structuredContent: true, completionsCapability: true });
    expect(R2025).toMatchObject({ invalidArguments: "tool-error", resourceNotFound: -32002, structuredContent: true, announce: "notify" });
    expect(R2025.methods).toEqual([
      "tools/list",
      "tools/call",
      "prompts/list",
      "prompts/get",
      "resources/list",
      "resources/templates/list",
      "resources/read",
      "resources/subscribe",
      "resources/unsubscribe",
      "completion/complete",
    ]);
  });

  it("2026-07-28: -32602 for a missing resource, resultType and caching fields, listen streams, no resources/subscribe", () => {
    expect(R2026).toMatchObject({ invalidArguments: "tool-error", resourceNotFound: -32602, announce: "publish" });
    expect(R2026.methods).not.toContain("resources/subscribe");
  });

  it("serves no kind whose definitions the schema lacks", () => {
    const file = join(TEST_CACHE_DIR, "2025-11-25", "schema.json");
    const doc = readSchemaDocument(readFileSync(file, "utf8"), file);
    const policy = policyFor("2025-11-25");
    const model = buildModel(doc, { revision: "2025-11-25", policy });
    const registry = registryView({ ...model, policy, registry: registryFacts(doc), definitions: model.definitions.filter((name) => name !== "Tool") }, false);
    expect(registry.tools).toBe(false);
    expect(registry.methods).not.toContain("tools/call");
    expect(registry.prompts).toBe(true);
  });
});
