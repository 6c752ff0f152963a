import { beforeAll, describe, expect, it } from "vitest";
import { buildModel, type SchemaModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { catalogView, renderRevision, RUNTIME_FILES, type FileSet } from "../../../generator/emit/render.js";
import { rulesView } from "../../../generator/emit/rules-view.js";
import type { SchemaDocument } from "../../../generator/load/schema-document.js";
import { loadFixture, typecheckInMemory } from "../support.js";

const FIXTURES = ["draft07-lifecycle.json", "2020-12-inline.json", "2020-12-tasks.json"] as const;
const REVISION = "test-rev";
const policy = policyFor(REVISION);

const modelOf = (doc: SchemaDocument): SchemaModel => buildModel(doc, { revision: REVISION, policy });

describe("catalogView", () => {
  const doc = loadFixture("draft07-lifecycle.json");
  const view = catalogView(modelOf(doc), rulesView(doc, modelOf(doc), policy));
  const map = (name: string) => {
    const found = view.maps.find((m) => m.name === name);
    if (!found) throw new Error(`no map ${name}`);
    return found;
  };

  it("has the four direction maps", () => {
    expect(view.maps.map((m) => m.name)).toEqual(["ClientRequestMap", "ServerRequestMap", "ClientNotificationMap", "ServerNotificationMap"]);
  });

  it("puts each method in the maps of the sides that send it", () => {
    expect(map("ClientRequestMap").entries.map((e) => e.method)).toEqual(["initialize", "jobs/run", "jobs/run/more", "ping"]);
    expect(map("ServerRequestMap").entries.map((e) => e.method)).toEqual(["ping"]);
    expect(map("ClientNotificationMap").entries.map((e) => e.method)).toEqual(["notifications/cancelled", "notifications/initialized"]);
    expect(map("ServerNotificationMap").entries.map((e) => e.method)).toEqual(["notifications/cancelled"]);
  });

  it("qualifies types with T. and gives undefined params when there are none", () => {
    const entries = new Map(map("ClientRequestMap").entries.map((e) => [e.method, e]));
    expect(entries.get("jobs/run")).toMatchObject({ params: "T.RunJobParams", paramsRequired: true, result: "T.JobOutcomeResult" });
    expect(entries.get("ping")).toMatchObject({ params: 'NonNullable<T.PingRequest["params"]>', paramsRequired: false, result: "T.EmptyResult" });
    expect(entries.get("jobs/run/more")).toMatchObject({ params: "undefined", result: "T.MoreOutcomeResult" });
    expect(map("ClientNotificationMap").entries.find((e) => e.method === "notifications/initialized")?.result).toBeNull();
  });
});

describe("renderRevision", () => {
  const rendered = new Map<string, { doc: SchemaDocument; files: FileSet }>();

  beforeAll(async () => {
    for (const fixture of FIXTURES) {
      const doc = loadFixture(fixture);
      rendered.set(fixture, { doc, files: await renderRevision(doc, modelOf(doc), policy) });
    }
  });

  it("renders types, catalog, runtime, facades and index", () => {
    const { files } = rendered.get("draft07-lifecycle.json")!;
    expect([...files.keys()].sort()).toEqual(
      ["types.ts", "catalog.ts", "client.ts", "server.ts", "index.ts", ...RUNTIME_FILES.map((f) => `${f}.ts`)].sort(),
    );
  });

  it("starts every file with a header naming the revision and the schema's sha256", () => {
    for (const { doc, files } of rendered.values()) {
      for (const [name, text] of files) {
        const header = text.split("\n").slice(0, 5).join("\n");
        expect(header, name).toContain(REVISION);
        expect(header, name).toContain(doc.sha256);
      }
    }
  });

  it("is deterministic", async () => {
    const doc = loadFixture("2020-12-inline.json");
    const again = await renderRevision(doc, modelOf(doc), policy);
    expect(again).toEqual(rendered.get("2020-12-inline.json")!.files);
  });

  it("gives the facade a typed method per request, with the catalog's params and result", () => {
    const client = rendered.get("2020-12-inline.json")!.files.get("client.ts")!;
    expect(client).toContain('thingsTouch(params: Extract<T.ClientRequest, { method: "things/touch" }>["params"]');
    expect(client).toContain('listThings(params?: NonNullable<T.ListThingsRequest["params"]>');
    const server = rendered.get("2020-12-tasks.json")!.files.get("server.ts")!;
    expect(server).toMatch(/\bsample\(params: T\.SampleParams\b/);
  });

  const compileAll = (names: (name: string) => boolean) => {
    const files: Record<string, string> = {};
    for (const [fixture, { files: set }] of rendered) {
      for (const [name, text] of set) if (names(name)) files[`/out/${fixture.replace(/\.json$/, "")}/${name}`] = text;
    }
    return typecheckInMemory(files);
  };

  it("type-checks types.ts and catalog.ts (with protocol.ts, whose CancellationRules RULES satisfies) with zero diagnostics", () => {
    expect(compileAll((name) => name === "types.ts" || name === "catalog.ts" || name === "protocol.ts")).toEqual([]);
  });

  it("type-checks everything but the Node-only stdio transport (facades and runtime) with zero diagnostics", () => {
    expect(compileAll((name) => name !== "stdio.ts")).toEqual([]);
  });
});
