/**
 * The programmatic entry points build scripts call (generator/generate.ts `generate`, `catalog`,
 * generator/model/revision.ts `modelRevision`, and generator/diff/load.ts `diff`), run in-process on the fixture schemas and
 * on the cached published ones. The CLI tests (test/generator/cli) cover the same rules through a spawned
 * process; these pin what the API returns and writes, and let mutation testing see the code.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diff } from "../../generator/diff/load.js";
import { catalog, checkOutputLabels, generate, selectRevisions } from "../../generator/generate.js";
import { checkExtensions, modelRevision } from "../../generator/model/revision.js";
import { readManifest } from "../../generator/load/schema-source.js";
import { EMPTY_LOCKFILE } from "../../generator/load/lockfile.js";
import type { Pins } from "../../generator/load/pins.js";
import { TEST_CACHE_DIR } from "../helpers/schemas.js";
import { catchStubgenError, fixturePath, rejectionOf } from "./support.js";

const manifest = readManifest();
/** The manifest with no lockfile: the known revisions alone. */
const pins: Pins = { manifest, lock: EMPTY_LOCKFILE, lockfile: false };
const MINI = fixturePath("cli/mini.json");
const NO_UNIONS = fixturePath("cli/no-direction-unions.json");

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "mcp-stubgen-api-"));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("selectRevisions", () => {
  it("--schema alone is one revision labelled custom; with one --revision, that label", () => {
    expect(selectRevisions({ schema: MINI }, pins)).toEqual(["custom"]);
    expect(selectRevisions({ schema: MINI, revisions: ["mine"] }, pins)).toEqual(["mine"]);
  });

  it("--schema refuses --all and more than one label", () => {
    expect(catchStubgenError(() => selectRevisions({ schema: MINI, all: true }, pins)).message).toBe(
      "--all cannot be combined with --schema (one schema is one revision)",
    );
    expect(catchStubgenError(() => selectRevisions({ schema: MINI, revisions: ["a", "b"] }, pins)).message).toBe(
      "--schema takes at most one --revision (the label of that schema)",
    );
    // The same label twice is one label.
    expect(selectRevisions({ schema: MINI, revisions: ["a", "a"] }, pins)).toEqual(["a"]);
  });

  it("--all is every revision of the manifest, in its order; named revisions are kept once each, in the order given", () => {
    expect(selectRevisions({ all: true }, pins)).toEqual(manifest.revisions.map((r) => r.id));
    expect(selectRevisions({ revisions: ["2025-11-25", "2024-11-05", "2025-11-25"] }, pins)).toEqual(["2025-11-25", "2024-11-05"]);
  });

  it("nothing selected, or an unknown revision: an error saying what was expected", () => {
    expect(catchStubgenError(() => selectRevisions({}, pins)).message).toBe("nothing to generate: expected --revision REV (repeatable), --all or --schema");
    expect(catchStubgenError(() => selectRevisions({ revisions: [] }, pins)).message).toContain("nothing to generate");
    expect(catchStubgenError(() => selectRevisions({ revisions: ["2025-11-25", "1999-01-01"] }, pins)).message).toContain('unknown revision "1999-01-01"');
  });
});

describe("selectRevisions with a lockfile", () => {
  const SHA = "a".repeat(64);
  const locked: Pins = {
    manifest,
    lock: { revisions: { "2027-06-01": { source: "local", commit: null, sha256: SHA }, "2027-01-01": { source: "local", commit: null, sha256: SHA } }, extensions: {} },
    lockfile: "/app/mcp-stubgen.lock.json",
  };

  it("--all: the known revisions as before, then those only the lockfile pins, sorted", () => {
    expect(selectRevisions({ all: true }, locked)).toEqual([...manifest.revisions.map((r) => r.id), "2027-01-01", "2027-06-01"]);
  });

  it("a revision the lockfile pins may be named; one neither knows says how to pull it", () => {
    expect(selectRevisions({ revisions: ["2027-01-01", "2025-11-25"] }, locked)).toEqual(["2027-01-01", "2025-11-25"]);
    expect(catchStubgenError(() => selectRevisions({ revisions: ["2028-01-01"] }, locked)).message).toContain(
      "or one pinned in /app/mcp-stubgen.lock.json (2027-01-01, 2027-06-01); to add a new revision, pull it first: mcp-stubgen schema pull 2028-01-01 --from DIR",
    );
  });
});

describe("a revision only the lockfile pins, through the API", () => {
  /** A cache and a lockfile holding MINI as 2027-01-01 and its changed version as 2027-06-01, pinned by pullSchemas. */
  async function lockedProject() {
    const { pullSchemas } = await import("../../generator/load/schema-pull.js");
    const specs = join(tmp, "specs");
    for (const [rev, file] of [["2027-01-01", MINI], ["2027-06-01", fixturePath("pins/mini-changed.json")]] as const) {
      mkdirSync(join(specs, rev), { recursive: true });
      writeFileSync(join(specs, rev, "schema.json"), readFileSync(file));
    }
    const cacheDir = join(tmp, "cache");
    const lockfile = join(tmp, "mcp-stubgen.lock.json");
    await pullSchemas(["2027-01-01", "2027-06-01"], { cacheDir, lockfile, from: specs });
    return { cacheDir, lockfile };
  }

  it("generate, catalog and diff load it from the cache, checked against its pin", async () => {
    const { cacheDir, lockfile } = await lockedProject();
    const out = join(tmp, "out");
    const result = await generate({ revisions: ["2027-01-01"], out, cacheDir, lockfile });
    expect(result.revisions.map((r) => r.revision)).toEqual(["2027-01-01"]);
    expect(readFileSync(join(out, "2027-01-01", "catalog.ts"), "utf8")).toContain('"demo/echo"');
    expect((await catalog({ revision: "2027-06-01", cacheDir, lockfile })).methods.map((m) => m.method)).toContain("demo/shout");
    const d = await diff({ from: "2027-01-01", to: "2027-06-01", cacheDir, lockfile });
    expect(d.methods.added.map((m) => m.method)).toEqual(["demo/shout"]);
    // Without the lockfile it is unknown again.
    expect((await rejectionOf(generate({ revisions: ["2027-01-01"], out, cacheDir, lockfile: false }))).message).toMatch(/^unknown revision "2027-01-01"/);
  });

  it("a cache that no longer matches the pin is refused, naming the lockfile, and the skip-unchanged stamp does not hide it", async () => {
    const { cacheDir, lockfile } = await lockedProject();
    const out = join(tmp, "out");
    await generate({ revisions: ["2027-01-01"], out, cacheDir, lockfile });
    // Re-pin 2027-01-01 to other bytes in the lockfile (as a teammate's commit would): the cache is stale.
    const text = readFileSync(lockfile, "utf8");
    writeFileSync(lockfile, text.replace(/"2027-01-01": \{\n(\s+"commit": null,\n\s+"sha256": ")[0-9a-f]{64}/, `"2027-01-01": {\n$1${"b".repeat(64)}`));
    const e = await rejectionOf(generate({ revisions: ["2027-01-01"], out, cacheDir, lockfile }));
    expect(e.message).toContain(`does not match its sha256 ${"b".repeat(64)} (pinned in ${lockfile})`);
  });
});

describe("checkExtensions and checkOutputLabels", () => {
  it("an extension that extends none of the selected revisions is refused, naming the ones it extends", () => {
    expect(catchStubgenError(() => checkExtensions(["tasks"], ["2025-11-25", "2025-06-18"], manifest)).message).toBe(
      "extension tasks (io.modelcontextprotocol/tasks) extends the revisions 2026-07-28, draft; none of them is selected (2025-11-25, 2025-06-18)",
    );
  });

  it("one selected revision it extends is enough; no extensions is fine", () => {
    expect(() => checkExtensions(["tasks", "tasks"], ["2025-11-25", "2026-07-28"], manifest)).not.toThrow();
    expect(() => checkExtensions([], ["2025-11-25"], manifest)).not.toThrow();
    expect(catchStubgenError(() => checkExtensions(["jobs"], ["2026-07-28"], manifest)).message).toContain('"jobs"');
  });

  it("a revision labelled runtime is refused (its folder is the shared runtime's)", () => {
    expect(catchStubgenError(() => checkOutputLabels(["2025-11-25", "runtime"])).message).toContain('a revision cannot be labelled "runtime"');
    expect(() => checkOutputLabels(["runtimes", "custom"])).not.toThrow();
    // A --schema label is a folder under the output: never a path out of it.
    expect(catchStubgenError(() => checkOutputLabels(["../x"])).message).toBe(
      '--revision "../x": it contains a path separator; expected a revision label of letters, digits, ".", "_" and "-" starting with a letter or digit (at most 64 characters, e.g. 2027-01-01), other than runtime and extensions',
    );
    expect(catchStubgenError(() => checkOutputLabels([".."])).message).toMatch(/^--revision "\.\.": it is a relative folder;/);
  });
});

describe("generate()", () => {
  it("writes <out>/<label>/ and the shared <out>/runtime/, and returns the files it wrote", async () => {
    const out = join(tmp, "out");
    const result = await generate({ schema: MINI, revisions: ["mini"], out });
    expect(result.outDir).toBe(out);
    expect(result.check).toBeUndefined();
    expect(result.revisions.map((r) => [r.revision, r.extensions])).toEqual([["mini", []]]);
    expect(readdirSync(out).sort()).toEqual(["mini", "runtime"]);
    expect([...result.runtime].sort()).toEqual(readdirSync(join(out, "runtime"), { recursive: true }).map(String).filter((f) => f.includes(".")).sort());
    expect(result.runtime).toContain("core/endpoint.ts");
    expect([...result.revisions[0]!.files].sort()).toEqual(readdirSync(join(out, "mini"), { recursive: true }).map(String).filter((f) => f.includes(".")).sort());
    // The revision imports the shared runtime.
    expect(readFileSync(join(out, "mini", "index.ts"), "utf8")).toContain('"../runtime/');
  });

  it("check: reports stale, missing and extra files and writes nothing", async () => {
    const out = join(tmp, "out");
    await generate({ schema: MINI, revisions: ["mini"], out });
    const clean = await generate({ schema: MINI, revisions: ["mini"], out, check: true });
    expect(clean.check).toEqual({ stale: [], missing: [], extra: [] });

    writeFileSync(join(out, "mini", "types.ts"), "// edited\n");
    rmSync(join(out, "runtime", "core", "endpoint.ts"));
    writeFileSync(join(out, "mini", "leftover.ts"), "");
    const report = await generate({ schema: MINI, revisions: ["mini"], out, check: true });
    expect(report.check).toEqual({ stale: ["mini/types.ts"], missing: ["runtime/core/endpoint.ts"], extra: ["mini/leftover.ts"] });
    expect(readFileSync(join(out, "mini", "types.ts"), "utf8")).toBe("// edited\n");
    expect(existsSync(join(out, "runtime", "core", "endpoint.ts"))).toBe(false);
  });

  it("a schema without direction unions is refused unless it is a fragment; nothing is written", async () => {
    const out = join(tmp, "out");
    const e = await rejectionOf(generate({ schema: NO_UNIONS, out }));
    expect(e.message).toContain("--fragment");
    expect(existsSync(out)).toBe(false);
    const result = await generate({ schema: NO_UNIONS, out, fragment: true });
    expect(result.revisions.map((r) => r.revision)).toEqual(["custom"]);
    expect(existsSync(join(out, "custom", "types.ts"))).toBe(true);
  });

  it("inline runtime: each revision holds its copy; a shared runtime no other revision imports is removed", async () => {
    const out = join(tmp, "out");
    await generate({ schema: MINI, revisions: ["mini"], out });
    const result = await generate({ schema: MINI, revisions: ["mini"], out, runtime: "inline" });
    expect(result.runtime).toEqual([]);
    expect(readdirSync(out)).toEqual(["mini"]);
    expect(readdirSync(join(out, "mini"), { recursive: true }).map(String)).toEqual(expect.arrayContaining([join("core", "endpoint.ts"), "types.ts"]));
    expect(readFileSync(join(out, "mini", "index.ts"), "utf8")).not.toContain("../runtime/");
  });

  it("inline runtime: a shared runtime that another revision folder still imports is kept", async () => {
    const out = join(tmp, "out");
    await generate({ schema: MINI, revisions: ["other"], out });
    await generate({ schema: MINI, revisions: ["mini"], out, runtime: "inline" });
    expect(readdirSync(out).sort()).toEqual(["mini", "other", "runtime"]);
  });

  it("inline runtime: folders that do not import the shared runtime (inline revisions, hidden folders, files) do not keep it", async () => {
    const out = join(tmp, "out");
    await generate({ schema: MINI, revisions: ["mini"], out });
    await generate({ schema: MINI, revisions: ["other"], out, runtime: "inline" });
    mkdirSync(join(out, ".cache"));
    writeFileSync(join(out, ".cache", "x.ts"), 'import "../runtime/core/endpoint.js";\n');
    writeFileSync(join(out, "notes.ts"), 'import "../runtime/core/endpoint.js";\n');
    expect(readdirSync(out).sort()).toEqual([".cache", "mini", "notes.ts", "other", "runtime"]);
    await generate({ schema: MINI, revisions: ["mini"], out, runtime: "inline" });
    expect(readdirSync(out).sort()).toEqual([".cache", "mini", "notes.ts", "other"]);
  });

  it("importExtension .ts rewrites the imports of the revision and of the runtime", async () => {
    const out = join(tmp, "out");
    await generate({ schema: MINI, revisions: ["mini"], out, importExtension: ".ts" });
    const index = readFileSync(join(out, "mini", "index.ts"), "utf8");
    expect(index).toMatch(/from "\.\.\/runtime\/core\/[a-z-]+\.ts"/);
    expect(index).not.toMatch(/from "[^"]+\.js"/);
    const endpoint = readFileSync(join(out, "runtime", "core", "endpoint.ts"), "utf8");
    expect(endpoint).toMatch(/from "\.\/[a-z-]+\.ts"/);
    expect(endpoint).not.toMatch(/from "[^"]+\.js"/);
    // Between the runtime's folders too.
    expect(readFileSync(join(out, "runtime", "http", "http-client.ts"), "utf8")).toMatch(/from "\.\.\/core\/protocol\.ts"/);
  });

  it("strictObjects reaches the emitted types; result overrides reach the model", async () => {
    // A …Result that repeats Result's properties inherits its index signature, unless strictObjects.
    const meta = { type: "object", additionalProperties: {} };
    const schema = join(tmp, "open.json");
    writeFileSync(schema, JSON.stringify({ $defs: {
      Result: { type: "object", additionalProperties: {}, properties: { _meta: meta } },
      ListThingsResult: { type: "object", properties: { _meta: meta, things: { type: "array", items: { type: "string" } } }, required: ["things"] },
    } }));
    const listThings = (dir: string) => /export interface ListThingsResult \{[\s\S]*?\n\}/.exec(readFileSync(join(dir, "a", "types.ts"), "utf8"))?.[0];
    await generate({ schema, revisions: ["a"], out: join(tmp, "plain"), fragment: true });
    await generate({ schema, revisions: ["a"], out: join(tmp, "strict"), fragment: true, strictObjects: true });
    expect(listThings(join(tmp, "plain"))).toMatch(/^  \[k: string\]: unknown$/m);
    expect(listThings(join(tmp, "strict"))).toMatch(/things: string\[\]/);
    expect(listThings(join(tmp, "strict"))).not.toMatch(/^  \[k: string\]: unknown$/m);
    const overridden = await catalog({ schema: MINI, resultOverrides: { "demo/echo": "EmptyResult" } });
    expect(overridden.methods.find((m) => m.method === "demo/echo")?.result).toBe("EmptyResult");
  });
});

describe("catalog()", () => {
  it("the catalog of one revision: --revision picks it, --schema loads a file", async () => {
    const mini = await catalog({ schema: MINI });
    expect(mini.revision).toBe("custom");
    expect(mini.methods.map((m) => m.method)).toContain("demo/echo");
    const published = await catalog({ revision: "2025-11-25", cacheDir: TEST_CACHE_DIR });
    expect(published.revision).toBe("2025-11-25");
    expect(published.methods.map((m) => m.method)).toContain("tools/call");
  });

  it("refuses a schema without direction unions unless it is a fragment, and an extension of no selected revision", async () => {
    expect((await rejectionOf(catalog({ schema: NO_UNIONS }))).message).toContain("--fragment");
    expect((await catalog({ schema: NO_UNIONS, fragment: true })).methods).toEqual([]);
    expect((await rejectionOf(catalog({ revision: "2025-11-25", extensions: ["tasks"], cacheDir: TEST_CACHE_DIR }))).message).toContain("none of them is selected");
  });

  it("with an extension: its methods join the catalog", async () => {
    const merged = await catalog({ revision: "2026-07-28", extensions: ["tasks"], cacheDir: TEST_CACHE_DIR });
    expect(merged.methods.filter((m) => m.method.startsWith("tasks/")).map((m) => m.method)).toEqual(["tasks/cancel", "tasks/get", "tasks/update"]);
    expect(merged.extensions).toEqual([{ id: "tasks", sha256: manifest.extensions?.find((e) => e.id === "tasks")?.sha256 }]);
    expect(merged.methods.find((m) => m.method === "tasks/get")?.extension).toBe("tasks");
    expect(merged.methods.find((m) => m.method === "tools/call")).not.toHaveProperty("extension");
    expect(await catalog({ revision: "2026-07-28", cacheDir: TEST_CACHE_DIR })).not.toHaveProperty("extensions");
  });
});

describe("modelRevision()", () => {
  it("merges an extension only into the revisions it extends", async () => {
    const older = await modelRevision("2025-06-18", { cacheDir: TEST_CACHE_DIR, extensions: ["tasks"] });
    expect(older.model.extensions ?? []).toEqual([]);
    expect(older.model.methods.some((m) => m.method === "tasks/get")).toBe(false);
    const current = await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR, extensions: ["tasks", "tasks"] });
    expect(current.model.extensions?.map((e) => [e.id, e.methods])).toEqual([["tasks", ["notifications/tasks", "tasks/cancel", "tasks/get", "tasks/update"]]]);
    expect(current.doc.defs.has("CreateTaskResult")).toBe(true);
  });
});

describe("diff()", () => {
  const before = fixturePath("diff/params-appear/before.json");
  const after = fixturePath("diff/params-appear/after.json");

  it("compares two schemas given by path, each labelled with its path unless a label is given", async () => {
    const byPath = await diff({ fromSchema: before, toSchema: after });
    expect([byPath.from, byPath.to]).toEqual([before, after]);
    expect(byPath.summary.breaking).toBeGreaterThan(0);
    const labelled = await diff({ from: "old", fromSchema: before, to: "new", toSchema: after });
    expect([labelled.from, labelled.to]).toEqual(["old", "new"]);
    expect(labelled.methods).toEqual(byPath.methods);
  });

  it("a side with neither a revision nor a schema: an error naming the option", async () => {
    expect((await rejectionOf(diff({ toSchema: after }))).message).toBe("diff needs --from REV (or --from-schema PATH_OR_URL)");
    expect((await rejectionOf(diff({ fromSchema: before }))).message).toBe("diff needs --to REV (or --to-schema PATH_OR_URL)");
  });

  it("extensions per side: the side is named with them, and their methods are added", async () => {
    const result = await diff({ from: "2026-07-28", to: "2026-07-28", toExtensions: ["tasks"], cacheDir: TEST_CACHE_DIR });
    expect([result.from, result.to]).toEqual(["2026-07-28", "2026-07-28+tasks"]);
    expect(result.methods.added.map((m) => m.method).sort()).toEqual(["notifications/tasks", "tasks/cancel", "tasks/get", "tasks/update"]);
    expect(result.methods.removed).toEqual([]);
    expect((await rejectionOf(diff({ from: "2025-11-25", to: "2026-07-28", fromExtensions: ["tasks"], cacheDir: TEST_CACHE_DIR }))).message).toContain("none of them is selected (2025-11-25)");
  });
});
