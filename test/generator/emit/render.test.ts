import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { buildModel } from "../../../generator/model/model.js";
import { policyFor } from "../../../generator/model/policy.js";
import { finishModel, type RevisionModel } from "../../../generator/model/revision.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../../../generator/project.js";
import { catalogView, REEXPORTED_RUNTIME_FILES, renderRevision, renderRuntime, runtimeHeader, RUNTIME_FILES, type FileSet } from "../../../generator/emit/render.js";
import type { SchemaDocument } from "../../../generator/load/schema-document.js";
import { loadFixture, typecheckInMemory } from "../support.js";

const PACKAGE_VERSION = (JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string }).version;

const FIXTURES = ["draft07-lifecycle.json", "2020-12-inline.json", "2020-12-tasks.json", "result-responses.json"] as const;
const REVISION = "test-rev";
const policy = policyFor(REVISION);

const modelOf = (doc: SchemaDocument): RevisionModel => finishModel({ doc, model: buildModel(doc, { revision: REVISION, policy }), policy });

describe("catalogView", () => {
  const doc = loadFixture("draft07-lifecycle.json");
  // In setUpPerTest, not in the describe body, so mutation testing sees it (test/helpers/per-test.ts).
  let view: ReturnType<typeof catalogView>;
  setUpPerTest(() => {
    view = catalogView(modelOf(doc));
  });
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

describe("renderRevision (runtime inline)", () => {
  const rendered = new Map<string, { doc: SchemaDocument; files: FileSet }>();

  setUpPerTest(async () => {
    for (const fixture of FIXTURES) {
      const doc = loadFixture(fixture);
      rendered.set(fixture, { doc, files: await renderRevision(modelOf(doc), { layout: "inline" }) });
    }
  });

  it("renders types, catalog, runtime, facades and index", () => {
    const { files } = rendered.get("draft07-lifecycle.json")!;
    expect([...files.keys()].sort()).toEqual(
      ["types.ts", "catalog.ts", "validators.ts", "client.ts", "server.ts", "index.ts", ...RUNTIME_FILES.map((f) => `${f}.ts`)].sort(),
    );
  });

  it("starts every file of the revision with a header naming the revision and the schema's sha256, and every runtime file with the runtime's header", () => {
    const runtime = new Set(RUNTIME_FILES.map((f) => `${f}.ts`));
    for (const { doc, files } of rendered.values()) {
      for (const [name, text] of files) {
        const header = text.split("\n").slice(0, 5).join("\n");
        if (runtime.has(name)) {
          expect(header, name).toContain("the revision-independent runtime");
          expect(text, name).toBe(renderRuntime().get(name));
        } else {
          expect(header, name).toContain(REVISION);
          expect(header, name).toContain(doc.sha256);
        }
      }
    }
  });

  it("is deterministic", async () => {
    const doc = loadFixture("2020-12-inline.json");
    const again = await renderRevision(modelOf(doc), { layout: "inline" });
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
    expect(compileAll((name) => name === "types.ts" || name === "catalog.ts" || name === "core/protocol.ts" || name === "core/json.ts")).toEqual([]);
  });

  it("type-checks everything but the Node-only stdio transports (facades and runtime) with zero diagnostics", () => {
    expect(compileAll((name) => name !== "transports/stdio.ts" && name !== "transports/stdio-spawn.ts")).toEqual([]);
  });
});

describe("renderRuntime", () => {
  it("is each source of templates/runtime/ as it is, after a header naming the generator version and the source, without revision or date", () => {
    const files = renderRuntime();
    expect([...files.keys()]).toEqual(RUNTIME_FILES.map((f) => `${f}.ts`));
    for (const name of RUNTIME_FILES) {
      const source = readFileSync(join(PACKAGE_ROOT, "templates", "runtime", `${name}.ts`), "utf8");
      const header = runtimeHeader("0.1.0", `templates/runtime/${name}.ts`);
      expect(header).toBe(
        [
          "// Generated by mcp-stubgen 0.1.0: the revision-independent runtime.",
          `// Source: templates/runtime/${name}.ts of the mcp-stubgen package.`,
          "// Do not edit: regenerate it with mcp-stubgen.",
          "//",
          "",
        ].join("\n"),
      );
      expect(files.get(`${name}.ts`)).toBe(runtimeHeader(PACKAGE_VERSION, `templates/runtime/${name}.ts`) + source);
      // The sources are plain TypeScript: no template syntax left in them.
      expect(source, name).not.toContain("{{");
    }
  });
});

describe("renderRevision (runtime shared)", () => {
  const rendered = new Map<string, FileSet>();

  setUpPerTest(async () => {
    for (const fixture of FIXTURES) {
      const doc = loadFixture(fixture);
      rendered.set(fixture, await renderRevision(modelOf(doc), { layout: "shared" }));
    }
  });

  it("renders types, catalog, facades, index and a re-export of each runtime module imported by path, and no runtime copy", () => {
    const files = rendered.get("draft07-lifecycle.json")!;
    expect([...files.keys()].sort()).toEqual(
      ["types.ts", "catalog.ts", "validators.ts", "client.ts", "server.ts", "index.ts", ...REEXPORTED_RUNTIME_FILES.map((f) => `${f.slice(f.lastIndexOf("/") + 1)}.ts`)].sort(),
    );
    expect(files.get("stdio.ts")!.split("\n").filter((line) => line !== "" && !line.startsWith("//"))).toEqual([
      'export * from "../runtime/transports/stdio.js";',
    ]);
    expect(files.get("stdio-spawn.ts")!.split("\n").filter((line) => line !== "" && !line.startsWith("//"))).toEqual([
      'export * from "../runtime/transports/stdio-spawn.js";',
    ]);
  });

  it("imports the runtime from ../runtime/ and differs from the inline rendering in those specifiers only", async () => {
    const doc = loadFixture("2020-12-tasks.json");
    const inline = await renderRevision(modelOf(doc), { layout: "inline" });
    for (const [name, text] of rendered.get("2020-12-tasks.json")!) {
      if (REEXPORTED_RUNTIME_FILES.some((f) => f.endsWith(`/${name.replace(/\.ts$/, "")}`))) continue;
      expect(text.replaceAll('"../runtime/', '"./'), name).toBe(inline.get(name));
    }
  });

  it("type-checks with the shared runtime beside it, with zero diagnostics", () => {
    const files: Record<string, string> = {};
    for (const [name, text] of renderRuntime()) if (name !== "transports/stdio.ts" && name !== "transports/stdio-spawn.ts") files[`/out/runtime/${name}`] = text;
    for (const [fixture, set] of rendered) {
      for (const [name, text] of set) if (name !== "stdio.ts" && name !== "stdio-spawn.ts") files[`/out/${fixture.replace(/\.json$/, "")}/${name}`] = text;
    }
    expect(typecheckInMemory(files)).toEqual([]);
  });
});
