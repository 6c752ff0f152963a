/**
 * The lockfile from the command line (docs/schema-cache.md, README "When the spec publishes a new
 * revision"): `schema pull` pins what it pulls in mcp-stubgen.lock.json; a revision this version
 * does not know is pulled offline (--from) or at an upstream commit (--commit, served here by a
 * loopback HTTP server) and then generated offline; a changed schema is refused with what changed
 * and the command that accepts it; the lockfile's pins win over the manifest's; a committed
 * lockfile regenerates the same bytes in a fresh folder; a malformed one is an error naming it.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliFixture, expectOneErrorLine, fileList, lines, manifestSha256, runCli, snapshot, tempDirs, TEST_CACHE_DIR } from "./support.js";
import { fixturePath } from "../support.js";

const tmp = tempDirs();
const NEW = "2027-01-01";
const MINI = readFileSync(cliFixture("mini.json"), "utf8");
const CHANGED = readFileSync(fixturePath("pins/mini-changed.json"), "utf8");
const sha = (text: string | Buffer) => createHash("sha256").update(text).digest("hex");
const CHANGE = "1 definition added (ShoutRequest), 2 definitions changed (ClientRequest, EchoResult), 1 method added (demo/shout)";

/** A working folder with schema folders laid out as <name>/<revision>/schema.json. */
function project(specs: Readonly<Record<string, Readonly<Record<string, string>>>> = {}): string {
  const cwd = tmp();
  for (const [folder, revisions] of Object.entries(specs)) {
    for (const [revision, text] of Object.entries(revisions)) {
      mkdirSync(join(cwd, folder, revision), { recursive: true });
      writeFileSync(join(cwd, folder, revision, "schema.json"), text);
    }
  }
  return cwd;
}

const lockOf = (cwd: string, file = "mcp-stubgen.lock.json") => JSON.parse(readFileSync(join(cwd, file), "utf8")) as { revisions: Record<string, unknown>; extensions: Record<string, unknown> };
/** The command a refusal prints after "to accept it: ", as arguments of the CLI. */
const acceptCommand = (line: string) => {
  const command = /; to accept it: mcp-stubgen (.*)$/.exec(line)?.[1];
  expect(command, line).toBeDefined();
  return command!.split(" ");
};

describe("a revision this version does not know, pulled and generated offline", () => {
  it("schema pull NEW --from DIR pins it; generate, catalog, diff and schema list then use it from the cache", async () => {
    const cwd = project({ specs: { [NEW]: MINI, "2027-06-01": CHANGED } });
    const pulled = await runCli(["schema", "pull", NEW, "--from", "specs"], cwd);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(lines(pulled.stdout)).toEqual([
      `${NEW}: .mcp-stubgen/schema/${NEW}/schema.json (new revision, pinned in mcp-stubgen.lock.json: sha256 ${sha(MINI).slice(0, 12)}…, from specs/${NEW}/schema.json)`,
    ]);
    expect(readFileSync(join(cwd, ".mcp-stubgen", "schema", NEW, "schema.json"), "utf8")).toBe(MINI);
    expect(lockOf(cwd)).toMatchObject({ format: 1, extensions: {}, revisions: { [NEW]: { commit: null, sha256: sha(MINI), source: "local" } } });

    const generated = await runCli(["generate", "--revision", NEW], cwd);
    expect(generated.code, generated.stderr).toBe(0);
    expect(lines(generated.stdout).at(-1)).toBe(`wrote out/${NEW}/ (types.ts, catalog.ts, validators.ts, stdio.ts, stdio-spawn.ts, client.ts, server.ts, index.ts)`);
    expect(readFileSync(join(cwd, "out", NEW, "catalog.ts"), "utf8")).toContain(sha(MINI));

    const catalog = await runCli(["catalog", "-r", NEW, "--json"], cwd);
    expect(catalog.code, catalog.stderr).toBe(0);
    expect((JSON.parse(catalog.stdout) as { methods: Array<{ method: string }> }).methods.map((m) => m.method).sort()).toEqual(["demo/echo", "ping"]);

    expect((await runCli(["schema", "pull", "2027-06-01", "--from", "specs"], cwd)).code).toBe(0);
    const diff = await runCli(["diff", "--from", NEW, "--to", "2027-06-01", "--json"], cwd);
    expect(diff.code, diff.stderr).toBe(0);
    expect((JSON.parse(diff.stdout) as { methods: { added: Array<{ method: string }> } }).methods.added.map((m) => m.method)).toEqual(["demo/shout"]);

    const listed = await runCli(["schema", "list"], cwd);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = lines(listed.stdout);
    expect(rows).toContain(`${NEW}  2020-12   cached   .mcp-stubgen/schema/${NEW}/schema.json`);
    expect(rows.at(-1)).toBe(`pinned by mcp-stubgen.lock.json: ${NEW}, 2027-06-01 (the others by the package's schema/revisions.json)`);
  });

  it("--from FILE names the revision it holds", async () => {
    const cwd = project();
    writeFileSync(join(cwd, "next.json"), MINI);
    const r = await runCli(["schema", "pull", "--revision", NEW, "--from", "next.json"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`(new revision, pinned in mcp-stubgen.lock.json: sha256 ${sha(MINI).slice(0, 12)}…, from next.json)`);
  });

  it("neither known nor locked: generate and schema pull say how to pull it; nothing is written", async () => {
    const cwd = project();
    const before = snapshot(cwd);
    const generate = expectOneErrorLine(await runCli(["generate", "-r", NEW], cwd));
    expect(generate).toContain(`or one pinned in mcp-stubgen.lock.json (none); to add a new revision, pull it first: mcp-stubgen schema pull ${NEW} --from DIR, or --commit SHA to download it`);
    const pull = expectOneErrorLine(await runCli(["schema", "pull", NEW], cwd));
    expect(pull).toContain(`a revision this version does not know is pinned from a local copy or an upstream commit: mcp-stubgen schema pull ${NEW} --from DIR, or --commit SHA`);
    expect(snapshot(cwd)).toEqual(before);
  });

  it("a label that is no safe folder name is refused, saying what a label must be", async () => {
    const cwd = project({ specs: { x: MINI } });
    for (const label of ["../x", "runtime"]) {
      const line = expectOneErrorLine(await runCli(["schema", "pull", label, "--from", "specs"], cwd));
      expect(line).toMatch(/^mcp-stubgen: error: invalid revision label ".*": .*; expected a revision label of letters, digits, "\.", "_" and "-" starting with a letter or digit/);
    }
    expect(existsSync(join(cwd, "mcp-stubgen.lock.json"))).toBe(false);
  });
});

describe("a schema that changed against its pin", () => {
  it("is refused with what changed and the command that accepts it; cache and lockfile untouched; the printed command accepts it", async () => {
    const cwd = project({ specs: { [NEW]: MINI } });
    expect((await runCli(["schema", "pull", NEW, "--from", "specs"], cwd)).code).toBe(0);
    writeFileSync(join(cwd, "specs", NEW, "schema.json"), CHANGED);
    const before = snapshot(join(cwd, ".mcp-stubgen"));
    const lockBefore = readFileSync(join(cwd, "mcp-stubgen.lock.json"));
    const line = expectOneErrorLine(await runCli(["schema", "pull", NEW, "--from", "specs"], cwd));
    expect(line).toBe(
      `mcp-stubgen: error: specs/${NEW}/schema.json: sha256 mismatch for revision ${NEW}: expected ${sha(MINI)} (pinned by mcp-stubgen.lock.json), got ${sha(CHANGED)}; ` +
        `${NEW} changed upstream: ${CHANGE}; the cache and mcp-stubgen.lock.json were not changed; to accept it: mcp-stubgen schema pull ${NEW} --from specs --accept`,
    );
    expect(snapshot(join(cwd, ".mcp-stubgen"))).toEqual(before);
    expect(readFileSync(join(cwd, "mcp-stubgen.lock.json"))).toEqual(lockBefore);

    const accepted = await runCli(acceptCommand(line), cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(lines(accepted.stdout)).toEqual([
      `${NEW}: .mcp-stubgen/schema/${NEW}/schema.json (changed upstream: ${CHANGE}; re-pinned in mcp-stubgen.lock.json: sha256 ${sha(CHANGED).slice(0, 12)}…, from specs/${NEW}/schema.json)`,
    ]);
    expect(lockOf(cwd).revisions[NEW]).toEqual({ commit: null, sha256: sha(CHANGED), source: "local" });
    const catalog = await runCli(["catalog", "-r", NEW], cwd);
    expect(catalog.stdout).toContain("demo/shout");
  });

  it("a known revision: the summary comes from the diff of the published schema; the flags of the run are in the command", async () => {
    const REV = "2025-11-25";
    const published = readFileSync(join(TEST_CACHE_DIR, REV, "schema.json"), "utf8");
    const changed = JSON.parse(published) as { $defs: Record<string, { properties?: Record<string, unknown> }> };
    changed.$defs["Tool"]!.properties!["shiny"] = { type: "boolean" };
    const cwd = project({ upstream: { [REV]: JSON.stringify(changed, null, 2) } });
    expect((await runCli(["schema", "pull", REV, "--from", TEST_CACHE_DIR, "--cache", "c", "--lockfile", "pins.json"], cwd)).code).toBe(0);
    expect(lockOf(cwd, "pins.json").revisions[REV]).toEqual({
      commit: "b0f60ba5409db7a6582440a7b473cc0398890f15",
      sha256: manifestSha256(REV),
      source: `https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/b0f60ba5409db7a6582440a7b473cc0398890f15/schema/${REV}/schema.json`,
    });
    const line = expectOneErrorLine(await runCli(["schema", "pull", REV, "--from", "upstream", "--cache", "c", "--lockfile", "pins.json"], cwd));
    expect(line).toContain(`(pinned by pins.json), got `);
    expect(line).toContain(`; ${REV} changed upstream: 1 definition changed (Tool); the cache and pins.json were not changed; `);
    expect(line).toMatch(new RegExp(`to accept it: mcp-stubgen schema pull ${REV} --from upstream --cache c --lockfile /\\S+/pins.json --accept$`));
    const accepted = await runCli(acceptCommand(line), cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(lockOf(cwd, "pins.json").revisions[REV]).toMatchObject({ commit: null, source: "local" });
  });
});

describe("schema pull --commit SHA (upstream served on loopback)", () => {
  const SHA = "0123456789abcdef0123456789abcdef01234567";
  const REV = "2025-11-25";
  let server: Server;
  let upstream: string;
  const served = new Map<string, string>();
  const requested: string[] = [];
  const env = () => ({ NODE_OPTIONS: `--import ${pathToFileURL(cliFixture("upstream-redirect/register.mjs")).href}`, MCP_STUBGEN_TEST_UPSTREAM: upstream });

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? "");
      const body = served.get(req.url ?? "");
      res.writeHead(body === undefined ? 404 : 200).end(body ?? "not found");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    upstream = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    served.set(`/modelcontextprotocol/modelcontextprotocol/${SHA}/schema/${REV}/schema.json`, readFileSync(join(TEST_CACHE_DIR, REV, "schema.json"), "utf8"));
    served.set(`/modelcontextprotocol/modelcontextprotocol/${SHA}/schema/${NEW}/schema.json`, MINI);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("pins a known and a new revision to the commit; generate then works offline; a plain pull downloads the pinned URL", async () => {
    const cwd = project();
    const url = (rev: string) => `https://raw.githubusercontent.com/modelcontextprotocol/modelcontextprotocol/${SHA}/schema/${rev}/schema.json`;
    const r = await runCli(["schema", "pull", REV, NEW, "--commit", SHA], cwd, env());
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([
      `${REV}: .mcp-stubgen/schema/${REV}/schema.json (sha256 ok, re-pinned in mcp-stubgen.lock.json to commit ${SHA}, from ${url(REV)})`,
      `${NEW}: .mcp-stubgen/schema/${NEW}/schema.json (new revision, pinned in mcp-stubgen.lock.json: sha256 ${sha(MINI).slice(0, 12)}… at commit ${SHA}, from ${url(NEW)})`,
    ]);
    expect(lockOf(cwd).revisions).toEqual({
      [REV]: { commit: SHA, sha256: manifestSha256(REV), source: url(REV) },
      [NEW]: { commit: SHA, sha256: sha(MINI), source: url(NEW) },
    });
    const generated = await runCli(["generate", "-r", NEW, "-r", REV], cwd);
    expect(generated.code, generated.stderr).toBe(0);
    requested.length = 0;
    const again = await runCli(["schema", "pull", NEW], cwd, env());
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout)).toEqual([`${NEW}: .mcp-stubgen/schema/${NEW}/schema.json (sha256 ok, from ${url(NEW)})`]);
    expect(requested).toEqual([`/modelcontextprotocol/modelcontextprotocol/${SHA}/schema/${NEW}/schema.json`]);
  });

  it("a SHA that is not 40 hex digits, or a commit without the revision: one error line, nothing written", async () => {
    const cwd = project();
    expect(expectOneErrorLine(await runCli(["schema", "pull", REV, "--commit", "main"], cwd, env()))).toBe(
      'mcp-stubgen: error: --commit "main": expected a full commit SHA, 40 hex digits (e.g. b0f60ba5409db7a6582440a7b473cc0398890f15)',
    );
    const missing = expectOneErrorLine(await runCli(["schema", "pull", "2027-06-01", "--commit", SHA], cwd, env()));
    expect(missing).toContain(`/${SHA}/schema/2027-06-01/schema.json: cannot download the schema: HTTP 404`);
    expect(fileList(cwd)).toEqual([]);
  });
});

describe("the lockfile's pins win over the manifest's", () => {
  const REV = "2025-06-18";
  const published = () => readFileSync(join(TEST_CACHE_DIR, REV, "schema.json"), "utf8");
  const modified = () => `${published()}\n`;

  it("a cache holding the locked bytes generates; one holding the manifest's bytes is refused naming the lockfile", async () => {
    const cwd = project({ cache: { [REV]: modified() } });
    writeFileSync(
      join(cwd, "mcp-stubgen.lock.json"),
      `${JSON.stringify({ format: 1, revisions: { [REV]: { source: "local", commit: null, sha256: sha(modified()) } } }, null, 2)}\n`,
    );
    const ok = await runCli(["generate", "-r", REV, "--cache", "cache"], cwd);
    expect(ok.code, ok.stderr).toBe(0);
    writeFileSync(join(cwd, "cache", REV, "schema.json"), published());
    expect(expectOneErrorLine(await runCli(["generate", "-r", REV, "--cache", "cache", "--force"], cwd))).toBe(
      `mcp-stubgen: error: cache/${REV}/schema.json: the cached schema of revision ${REV} does not match its sha256 ${sha(modified())} (pinned in mcp-stubgen.lock.json); ` +
        `run: mcp-stubgen schema pull ${REV} --cache cache --from DIR (it is pinned to a local copy)`,
    );
    const listed = await runCli(["schema", "list", "--cache", "cache"], cwd);
    expect(lines(listed.stdout)).toContain(`${REV}  draft-07  sha256 mismatch  cache/${REV}/schema.json`);
  });
});

describe("a committed lockfile regenerates the same bytes in a fresh folder", () => {
  it("pull + generate in one folder, then in another with only the config and the lockfile: identical output; changed schemas are refused there", async () => {
    const config = `${JSON.stringify({ revisions: [NEW, "2025-11-25"], out: "src/mcp" }, null, 2)}\n`;
    const first = project({ specs: { [NEW]: MINI } });
    cpSync(join(TEST_CACHE_DIR, "2025-11-25"), join(first, "specs", "2025-11-25"), { recursive: true });
    writeFileSync(join(first, "mcp-stubgen.config.json"), config);
    expect((await runCli(["schema", "pull", NEW, "2025-11-25", "--from", "specs"], first)).code).toBe(0);
    expect((await runCli(["generate"], first)).code).toBe(0);

    const fresh = project();
    writeFileSync(join(fresh, "mcp-stubgen.config.json"), config);
    cpSync(join(first, "mcp-stubgen.lock.json"), join(fresh, "mcp-stubgen.lock.json"));
    const lockBefore = readFileSync(join(fresh, "mcp-stubgen.lock.json"));
    const pulled = await runCli(["schema", "pull", "--from", join(first, "specs")], fresh);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(lines(pulled.stdout).map((l) => l.replace(/ \(.*$/, ""))).toEqual([`${NEW}: .mcp-stubgen/schema/${NEW}/schema.json`, "2025-11-25: .mcp-stubgen/schema/2025-11-25/schema.json"]);
    expect(readFileSync(join(fresh, "mcp-stubgen.lock.json"))).toEqual(lockBefore);
    expect((await runCli(["generate"], fresh)).code).toBe(0);
    const files = fileList(join(first, "src", "mcp"));
    expect(fileList(join(fresh, "src", "mcp"))).toEqual(files);
    for (const f of files) expect(readFileSync(join(fresh, "src", "mcp", f)), f).toEqual(readFileSync(join(first, "src", "mcp", f)));

    // CI with other bytes for a pinned revision: refused, nothing written.
    const ci = project({ specs: { [NEW]: CHANGED } });
    cpSync(join(TEST_CACHE_DIR, "2025-11-25"), join(ci, "specs", "2025-11-25"), { recursive: true });
    writeFileSync(join(ci, "mcp-stubgen.config.json"), config);
    cpSync(join(first, "mcp-stubgen.lock.json"), join(ci, "mcp-stubgen.lock.json"));
    const before = snapshot(ci);
    const line = expectOneErrorLine(await runCli(["schema", "pull", "--from", "specs"], ci));
    expect(line).toContain(`${NEW} changed upstream: ${Buffer.byteLength(CHANGED)} bytes now (the pinned copy is not in the cache to compare)`);
    expect(line).toMatch(new RegExp(`to accept it: mcp-stubgen schema pull ${NEW} 2025-11-25 --from specs --accept$`));
    expect(snapshot(ci)).toEqual(before);
  });
});

describe("where the lockfile is, and a bad one", () => {
  it("beside the config file (--config), or where the config's lockfile or --lockfile says", async () => {
    const cwd = project({ specs: { [NEW]: MINI } });
    mkdirSync(join(cwd, "conf"));
    writeFileSync(join(cwd, "conf", "stubgen.json"), "{}\n");
    expect((await runCli(["schema", "pull", NEW, "--from", "specs", "--config", "conf/stubgen.json"], cwd)).code).toBe(0);
    expect(Object.keys(lockOf(cwd, "conf/mcp-stubgen.lock.json").revisions)).toEqual([NEW]);
    writeFileSync(join(cwd, "conf", "stubgen.json"), `${JSON.stringify({ lockfile: "pins/lock.json" })}\n`);
    expect((await runCli(["schema", "pull", NEW, "--from", "specs", "--config", "conf/stubgen.json"], cwd)).code).toBe(0);
    expect(existsSync(join(cwd, "conf", "pins", "lock.json"))).toBe(true);
    expect((await runCli(["schema", "pull", NEW, "--from", "specs", "--config", "conf/stubgen.json", "--lockfile", "flag.lock.json"], cwd)).code).toBe(0);
    expect(existsSync(join(cwd, "flag.lock.json"))).toBe(true);
    expect(existsSync(join(cwd, "mcp-stubgen.lock.json"))).toBe(false);
  });

  it('"lockfile": false: no lockfile is read or written, and a new revision cannot be pinned', async () => {
    const cwd = project({ specs: { [NEW]: MINI } });
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), `${JSON.stringify({ lockfile: false })}\n`);
    const line = expectOneErrorLine(await runCli(["schema", "pull", NEW, "--from", "specs"], cwd));
    expect(line).toMatch(/^mcp-stubgen: error: unknown revision "2027-01-01"; expected one of 2024-11-05, .* \(a schema of your own needs no pull/);
    expect((await runCli(["schema", "pull", "2025-11-25", "--from", TEST_CACHE_DIR], cwd)).code).toBe(0);
    expect(existsSync(join(cwd, "mcp-stubgen.lock.json"))).toBe(false);
  });

  it("a config lockfile that is neither a path nor false: the file and the pointer", async () => {
    const cwd = project();
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), `${JSON.stringify({ lockfile: 3 })}\n`);
    expect(expectOneErrorLine(await runCli(["schema", "list"], cwd))).toBe(
      `mcp-stubgen: error: ${join(cwd, "mcp-stubgen.config.json")}#/lockfile: invalid config: expected a file path (the lockfile of the schema pins, relative to this file), or false for none`,
    );
  });

  it("a malformed lockfile: every command names it and the pointer (or line) of the mistake; nothing written", async () => {
    const cwd = project({ specs: { [NEW]: MINI } });
    const file = join(cwd, "mcp-stubgen.lock.json");
    writeFileSync(file, `${JSON.stringify({ format: 1, revisions: { [NEW]: { source: "/home/me/specs", commit: null, sha256: sha(MINI) } } }, null, 2)}\n`);
    const before = snapshot(cwd);
    const expected = `mcp-stubgen: error: ${file}#/revisions/${NEW}/source: invalid lockfile: expected "local" or the http(s) URL the schema was downloaded from`;
    for (const args of [["schema", "pull", NEW, "--from", "specs"], ["schema", "list"], ["generate", "-r", "2025-11-25", "--cache", TEST_CACHE_DIR], ["catalog", "-r", "2025-11-25", "--cache", TEST_CACHE_DIR]]) {
      expect(expectOneErrorLine(await runCli(args, cwd)), args.join(" ")).toBe(expected);
    }
    expect(snapshot(cwd)).toEqual(before);
    writeFileSync(file, '{\n  "format": 1,\n  "revisions": {\n');
    expect(expectOneErrorLine(await runCli(["generate", "-r", "2025-11-25", "--cache", TEST_CACHE_DIR], cwd))).toMatch(
      new RegExp(`^mcp-stubgen: error: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:4:1: invalid JSON: `),
    );
    expect(existsSync(join(cwd, "out"))).toBe(false);
    expect(existsSync(join(cwd, ".mcp-stubgen"))).toBe(false);
  });
});
