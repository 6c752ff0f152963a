/**
 * `mcp-stubgen generate`: what it writes, that it is deterministic, the header of every file,
 * `--all`, and `--check` (which must never write).
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  fileList,
  lines,
  manifestSha256,
  PACKAGE_VERSION,
  REVISIONS,
  runCli,
  snapshot,
  stagingLeftovers,
  tempDirs,
  TEST_CACHE_DIR,
  wroteLines,
} from "./support.js";
import { PACKAGE_ROOT } from "../../../generator/project.js";

const tmp = tempDirs();
const REV = "2025-11-25";

/** Today's date in the forms a header timestamp would most likely use. */
function todayForms(): string[] {
  const now = new Date();
  const iso = now.toISOString().slice(0, 10);
  const local = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  return [...new Set([iso, local, now.toDateString(), now.toLocaleDateString("en-US"), now.toUTCString().slice(0, 16)])];
}

describe(`generate --revision ${REV}`, () => {
  let cwd: string;
  let out: string;
  let first: Record<string, string>;
  let firstStdout: string;

  const readAll = (dir: string): Record<string, string> =>
    Object.fromEntries(fileList(dir).map((rel) => [rel, readFileSync(join(dir, rel), "utf8")]));

  beforeAll(async () => {
    cwd = tmp();
    out = join(cwd, "OUT");
    const r = await runCli(["generate", "--revision", REV, "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    firstStdout = r.stdout;
    first = readAll(out);
  });

  it(`writes OUT/${REV}/ with types.ts, catalog.ts and index.ts, and the shared OUT/runtime/, and says so on stdout`, () => {
    const files = Object.keys(first);
    for (const name of ["types.ts", "catalog.ts", "index.ts"]) expect(files).toContain(`${REV}/${name}`);
    for (const name of ["core/protocol.ts", "core/outgoing.ts", "transports/stdio.ts"]) expect(files).toContain(`runtime/${name}`);
    expect(files.every((f) => f.startsWith(`${REV}/`) || f.startsWith("runtime/"))).toBe(true);
    // stdout reports exactly the files that are on disk
    const wrote = wroteLines(firstStdout);
    expect([...wrote.keys()]).toEqual(["OUT/runtime", `OUT/${REV}`]);
    expect(wrote.get(`OUT/${REV}`)).toEqual(files.filter((f) => f.startsWith(`${REV}/`)).map((f) => f.slice(REV.length + 1)).sort());
    expect(wrote.get("OUT/runtime")).toEqual(files.filter((f) => f.startsWith("runtime/")).map((f) => f.slice("runtime/".length)).sort());
    expect(lines(firstStdout)).toHaveLength(2);
    expect(stagingLeftovers(cwd)).toEqual([]);
    expect(stagingLeftovers(out)).toEqual([]);
  });

  it("every file's header names the generator version, the revision and the schema sha256, and no date", () => {
    const sha = manifestSha256(REV);
    expect(createHash("sha256").update(readFileSync(join(TEST_CACHE_DIR, REV, "schema.json"))).digest("hex")).toBe(sha);
    const today = todayForms();
    for (const [path, text] of Object.entries(first)) {
      const header = lines(text).slice(0, 3).join("\n");
      expect(header, path).toContain(`mcp-stubgen ${PACKAGE_VERSION}`);
      if (path.startsWith("runtime/")) {
        // the shared runtime: no revision, its source named instead
        expect(header, path).toContain("the revision-independent runtime");
        expect(header, path).toContain(`templates/${path}`);
      } else {
        expect(header, path).toContain(`revision ${REV}`);
        expect(header, path).toContain(sha);
      }
      expect(header, path).toMatch(/^\/\/ /);
      // no timestamp in the header, and today's date nowhere in the file
      expect(header, path).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
      expect(header, path).not.toMatch(/\b\d{1,2}:\d{2}(:\d{2})?\b/);
      for (const form of today) {
        if (form !== REV) expect(text, `${path} contains today's date ${form}`).not.toContain(form);
      }
    }
  });

  it("a second run over the same folder gives byte-identical files", async () => {
    // Unchanged inputs: the run is skipped (write/stamp.ts) and says so; --force regenerates and reports what it wrote.
    const skipped = await runCli(["generate", "--revision", REV, "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stdout).toBe(`up to date: OUT/runtime/, OUT/${REV}/ (schema, options and generator unchanged; nothing written; --force to generate anyway)\n`);
    const r = await runCli(["generate", "--revision", REV, "--out", "OUT", "--cache", TEST_CACHE_DIR, "--force"], cwd);
    expect(r.code, r.stderr).toBe(0);
    // the files were already as generated: each folder is reported unchanged, not "wrote"
    expect(lines(r.stdout).map((l) => l.replace(/ \(.*\)$/, ""))).toEqual(lines(firstStdout).map((l) => l.replace(/^wrote /, "unchanged: ").replace(/ \(.*\)$/, "")));
    const second = readAll(out);
    expect(Object.keys(second)).toEqual(Object.keys(first));
    for (const [path, text] of Object.entries(first)) expect(second[path], path).toBe(text);
    expect(stagingLeftovers(cwd)).toEqual([]);
  });

  describe("--check", () => {
    const check = () => runCli(["generate", "--revision", REV, "--out", "OUT", "--check", "--cache", TEST_CACHE_DIR], cwd);

    it("after a generate: exit 0, 'up to date', and nothing written", async () => {
      const before = snapshot(cwd);
      const r = await check();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe("");
      expect(r.stdout).toBe("up to date\n");
      expect(snapshot(cwd)).toEqual(before);
    });

    it("after editing a generated file: exit 1 and that file listed as stale; nothing written", async () => {
      const edited = join(out, REV, "catalog.ts");
      writeFileSync(edited, `${first[`${REV}/catalog.ts`]}// a local edit\n`);
      const before = snapshot(cwd);
      const r = await check();
      expect(r.code).toBe(1);
      expect(r.stderr).toBe("");
      expect(lines(r.stdout)).toEqual([`stale: OUT/${REV}/catalog.ts`, "1 file(s) out of date: run mcp-stubgen generate"]);
      expect(snapshot(cwd)).toEqual(before);
      expect(readFileSync(edited, "utf8")).toContain("// a local edit");
      writeFileSync(edited, first[`${REV}/catalog.ts`]!);
    });

    it("after deleting a generated file: exit 1 and that file listed as missing; nothing written", async () => {
      rmSync(join(out, REV, "index.ts"));
      const before = snapshot(cwd);
      const r = await check();
      expect(r.code).toBe(1);
      expect(r.stderr).toBe("");
      expect(lines(r.stdout)).toEqual([`missing: OUT/${REV}/index.ts`, "1 file(s) out of date: run mcp-stubgen generate"]);
      expect(snapshot(cwd)).toEqual(before);
      expect(stagingLeftovers(cwd)).toEqual([]);
      writeFileSync(join(out, REV, "index.ts"), first[`${REV}/index.ts`]!);
    });

    it("after an edit that keeps the length (one character replaced): exit 1 and the file listed as stale", async () => {
      const edited = join(out, REV, "catalog.ts");
      const original = first[`${REV}/catalog.ts`]!;
      // replace one character in the middle by another one of the same UTF-8 length
      const at = original.indexOf("tools/call");
      expect(at).toBeGreaterThan(0);
      const changed = `${original.slice(0, at)}T${original.slice(at + 1)}`;
      expect(Buffer.byteLength(changed)).toBe(Buffer.byteLength(original));
      expect(changed).not.toBe(original);
      writeFileSync(edited, changed);
      try {
        const before = snapshot(cwd);
        const r = await check();
        expect(r.code).toBe(1);
        expect(r.stderr).toBe("");
        expect(lines(r.stdout)).toEqual([`stale: OUT/${REV}/catalog.ts`, "1 file(s) out of date: run mcp-stubgen generate"]);
        expect(snapshot(cwd)).toEqual(before);
      } finally {
        writeFileSync(edited, original);
      }
    });

    it("with a file the generator does not write in the revision folder: exit 1 and it is listed as not generated", async () => {
      const leftover = join(out, REV, "old-module.ts");
      writeFileSync(leftover, "// left from an older generator\n");
      try {
        const before = snapshot(cwd);
        const r = await check();
        expect(r.code).toBe(1);
        expect(r.stderr).toBe("");
        expect(lines(r.stdout)).toEqual([`not generated: OUT/${REV}/old-module.ts`, "1 file(s) out of date: run mcp-stubgen generate"]);
        expect(snapshot(cwd)).toEqual(before);
        expect(readFileSync(leftover, "utf8")).toBe("// left from an older generator\n");
      } finally {
        rmSync(leftover);
      }
      // and with it gone the output is up to date again
      const r = await check();
      expect(r.code, r.stdout).toBe(0);
    });
  });
});

describe("generate --all", () => {
  it("writes every revision of schema/revisions.json, each with the same file names", async () => {
    const cwd = tmp();
    const r = await runCli(["generate", "--all", "--out", "OUT", "--cache", TEST_CACHE_DIR], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const wrote = wroteLines(r.stdout);
    expect([...wrote.keys()]).toEqual(["OUT/runtime", ...REVISIONS.map((rev) => `OUT/${rev}`)]);
    const files = fileList(join(cwd, "OUT"));
    for (const rev of REVISIONS) {
      const mine = files.filter((f) => f.startsWith(`${rev}/`)).map((f) => f.slice(rev.length + 1));
      expect(mine, rev).toEqual(wrote.get(`OUT/${rev}`));
      for (const name of ["types.ts", "catalog.ts", "index.ts"]) expect(mine, rev).toContain(name);
      const header = readFileSync(join(cwd, "OUT", rev, "types.ts"), "utf8").split("\n").slice(0, 3).join("\n");
      expect(header).toContain(`revision ${rev}.`);
      expect(header).toContain(manifestSha256(rev));
    }
    expect(files.every((f) => [...REVISIONS, "runtime", "every-era"].some((rev) => f.startsWith(`${rev}/`)))).toBe(true);
    // The one server of every revision: one file, importing each revision folder's index.
    expect(files.filter((f) => f.startsWith("every-era/"))).toEqual(["every-era/index.ts"]);
    const entry = readFileSync(join(cwd, "OUT", "every-era", "index.ts"), "utf8");
    for (const rev of REVISIONS) expect(entry).toContain(`from "../${rev}/index.js"`);
    // one copy of the runtime, shared: the revision folders hold none of it but the stdio re-export
    // every file of templates/runtime/ but the add-ons' and MCP Apps' (copied only when asked for)
    const sources = readdirSync(join(PACKAGE_ROOT, "templates", "runtime"), { recursive: true })
      .map(String)
      .map((f) => f.split("\\").join("/"))
      .filter((f) => f.endsWith(".ts") && !f.startsWith("addons/") && !f.startsWith("apps/"))
      .sort();
    expect(wrote.get("OUT/runtime")).toEqual(sources);
    expect(stagingLeftovers(cwd)).toEqual([]);
  });
});
