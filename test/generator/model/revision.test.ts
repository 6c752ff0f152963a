/**
 * generator/model/revision.ts: `modelRevision` (load, merge the extensions, build the catalog)
 * and `finishModel`, which adds everything else the emitters take from the schema, so that
 * emit reads a finished model and no schema document.
 */
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { httpBinding } from "../../../generator/model/http-binding.js";
import { inputRequestsModel } from "../../../generator/model/input-requests.js";
import { lifecycleModel } from "../../../generator/model/lifecycle.js";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { finishModel, modelRevision, type LoadedRevision, type RevisionModel } from "../../../generator/model/revision.js";
import { revisionRules } from "../../../generator/model/rules.js";
import { subscriptionTable } from "../../../generator/model/subscriptions.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { catchStubgenError, docFrom, loadFixture, request } from "../support.js";

const CATALOG_KEYS = ["revision", "dialect", "sha256", "definitions", "methods"];

describe("finishModel, 2026-07-28", () => {
  let loaded: LoadedRevision;
  let model: RevisionModel;
  setUpPerTest(async () => {
    loaded = await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR });
    model = finishModel(loaded);
  });

  it("keeps the catalog as modelRevision built it, and adds the revision's policy", () => {
    for (const key of CATALOG_KEYS) expect(model[key as keyof RevisionModel], key).toBe(loaded.model[key as keyof typeof loaded.model]);
    expect(model.policy).toBe(loaded.policy);
    expect(model.policy).toEqual(policyFor("2026-07-28"));
  });

  it("holds what each model step reads from the schema", () => {
    const { doc, model: catalog, policy } = loaded;
    expect(model.rules).toEqual(revisionRules(doc, catalog, policy));
    expect(model.lifecycle).toEqual(lifecycleModel(doc, catalog));
    expect(model.lifecycle?.kind).toBe("discover");
    expect(model.http).toEqual(httpBinding(doc, catalog, policy));
    expect(model.http).not.toBeNull();
    expect(model.subscriptions).toEqual(subscriptionTable(doc, catalog));
    expect(model.subscriptions?.listen).toBe("subscriptions/listen");
    const clientRequests = catalog.methods.filter((m) => m.kind === "request" && m.from.includes("client"));
    expect(model.inputRequests).toEqual(inputRequestsModel(doc, clientRequests));
    expect(model.inputRequests?.methods).toEqual(["prompts/get", "resources/read", "tools/call"]);
  });

  it("carries the definitions for the type emitter, not the document (no root, file or bytes)", () => {
    expect(Object.keys(model.typeSource).sort()).toEqual(["defs", "defsKey"]);
    expect(model.typeSource.defs).toBe(loaded.doc.defs);
    expect(model.typeSource.defsKey).toBe("$defs");
  });

  it("is pure: the same loaded revision gives an equal model", () => {
    expect(finishModel(loaded)).toEqual(model);
  });
});

describe("finishModel, other revisions", () => {
  it("2025-11-25: the initialize handler; no HTTP binding, no subscriptions, no MRTR inputs", async () => {
    const model = finishModel(await modelRevision("2025-11-25", { cacheDir: TEST_CACHE_DIR }));
    expect(model.lifecycle).toMatchObject({ kind: "initialize", method: "initialize", result: "InitializeResult" });
    expect(model.http).toBeNull();
    expect(model.subscriptions).toBeNull();
    expect(model.inputRequests).toBeNull();
    expect(model.rules.requestMeta).toBeNull();
  });

  it("2026-07-28 with the Tasks extension: the extension's sources reach the type emitter; its requests are no MRTR retries", async () => {
    const loaded = await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR, extensions: ["tasks"] });
    const model = finishModel(loaded);
    expect(model.typeSource.extensions).toBe(loaded.doc.extensions);
    expect(model.typeSource.extensions?.map((ext) => ext.id)).toEqual(["tasks"]);
    expect(model.extensions?.map((ext) => ext.id)).toEqual(["tasks"]);
    // tasks/update carries inputResponses (a task's input_required status), but is the extension's.
    expect(model.methods.some((m) => m.method === "tasks/update")).toBe(true);
    expect(model.inputRequests?.methods).toEqual(["prompts/get", "resources/read", "tools/call"]);
    expect(model.http?.nameSources.map((s) => s.method)).toContain("tasks/get");
  });

  it("a fixture without the stateless policy: rules copied from the default policy, no lifecycle result type it cannot fill", () => {
    const doc = loadFixture("draft07-lifecycle.json");
    const policy = policyFor("test-rev");
    const model = finishModel({ doc, model: buildModel(doc, { revision: "test-rev", policy }), policy });
    expect(model.rules).toEqual({
      cancellers: ["client", "server"],
      endableByReceiver: [],
      longLived: [],
      cancelByClosingStream: false,
      defaultTimeoutMs: null,
      defaultMaxTotalTimeoutMs: null,
      requestMeta: null,
    });
    expect(model.typeSource.defsKey).toBe("definitions");
    expect(model.subscriptions).toBeNull();
    expect(model.inputRequests).toBeNull();
  });
});

describe("finishModel checks the schema against the tables, in a fixed order", () => {
  const STATELESS = policyFor("2026-07-28");
  const finish = (defs: Record<string, unknown>) => () => {
    const doc = docFrom(defs, { file: "rev.json" });
    return finishModel({ doc, model: buildModel(doc, { revision: "test", policy: STATELESS }), policy: STATELESS });
  };
  const listen = {
    ListenRequest: request("subscriptions/listen"),
    ListenResult: { type: "object" },
    ClientRequest: { anyOf: [{ $ref: "#/$defs/ListenRequest" }] },
  };

  it("subscriptions/listen first: a listen request without its acknowledgment fails there, before the rules' _meta check", () => {
    const error = catchStubgenError(finish(listen));
    expect(error.message).toContain("subscriptions/listen: expected the server notification notifications/subscriptions/acknowledged");
    expect(error.location.file).toBe("rev.json");
  });

  it("then the rules: a policy naming a request the schema lacks", () => {
    const error = catchStubgenError(
      finish({ PingRequest: request("ping"), PingResult: { type: "object" }, ClientRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }] } }),
    );
    expect(error.message).toBe("the test policy names subscriptions/listen in endableByReceiver, but the schema has no such request");
  });
});

describe("modelRevision", () => {
  it("returns the document, the catalog and the policy of the revision", async () => {
    const loaded = await modelRevision("2025-06-18", { cacheDir: TEST_CACHE_DIR });
    expect(Object.keys(loaded).sort()).toEqual(["basis", "doc", "model", "policy"]);
    expect(loaded.model.revision).toBe("2025-06-18");
    expect(loaded.model.sha256).toBe(loaded.doc.sha256);
    expect(loaded.policy).toEqual(policyFor("2025-06-18"));
    expect(loaded.basis).toEqual({ revision: "2025-06-18", inherited: false });
  });
});
