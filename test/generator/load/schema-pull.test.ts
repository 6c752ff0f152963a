/**
 * schema pull by download (no --from): the file is fetched from the revision's URL, checked
 * against the manifest's sha256 and only then written to the cache. A loopback HTTP server
 * stands in for the pinned upstream URL.
 */
import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StubgenError } from "../../../generator/errors.js";
import { localSource, readManifest, upstreamUrl, type Manifest } from "../../../generator/load/schema-source.js";
import { pullSchemas } from "../../../generator/load/schema-pull.js";
import { sha256Hex } from "../../../generator/load/schema-document.js";

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

function catchError(fn: () => unknown): StubgenError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StubgenError);
    return err as StubgenError;
  }
  throw new Error("expected a StubgenError");
}
