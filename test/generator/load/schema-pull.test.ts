/**
 * schema pull by download (no --from): the file is fetched from the revision's URL, checked
 * against its pin (the lockfile's, else the manifest's sha256) and only then written to the cache.
 * A loopback HTTP server stands in for the pinned upstream URL and for `--commit` downloads.
 * Then the lockfile: what a pull records there, new revisions, changed schemas refused and
 * accepted, and that an error leaves the cache and the lockfile as they were.
 */
import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StubgenError } from "../../../generator/errors.js";
import { formatLockfile, readLockfile, type Lockfile } from "../../../generator/load/lockfile.js";
import { localSource, readManifest, upstreamUrl, type Manifest } from "../../../generator/load/schema-source.js";
import { pullSchemas } from "../../../generator/load/schema-pull.js";
import { sha256Hex } from "../../../generator/load/schema-document.js";
import { fixturePath, rejectionOf } from "../support.js";

const GOOD = JSON.stringify({ $defs: { A: { type: "object" } } });
const manifest: Manifest = {
  upstream: { repository: "example/repo", commit: "abc123", urlTemplate: "https://example.invalid/{commit}/schema/{revision}/schema.json" },
  revisions: [{ id: "r1", dialect: "2020-12", sha256: sha256Hex(GOOD) }],
};

let server: Server;
let base: string;
const served = new Map<string, string>();
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? "");
    const body = served.get(req.url ?? "");
    res.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" }).end(body ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("schema pull by download", () => {
  it("builds the pinned URL from the manifest's commit and revision", () => {
    expect(upstreamUrl(manifest, "r1")).toBe("https://example.invalid/abc123/schema/r1/schema.json");
    const real = readManifest();
    expect(upstreamUrl(real, "2025-11-25")).toBe(
      `https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/${real.upstream.commit}/schema/2025-11-25/schema.json`,
    );
  });

  it("downloads, checks the sha256 and fills the cache", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-pull-"));
    served.set("/good/r1.json", GOOD);
    const [result] = await pullSchemas(["r1"], { manifest, lockfile: false, cacheDir, urlFor: (rev) => `${base}/good/${rev}.json` });
    expect(result).toMatchObject({ revision: "r1", source: `${base}/good/r1.json` });
    expect(readFileSync(join(cacheDir, "r1", "schema.json"), "utf8")).toBe(GOOD);
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("leaves a file already cached with the right bytes untouched (same inode and mtime)", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-pull-"));
    served.set("/again/r1.json", GOOD);
    const pull = () => pullSchemas(["r1"], { manifest, lockfile: false, cacheDir, urlFor: (rev) => `${base}/again/${rev}.json` });
    await pull();
    const before = statSync(join(cacheDir, "r1", "schema.json"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await pull();
    const after = statSync(join(cacheDir, "r1", "schema.json"));
    expect({ ino: after.ino, mtimeMs: after.mtimeMs }).toEqual({ ino: before.ino, mtimeMs: before.mtimeMs });
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("refuses bytes whose sha256 differs and leaves the cache as it was", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-pull-"));
    served.set("/tampered/r1.json", GOOD.replace("object", "string"));
    const error = await pullSchemas(["r1"], { manifest, lockfile: false, cacheDir, urlFor: (rev) => `${base}/tampered/${rev}.json` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StubgenError);
    expect((error as StubgenError).message).toContain("sha256 mismatch for revision r1");
    expect((error as StubgenError).location.file).toBe(`${base}/tampered/r1.json`);
    expect(existsSync(join(cacheDir, "r1"))).toBe(false);
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it("reports an HTTP error with the URL, and the way that needs no download (--from)", async () => {
    const error = (await pullSchemas(["r1"], { manifest, lockfile: false, cacheDir: tmpdir(), urlFor: () => `${base}/missing.json` }).catch((e: unknown) => e)) as StubgenError;
    expect(error.format()).toBe(
      `${base}/missing.json: cannot download the schema: HTTP 404; without network, copy the schemas from a local folder: mcp-stubgen schema pull --from DIR (DIR/<revision>/schema.json)`,
    );
  });

  it("offline (the connection fails): the error names --from", async () => {
    const offline = (() => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } }))) as typeof fetch;
    const error = (await pullSchemas(["r1"], { manifest, lockfile: false, cacheDir: tmpdir(), fetchImpl: offline }).catch((e: unknown) => e)) as StubgenError;
    expect(error).toBeInstanceOf(StubgenError);
    expect(error.message).toBe(
      "cannot download the schema: fetch failed (ENOTFOUND); without network, copy the schemas from a local folder: mcp-stubgen schema pull --from DIR (DIR/<revision>/schema.json)",
    );
  });
});

describe("schema pull --from a local file or folder", () => {
  it("localSource: the file itself, or <folder>/<revision>/schema.json", () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-stubgen-from-"));
    mkdirSync(join(dir, "r1"));
    writeFileSync(join(dir, "r1", "schema.json"), GOOD);
    expect(localSource(join(dir, "r1", "schema.json"), "r1")).toBe(join(dir, "r1", "schema.json"));
    expect(localSource(dir, "r1")).toBe(join(dir, "r1", "schema.json"));
    const missing = catchError(() => localSource(dir, "r2"));
    expect(missing.location.file).toBe(join(dir, "r2", "schema.json"));
    expect(missing.message).toContain(`expected a schema file (with one revision named) or a folder laid out as ${join(dir, "<revision>", "schema.json")}`);
    expect(catchError(() => localSource(join(dir, "nope"), "r1")).message).toMatch(/^--from: no such file or folder; expected /);
    rmSync(dir, { recursive: true, force: true });
  });

  it("pulls a single file for the one revision named, sha256 checked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-stubgen-from-"));
    writeFileSync(join(dir, "one.json"), GOOD);
    const cacheDir = join(dir, "cache");
    const [result] = await pullSchemas(["r1"], { manifest, lockfile: false, cacheDir, from: join(dir, "one.json") });
    expect(result).toEqual({
      kind: "revision",
      revision: "r1",
      source: join(dir, "one.json"),
      path: join(cacheDir, "r1", "schema.json"),
      sha256: sha256Hex(GOOD),
      commit: "abc123",
      pin: "kept",
    });
    const none = (await pullSchemas([], { manifest, lockfile: false, cacheDir, from: join(dir, "one.json") }).catch((e: unknown) => e)) as StubgenError;
    expect(none.message).toContain("--from names a single schema file, so name the one revision it holds");
    rmSync(dir, { recursive: true, force: true });
  });
});

const MINI = readFileSync(fixturePath("cli/mini.json"), "utf8");
const CHANGED = readFileSync(fixturePath("pins/mini-changed.json"), "utf8");
const SHA = "0123456789abcdef0123456789abcdef01234567";
const SHA2 = "89abcdef0123456789abcdef0123456789abcdef";
/** A manifest that knows r1 as MINI, whose template points at the loopback server. */
const loopManifest = (): Manifest => ({
  upstream: { repository: "example/repo", commit: "abc123", urlTemplate: `${base}/{commit}/schema/{revision}/schema.json` },
  revisions: [{ id: "r1", dialect: "2020-12", sha256: sha256Hex(MINI) }],
});

/** A project folder: a cache, a lockfile path, and a folder of schemas laid out as <revision>/schema.json. */
function project(schemas: Readonly<Record<string, string>> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-stubgen-pins-"));
  for (const [revision, text] of Object.entries(schemas)) {
    mkdirSync(join(dir, "specs", revision), { recursive: true });
    writeFileSync(join(dir, "specs", revision, "schema.json"), text);
  }
  return { dir, cacheDir: join(dir, "cache"), lockfile: join(dir, "mcp-stubgen.lock.json"), specs: join(dir, "specs") };
}

/** Every file below `dir` with its bytes and mtime. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (path: string, rel: string) => {
    const st = statSync(path);
    if (st.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name), rel ? `${rel}/${name}` : name);
    } else {
      out[rel] = `${st.mtimeMs} ${sha256Hex(readFileSync(path))}`;
    }
  };
  visit(dir, "");
  return out;
}

describe("schema pull records what it pulled in the lockfile", () => {
  it("a known revision: its pin as the manifest has it (upstream URL, commit, sha256); written only when it changes", async () => {
    const p = project({ r1: MINI });
    const [result] = await pullSchemas(["r1"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs });
    expect(result).toMatchObject({ revision: "r1", pin: "kept", commit: "abc123", sha256: sha256Hex(MINI) });
    const lock: Lockfile = { revisions: { r1: { source: `${base}/abc123/schema/r1/schema.json`, commit: "abc123", sha256: sha256Hex(MINI) } }, extensions: {} };
    expect(readFileSync(p.lockfile, "utf8")).toBe(formatLockfile(lock));
    const before = statSync(p.lockfile).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await pullSchemas(["r1"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs });
    expect(statSync(p.lockfile).mtimeMs).toBe(before);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("a revision the manifest does not know, from a folder: cached and pinned as a local copy (no path, no commit)", async () => {
    const p = project({ "2027-01-01": MINI });
    const [result] = await pullSchemas(["2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs });
    expect(result).toEqual({
      kind: "revision",
      revision: "2027-01-01",
      source: join(p.specs, "2027-01-01", "schema.json"),
      path: join(p.cacheDir, "2027-01-01", "schema.json"),
      sha256: sha256Hex(MINI),
      commit: null,
      pin: "new",
    });
    expect(readFileSync(join(p.cacheDir, "2027-01-01", "schema.json"), "utf8")).toBe(MINI);
    expect(readLockfile(p.lockfile).revisions).toEqual({ "2027-01-01": { source: "local", commit: null, sha256: sha256Hex(MINI) } });
    expect(readFileSync(p.lockfile, "utf8")).not.toContain(p.dir);
    // Once pinned, a pull without --from keeps the cached copy; a bare pull includes it.
    expect((await pullSchemas(["2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile }))[0]).toMatchObject({ source: "cache", pin: "kept" });
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("--from a single file names the new revision", async () => {
    const p = project();
    writeFileSync(join(p.dir, "next.json"), MINI);
    const [result] = await pullSchemas(["next"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: join(p.dir, "next.json") });
    expect(result).toMatchObject({ revision: "next", pin: "new", path: join(p.cacheDir, "next", "schema.json") });
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("a label that is no safe folder name is refused before anything is read", async () => {
    const p = project({ r1: MINI });
    for (const label of ["../escape", "runtime", "a/b"]) {
      const e = await rejectionOf(pullSchemas([label], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs }));
      expect(e.message).toMatch(new RegExp(`^invalid revision label ${JSON.stringify(label).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: .*; expected a revision label of letters`));
    }
    expect(existsSync(p.cacheDir)).toBe(false);
    expect(existsSync(p.lockfile)).toBe(false);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("neither known nor locked, without --from or --commit: an error naming both ways to pull it", async () => {
    const e = await rejectionOf(pullSchemas(["2027-01-01"], { manifest: loopManifest(), cacheDir: tmpdir(), lockfile: join(tmpdir(), "none", "l.json") }));
    expect(e.message).toContain('unknown revision "2027-01-01"; expected one of r1; a revision this version does not know is pinned from a local copy or an upstream commit: ');
    expect(e.message).toContain("mcp-stubgen schema pull 2027-01-01 --from DIR, or --commit SHA");
  });

  it("lockfile: false: no new revision and no re-pin (nothing could record it)", async () => {
    const p = project({ "2027-01-01": MINI, r1: CHANGED });
    const unknown = await rejectionOf(pullSchemas(["2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: false, from: p.specs }));
    expect(unknown.message).toBe('unknown revision "2027-01-01"; expected one of r1 (a schema of your own needs no pull: give it to generate or catalog with --schema PATH_OR_URL)');
    const accept = await rejectionOf(pullSchemas(["r1"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: false, from: p.specs, accept: true }));
    expect(accept.message).toBe("r1: a new pin must be recorded in a lockfile, and this run has none (lockfile: false); nothing was pulled");
    expect(existsSync(p.cacheDir)).toBe(false);
    rmSync(p.dir, { recursive: true, force: true });
  });
});

describe("a schema whose bytes differ from its pin", () => {
  it("is refused with what changed and the command that accepts it; the cache and the lockfile stay as they were", async () => {
    const p = project({ "2027-01-01": MINI });
    const opts = { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs };
    await pullSchemas(["2027-01-01"], opts);
    writeFileSync(join(p.specs, "2027-01-01", "schema.json"), CHANGED);
    const before = filesOf(p.dir);
    const e = await rejectionOf(pullSchemas(["2027-01-01"], opts));
    expect(e.location).toEqual({ file: join(p.specs, "2027-01-01", "schema.json") });
    expect(e.message).toBe(
      `sha256 mismatch for revision 2027-01-01: expected ${sha256Hex(MINI)} (pinned by ${p.lockfile}), got ${sha256Hex(CHANGED)}; ` +
        "2027-01-01 changed upstream: 1 definition added (ShoutRequest), 2 definitions changed (ClientRequest, EchoResult), 1 method added (demo/shout); " +
        `the cache and ${p.lockfile} were not changed; to accept it: mcp-stubgen schema pull 2027-01-01 --from ${p.specs} --cache ${p.cacheDir} --lockfile ${p.lockfile} --accept`,
    );
    expect(filesOf(p.dir)).toEqual(before);

    const [accepted] = await pullSchemas(["2027-01-01"], { ...opts, accept: true });
    expect(accepted).toMatchObject({ pin: "changed", sha256: sha256Hex(CHANGED), change: "1 definition added (ShoutRequest), 2 definitions changed (ClientRequest, EchoResult), 1 method added (demo/shout)" });
    expect(readFileSync(join(p.cacheDir, "2027-01-01", "schema.json"), "utf8")).toBe(CHANGED);
    expect(readLockfile(p.lockfile).revisions["2027-01-01"]).toEqual({ source: "local", commit: null, sha256: sha256Hex(CHANGED) });
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("without the pinned bytes in the cache, the summary is the new size", async () => {
    const p = project({ r1: CHANGED });
    const e = await rejectionOf(pullSchemas(["r1"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs }));
    expect(e.message).toContain(`(pinned by the package's schema/revisions.json), got ${sha256Hex(CHANGED)}; r1 changed upstream: ${Buffer.byteLength(CHANGED)} bytes now (the pinned copy is not in the cache to compare);`);
    expect(existsSync(p.lockfile)).toBe(false);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("the lockfile's pin wins over the manifest's: the manifest's bytes are refused, the locked ones pass", async () => {
    const p = project({ r1: MINI });
    writeFileSync(p.lockfile, formatLockfile({ revisions: { r1: { source: "local", commit: null, sha256: sha256Hex(CHANGED) } }, extensions: {} }));
    const opts = { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs };
    const e = await rejectionOf(pullSchemas(["r1"], opts));
    expect(e.message).toContain(`sha256 mismatch for revision r1: expected ${sha256Hex(CHANGED)} (pinned by ${p.lockfile}), got ${sha256Hex(MINI)}`);
    writeFileSync(join(p.specs, "r1", "schema.json"), CHANGED);
    expect((await pullSchemas(["r1"], opts))[0]).toMatchObject({ pin: "kept", sha256: sha256Hex(CHANGED), commit: null });
    rmSync(p.dir, { recursive: true, force: true });
  });
});

describe("schema pull --commit SHA", () => {
  it("downloads at that commit from the manifest's URL template and pins commit, URL and sha256, for known and new revisions", async () => {
    const p = project();
    served.set(`/${SHA}/schema/r1/schema.json`, CHANGED);
    served.set(`/${SHA}/schema/2027-01-01/schema.json`, MINI);
    const pulled = await pullSchemas(["r1", "2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, commit: SHA.toUpperCase() });
    expect(pulled.map((r) => [r.revision, r.pin, r.commit])).toEqual([
      ["r1", "changed", SHA],
      ["2027-01-01", "new", SHA],
    ]);
    expect(pulled[0]!.change).toBe(`${Buffer.byteLength(CHANGED)} bytes now (the pinned copy is not in the cache to compare)`);
    expect(readLockfile(p.lockfile).revisions).toEqual({
      r1: { source: `${base}/${SHA}/schema/r1/schema.json`, commit: SHA, sha256: sha256Hex(CHANGED) },
      "2027-01-01": { source: `${base}/${SHA}/schema/2027-01-01/schema.json`, commit: SHA, sha256: sha256Hex(MINI) },
    });
    expect(readFileSync(join(p.cacheDir, "r1", "schema.json"), "utf8")).toBe(CHANGED);

    // The same bytes at another commit: re-pinned to it ("moved").
    served.set(`/${SHA2}/schema/2027-01-01/schema.json`, MINI);
    expect((await pullSchemas(["2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, commit: SHA2 }))[0]).toMatchObject({ pin: "moved", commit: SHA2 });
    // A plain pull downloads from the URL the lockfile pins.
    requested.length = 0;
    expect((await pullSchemas(["2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile }))[0]).toMatchObject({ pin: "kept", commit: SHA2 });
    expect(requested).toEqual([`/${SHA2}/schema/2027-01-01/schema.json`]);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("an extension at a commit of its own repository (extensionUrlFor, or fetchImpl)", async () => {
    const p = project();
    const ext = { id: "jobs", identifier: "example.com/jobs", version: "v1", revisions: ["r1"], repository: "example/ext-jobs", commit: "c0ffee", path: "schema/v1/schema.json", sha256: sha256Hex(MINI) };
    const urls: string[] = [];
    const fetchImpl = (async (url: string) => {
      urls.push(String(url));
      return new Response(MINI);
    }) as typeof fetch;
    const [result] = await pullSchemas(["jobs"], { manifest: { ...loopManifest(), extensions: [ext] }, cacheDir: p.cacheDir, lockfile: p.lockfile, commit: SHA, fetchImpl });
    expect(urls).toEqual([`https://raw.githubusercontent.com/example/ext-jobs/${SHA}/schema/v1/schema.json`]);
    expect(result).toMatchObject({ kind: "extension", pin: "moved", commit: SHA });
    expect(readLockfile(p.lockfile).extensions["jobs"]?.commit).toBe(SHA);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("takes a full SHA only, not with --from, and needs the revisions named", async () => {
    const opts = { manifest: loopManifest(), cacheDir: tmpdir(), lockfile: false as const };
    expect((await rejectionOf(pullSchemas(["r1"], { ...opts, commit: "abc123" }))).message).toBe(
      '--commit "abc123": expected a full commit SHA, 40 hex digits (e.g. b0f60ba5409db7a6582440a7b473cc0398890f15)',
    );
    expect((await rejectionOf(pullSchemas(["r1"], { ...opts, commit: "g".repeat(40) }))).message).toMatch(/^--commit "g+": expected a full commit SHA/);
    expect((await rejectionOf(pullSchemas(["r1"], { ...opts, commit: SHA, from: tmpdir() }))).message).toBe(
      "--commit downloads from the upstream repository and --from copies a local file or folder: give one of them",
    );
    expect((await rejectionOf(pullSchemas([], { ...opts, commit: SHA }))).message).toBe(
      `--commit needs the revisions to pin at that commit, e.g. mcp-stubgen schema pull 2025-11-25 --commit ${SHA}`,
    );
  });

  it("a commit that does not have the revision: the HTTP error, nothing written", async () => {
    const p = project();
    const e = await rejectionOf(pullSchemas(["2027-06-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, commit: SHA2 }));
    expect(e.format()).toMatch(new RegExp(`^${base}/${SHA2}/schema/2027-06-01/schema.json: cannot download the schema: HTTP 404`));
    expect(readdirSync(p.dir)).toEqual([]);
    rmSync(p.dir, { recursive: true, force: true });
  });
});

describe("nothing half-written", () => {
  it("a malformed lockfile: an error naming it and the pointer; the cache is not touched", async () => {
    const p = project({ r1: MINI });
    writeFileSync(p.lockfile, JSON.stringify({ format: 1, revisions: { r1: { source: "local", commit: null, sha256: "nope" } } }));
    const e = await rejectionOf(pullSchemas(["r1"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs }));
    expect(e.location).toEqual({ file: p.lockfile, pointer: "/revisions/r1/sha256" });
    expect(existsSync(p.cacheDir)).toBe(false);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("a lockfile that cannot be written: the cache files written before it are undone", async () => {
    const p = project({ r1: MINI, "2027-01-01": MINI });
    // The lockfile's temporary file is a folder, so its write fails after the cache's.
    mkdirSync(`${p.lockfile}.tmp-${process.pid}`);
    const e = await rejectionOf(pullSchemas(["r1", "2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile, from: p.specs }));
    expect(e.location).toEqual({ file: p.lockfile });
    expect(e.message).toBe("cannot write the lockfile: a folder is in the way (EISDIR)");
    expect(existsSync(p.cacheDir)).toBe(false);
    expect(existsSync(p.lockfile)).toBe(false);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("a lockfile below a file: an error before anything is read or written", async () => {
    const p = project({ r1: MINI });
    writeFileSync(join(p.dir, "a-file"), "");
    const lockfile = join(p.dir, "a-file", "mcp-stubgen.lock.json");
    const e = await rejectionOf(pullSchemas(["r1"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile, from: p.specs }));
    expect(e.message).toMatch(/^cannot read the lockfile: .*a-file is a file, not a folder \(ENOTDIR\); expected a JSON file written by mcp-stubgen schema pull$/);
    expect(existsSync(p.cacheDir)).toBe(false);
    rmSync(p.dir, { recursive: true, force: true });
  });

  it("a local pin that is not cached and no --from: an error naming the lockfile and how to copy it again", async () => {
    const p = project();
    writeFileSync(p.lockfile, formatLockfile({ revisions: { "2027-01-01": { source: "local", commit: null, sha256: sha256Hex(MINI) } }, extensions: {} }));
    const e = await rejectionOf(pullSchemas(["2027-01-01"], { manifest: loopManifest(), cacheDir: p.cacheDir, lockfile: p.lockfile }));
    expect(e.location).toEqual({ file: p.lockfile });
    expect(e.message).toBe(
      `revision 2027-01-01 is pinned to a local copy (source "local") and is not in the cache; copy it again: mcp-stubgen schema pull 2027-01-01 --from DIR --cache ${p.cacheDir} --lockfile ${p.lockfile}, or download it at an upstream commit: --commit SHA`,
    );
    rmSync(p.dir, { recursive: true, force: true });
  });
});

function catchError(fn: () => unknown): StubgenError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StubgenError);
    return err as StubgenError;
  }
  throw new Error("expected a StubgenError");
}
