/**
 * The schema cache as `generate`, `catalog` and `diff` read it (generator/load/schema-source.ts
 * loadSchema, loadExtension, listSchemas, listExtensions), reading a schema by path or URL, and
 * the argument errors of schema pull: on a small manifest of our own and a temporary cache.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Hex } from "../../../generator/load/schema-document.js";
import {
  cachePath,
  extensionCachePath,
  extensionInfo,
  listExtensions,
  listSchemas,
  loadExtension,
  loadSchema,
  localSource,
  readSourceText,
  type ExtensionInfo,
  type Manifest,
} from "../../../generator/load/schema-source.js";
import { pullSchemas } from "../../../generator/load/schema-pull.js";
import { catchStubgenError, rejectionOf } from "../support.js";
import { formatLockfile, type Lockfile } from "../../../generator/load/lockfile.js";

const CORE = JSON.stringify({ $defs: { A: { type: "object" } } });
const EXT = JSON.stringify({ $defs: { B: { type: "string" } } });
const EXTENSION: ExtensionInfo = {
  id: "ext",
  identifier: "example.com/ext",
  version: "draft",
  revisions: ["r1"],
  repository: "example/ext",
  commit: "c0ffee",
  path: "schema.json",
  sha256: sha256Hex(EXT),
};
const manifest: Manifest = {
  upstream: { repository: "example/repo", commit: "abc123", urlTemplate: "https://example.invalid/{commit}/{revision}.json" },
  revisions: [
    { id: "r1", dialect: "2020-12", sha256: sha256Hex(CORE) },
    { id: "r2", dialect: "2020-12", sha256: sha256Hex(CORE + " ") },
  ],
  extensions: [EXTENSION],
};
const noExtensions: Manifest = { ...manifest, extensions: undefined };

let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-cache-"));
});
afterEach(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

const put = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

describe("loadSchema from the cache", () => {
  it("not cached: says which pull command fills it, with the cache folder when it is not the default", async () => {
    const e = await rejectionOf(loadSchema("r1", { manifest, cacheDir }));
    expect(e.message).toBe(`the schema of revision r1 is not cached; run: mcp-stubgen schema pull r1 --cache ${cacheDir} (add --from DIR to copy it from a local folder)`);
    expect(e.location).toEqual({ file: cachePath(cacheDir, "r1") });
    // The default cache (in the working folder) needs no --cache; r2 is in no cache.
    expect((await rejectionOf(loadSchema("r2", { manifest }))).message).toBe(
      "the schema of revision r2 is not cached; run: mcp-stubgen schema pull r2 (add --from DIR to copy it from a local folder)",
    );
  });

  it("cached with other bytes: refused, naming the sha256 it expected; cached right: loaded", async () => {
    put(cachePath(cacheDir, "r1"), CORE + "\n");
    const e = await rejectionOf(loadSchema("r1", { manifest, cacheDir }));
    expect(e.message).toBe(`the cached schema of revision r1 does not match its sha256 ${sha256Hex(CORE)}; run: mcp-stubgen schema pull r1 --cache ${cacheDir}`);
    put(cachePath(cacheDir, "r1"), CORE);
    const doc = await loadSchema("r1", { manifest, cacheDir });
    expect([...doc.defs.keys()]).toEqual(["A"]);
    expect(doc.file).toBe(cachePath(cacheDir, "r1"));
  });

  it("an unknown revision: the known ones listed (and, with a lockfile, the locked ones and how to pull a new one)", async () => {
    expect((await rejectionOf(loadSchema("r9", { manifest, cacheDir, lockfile: false }))).message).toBe(
      'unknown revision "r9"; expected one of r1, r2 (or give --schema PATH_OR_URL for another schema)',
    );
    const lockfile = join(cacheDir, "mcp-stubgen.lock.json");
    expect((await rejectionOf(loadSchema("r9", { manifest, cacheDir, lockfile }))).message).toBe(
      `unknown revision "r9"; expected one of r1, r2, or one pinned in ${lockfile} (none); ` +
        "to add a new revision, pull it first: mcp-stubgen schema pull r9 --from DIR, or --commit SHA to download it (or give --schema PATH_OR_URL for another schema)",
    );
  });
});

describe("the lockfile's pins win over the manifest's", () => {
  const OTHER = CORE.replace("object", "string");
  /** A lockfile in the (temporary) cache folder: where it is does not matter to what is checked. */
  const lockWith = (pins: Lockfile) => {
    const lockfile = join(cacheDir, "mcp-stubgen.lock.json");
    writeFileSync(lockfile, formatLockfile(pins));
    return lockfile;
  };

  it("loadSchema checks the cache against the lockfile's sha256, naming the lockfile when it refuses", async () => {
    const lockfile = lockWith({ revisions: { r1: { source: "local", commit: null, sha256: sha256Hex(OTHER) } }, extensions: {} });
    put(cachePath(cacheDir, "r1"), CORE);
    const e = await rejectionOf(loadSchema("r1", { manifest, cacheDir, lockfile }));
    expect(e.message).toBe(
      `the cached schema of revision r1 does not match its sha256 ${sha256Hex(OTHER)} (pinned in ${lockfile}); ` +
        `run: mcp-stubgen schema pull r1 --cache ${cacheDir} --lockfile ${lockfile} --from DIR (it is pinned to a local copy)`,
    );
    // Without the lockfile the same cache is the manifest's and loads.
    expect((await loadSchema("r1", { manifest, cacheDir, lockfile: false })).defs.has("A")).toBe(true);
    put(cachePath(cacheDir, "r1"), OTHER);
    expect((await loadSchema("r1", { manifest, cacheDir, lockfile })).sha256).toBe(sha256Hex(OTHER));
  });

  it("a revision only the lockfile pins loads from the cache; not cached, the pull command says --from for a local pin", async () => {
    const lockfile = lockWith({
      revisions: {
        "2027-01-01": { source: "local", commit: null, sha256: sha256Hex(CORE) },
        "2027-06-01": { source: "https://example.invalid/x.json", commit: "abcd", sha256: sha256Hex(CORE) },
      },
      extensions: {},
    });
    expect((await rejectionOf(loadSchema("2027-01-01", { manifest, cacheDir, lockfile }))).message).toBe(
      `the schema of revision 2027-01-01 is not cached; run: mcp-stubgen schema pull 2027-01-01 --cache ${cacheDir} --lockfile ${lockfile} --from DIR (it is pinned to a local copy)`,
    );
    expect((await rejectionOf(loadSchema("2027-06-01", { manifest, cacheDir, lockfile }))).message).toBe(
      `the schema of revision 2027-06-01 is not cached; run: mcp-stubgen schema pull 2027-06-01 --cache ${cacheDir} --lockfile ${lockfile} (add --from DIR to copy it from a local folder)`,
    );
    put(cachePath(cacheDir, "2027-01-01"), CORE);
    expect([...(await loadSchema("2027-01-01", { manifest, cacheDir, lockfile })).defs.keys()]).toEqual(["A"]);
  });

  it("schema list: the locked revisions after the known ones, each checked against its pin, with the dialect its schema declares", () => {
    const lockfile = lockWith({
      revisions: {
        r2: { source: "local", commit: null, sha256: sha256Hex(CORE) },
        "2027-01-01": { source: "local", commit: null, sha256: sha256Hex(CORE) },
        "2027-06-01": { source: "local", commit: null, sha256: sha256Hex(CORE) },
      },
      extensions: { ext: { source: "local", commit: null, sha256: sha256Hex(OTHER) } },
    });
    put(cachePath(cacheDir, "r2"), CORE);
    put(cachePath(cacheDir, "2027-01-01"), JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", ...JSON.parse(CORE) }));
    expect(listSchemas({ manifest, cacheDir, lockfile }).map((r) => [r.id, r.dialect, r.state, r.pinnedBy])).toEqual([
      ["r1", "2020-12", "missing", "manifest"],
      ["r2", "2020-12", "cached", "lockfile"],
      ["2027-01-01", "2020-12", "sha256 mismatch", "lockfile"],
      ["2027-06-01", "-", "missing", "lockfile"],
    ]);
    put(extensionCachePath(cacheDir, "ext"), EXT);
    expect(listExtensions({ manifest, cacheDir, lockfile }).map((e) => [e.id, e.state, e.sha256, e.pinnedBy])).toEqual([["ext", "sha256 mismatch", sha256Hex(OTHER), "lockfile"]]);
    expect(catchStubgenError(() => loadExtension("ext", { manifest, cacheDir, lockfile })).message).toBe(
      `the cached schema of extension ext does not match its sha256 ${sha256Hex(OTHER)} (pinned in ${lockfile}); run: mcp-stubgen schema pull ext --cache ${cacheDir} --lockfile ${lockfile} --from DIR`,
    );
  });

  it("a malformed lockfile: loading names it and the pointer", async () => {
    const lockfile = join(cacheDir, "bad.lock.json");
    put(lockfile, '{ "format": 1, "revisions": { "r1": { "source": "local", "commit": null } } }');
    const e = await rejectionOf(loadSchema("r1", { manifest, cacheDir, lockfile }));
    expect(e.location).toEqual({ file: lockfile, pointer: "/revisions/r1" });
    expect(() => listSchemas({ manifest, cacheDir, lockfile })).toThrow(/"sha256" is missing/);
  });
});

describe("a schema by path or URL", () => {
  it("reads a file, named in errors as it was given", async () => {
    const file = join(cacheDir, "s.json");
    put(file, CORE);
    expect((await loadSchema("any", { schema: file })).defs.has("A")).toBe(true);
    const missing = await rejectionOf(loadSchema("any", { schema: join(cacheDir, "none.json") }));
    expect(missing.message).toBe("cannot read the schema: no such file (ENOENT)");
    expect(missing.location).toEqual({ file: join(cacheDir, "none.json") });
    expect((await rejectionOf(readSourceText(cacheDir))).message).toBe("cannot read the schema: EISDIR");
    // Only a leading http(s):// makes a URL.
    expect((await rejectionOf(readSourceText(join(cacheDir, "http://x.json")))).message).toContain("ENOENT");
  });

  it("downloads a URL; a failed fetch says why (its cause), an HTTP error its status", async () => {
    const ok: typeof fetch = async () => new Response(CORE, { status: 200 });
    expect((await loadSchema("any", { schema: "HTTPS://example.invalid/s.json", fetchImpl: ok })).defs.has("A")).toBe(true);
    const refused: typeof fetch = async () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED", message: "connect ECONNREFUSED" } });
    };
    const e = await rejectionOf(readSourceText("http://127.0.0.1:9/s.json", refused));
    expect(e.message).toBe("cannot download the schema: fetch failed (ECONNREFUSED)");
    expect(e.location).toEqual({ file: "http://127.0.0.1:9/s.json" });
    const messageOnly: typeof fetch = async () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: { message: "getaddrinfo failed" } });
    };
    expect((await rejectionOf(readSourceText("http://x.invalid/", messageOnly))).message).toBe("cannot download the schema: fetch failed (getaddrinfo failed)");
    const bare: typeof fetch = async () => {
      throw new TypeError("fetch failed");
    };
    expect((await rejectionOf(readSourceText("http://x.invalid/", bare))).message).toBe("cannot download the schema: fetch failed");
    const notFound: typeof fetch = async () => new Response("no", { status: 404 });
    expect((await rejectionOf(readSourceText("http://x.invalid/", notFound))).message).toBe("cannot download the schema: HTTP 404");
  });
});

describe("listing the cache", () => {
  it("gives each revision and extension missing, cached or sha256 mismatch", () => {
    put(cachePath(cacheDir, "r1"), CORE);
    put(cachePath(cacheDir, "r2"), CORE);
    expect(listSchemas({ manifest, cacheDir }).map((r) => [r.id, r.state, r.path])).toEqual([
      ["r1", "cached", cachePath(cacheDir, "r1")],
      ["r2", "sha256 mismatch", cachePath(cacheDir, "r2")],
    ]);
    expect(listExtensions({ manifest, cacheDir }).map((e) => [e.id, e.state])).toEqual([["ext", "missing"]]);
    put(extensionCachePath(cacheDir, "ext"), EXT);
    expect(listExtensions({ manifest, cacheDir }).map((e) => [e.id, e.state, e.identifier])).toEqual([["ext", "cached", "example.com/ext"]]);
    expect(listExtensions({ manifest: noExtensions, cacheDir })).toEqual([]);
    rmSync(cachePath(cacheDir, "r1"));
    expect(listSchemas({ manifest, cacheDir })[0]?.state).toBe("missing");
  });
});

describe("loadExtension", () => {
  it("unknown, not cached, cached with other bytes, cached right", () => {
    expect(catchStubgenError(() => loadExtension("nope", { manifest, cacheDir })).message).toContain('unknown extension "nope"; expected one of ext');
    expect(catchStubgenError(() => extensionInfo(noExtensions, "ext")).message).toContain('unknown extension "ext"; expected one of ');
    const path = extensionCachePath(cacheDir, "ext");
    const missing = catchStubgenError(() => loadExtension("ext", { manifest, cacheDir }));
    expect(missing.message).toBe(`the schema of extension ext is not cached; run: mcp-stubgen schema pull ext --cache ${cacheDir}`);
    expect(missing.location).toEqual({ file: path });
    put(path, EXT + " ");
    const stale = catchStubgenError(() => loadExtension("ext", { manifest, cacheDir }));
    expect(stale.message).toBe(`the cached schema of extension ext does not match its sha256 ${EXTENSION.sha256}; run: mcp-stubgen schema pull ext --cache ${cacheDir}`);
    expect(stale.location).toEqual({ file: path });
    put(path, EXT);
    expect([...loadExtension("ext", { manifest, cacheDir }).defs.keys()]).toEqual(["B"]);
    expect(catchStubgenError(() => loadExtension("ext", { manifest })).message).toBe("the schema of extension ext is not cached; run: mcp-stubgen schema pull ext");
  });
});

describe("schema pull: the names and --from it accepts", () => {
  it("--from one file needs exactly one name", async () => {
    const file = join(cacheDir, "one.json");
    put(file, CORE);
    expect((await rejectionOf(pullSchemas([], { manifest, lockfile: false, cacheDir, from: file }))).message).toBe(
      `--from names a single schema file, so name the one revision it holds: mcp-stubgen schema pull REV --from ${file} (got none)`,
    );
    const two = await rejectionOf(pullSchemas(["r1", "r2"], { manifest, lockfile: false, cacheDir, from: file }));
    expect(two.message).toContain("(got r1, r2)");
    expect(two.location).toEqual({ file });
    expect((await pullSchemas(["r1"], { manifest, lockfile: false, cacheDir, from: file })).map((r) => [r.kind, r.revision])).toEqual([["revision", "r1"]]);
  });

  it("an unknown name lists the revisions and, when there are any, the extensions", async () => {
    expect((await rejectionOf(pullSchemas(["x"], { manifest, lockfile: false, cacheDir }))).message).toBe(
      'unknown revision "x"; expected one of r1, r2 or an extension: ext (a schema of your own needs no pull: give it to generate or catalog with --schema PATH_OR_URL)',
    );
    expect((await rejectionOf(pullSchemas(["x"], { manifest: noExtensions, lockfile: false, cacheDir }))).message).toBe(
      'unknown revision "x"; expected one of r1, r2 (a schema of your own needs no pull: give it to generate or catalog with --schema PATH_OR_URL)',
    );
  });

  it("no names: every revision and extension, from their URLs", async () => {
    const bodies = new Map([
      ["https://r/r1", CORE],
      ["https://r/r2", CORE + " "],
      ["https://e/ext", EXT],
    ]);
    const fetchImpl: typeof fetch = async (url) => new Response(bodies.get(String(url)) ?? "", { status: bodies.has(String(url)) ? 200 : 404 });
    const pulled = await pullSchemas([], { manifest, lockfile: false, cacheDir, fetchImpl, urlFor: (rev) => `https://r/${rev}`, extensionUrlFor: (info) => `https://e/${info.id}` });
    expect(pulled.map((r) => [r.kind, r.revision, r.source])).toEqual([
      ["revision", "r1", "https://r/r1"],
      ["revision", "r2", "https://r/r2"],
      ["extension", "ext", "https://e/ext"],
    ]);
    expect(listSchemas({ manifest, cacheDir }).map((r) => r.state)).toEqual(["cached", "cached"]);
  });

  it("--from a path that does not exist: the path and the layout expected", () => {
    const from = join(cacheDir, "nowhere");
    const e = catchStubgenError(() => localSource(from, "r1"));
    expect(e.message).toBe(`--from: no such file or folder; expected a schema file (with one revision named) or a folder laid out as ${join(from, "<revision>", "schema.json")}`);
    expect(e.location).toEqual({ file: from });
  });
});
