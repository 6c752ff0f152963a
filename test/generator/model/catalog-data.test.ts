import { describe, expect, it } from "vitest";
import { catalogJson } from "../../../generator/model/catalog-data.js";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { loadFixture } from "../support.js";

const catalogOf = (fixture: string, revision = "2025-11-25") =>
  catalogJson(buildModel(loadFixture(fixture), { revision, policy: policyFor(revision) }));

const KEYS = ["method", "kind", "from", "params", "result", "cancellable", "taskAugmentable"];

describe("catalogJson", () => {
  for (const fixture of ["draft07-lifecycle.json", "2020-12-inline.json", "2020-12-tasks.json"]) {
    describe(fixture, () => {
      const catalog = catalogOf(fixture);

      it("has exactly the documented keys in every entry, in order", () => {
        expect(catalog.methods.length).toBeGreaterThan(0);
        for (const entry of catalog.methods) expect(Object.keys(entry)).toEqual(KEYS);
        expect(Object.keys(catalog)).toEqual(["revision", "methods"]);
      });

      it("is sorted by method", () => {
        const methods = catalog.methods.map((m) => m.method);
        expect(methods).toEqual([...methods].sort());
      });

      it("survives a JSON round trip unchanged (no undefined values)", () => {
        expect(JSON.parse(JSON.stringify(catalog))).toEqual(catalog);
      });
    });
  }

  it("carries the revision", () => {
    expect(catalogOf("draft07-lifecycle.json", "2026-07-28").revision).toBe("2026-07-28");
  });

  it("gives params as TypeScript type text without a namespace, and null when absent", () => {
    const byMethod = new Map(catalogOf("draft07-lifecycle.json").methods.map((m) => [m.method, m]));
    expect(byMethod.get("jobs/run")?.params).toBe("RunJobParams");
    expect(byMethod.get("ping")?.params).toBe('NonNullable<PingRequest["params"]>');
    expect(byMethod.get("initialize")?.params).toBe('InitializeRequest["params"]');
    expect(byMethod.get("notifications/initialized")?.params).toBeNull();
  });

  it("gives results for requests and null for notifications", () => {
    for (const entry of catalogOf("draft07-lifecycle.json").methods) {
      if (entry.kind === "request") expect(entry.result, entry.method).toEqual(expect.any(String));
      else expect(entry.result, entry.method).toBeNull();
    }
  });

  it("lists the whole lifecycle catalog", () => {
    expect(catalogOf("draft07-lifecycle.json").methods.map((m) => [m.method, m.kind, m.from.join("+"), m.cancellable])).toEqual([
      ["initialize", "request", "client", false],
      ["jobs/run", "request", "client", true],
      ["jobs/run/more", "request", "client", true],
      ["notifications/cancelled", "notification", "client+server", false],
      ["notifications/initialized", "notification", "client", false],
      ["ping", "request", "client+server", true],
    ]);
  });

  it("flags task-augmentable requests", () => {
    const augmentable = catalogOf("2020-12-tasks.json").methods.filter((m) => m.taskAugmentable).map((m) => m.method);
    expect(augmentable).toEqual(["elicit", "sampling/create", "tools/call"]);
  });
});
