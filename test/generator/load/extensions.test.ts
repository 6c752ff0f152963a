/**
 * Known extensions (schema/revisions.json `extensions`): pulled and checked like revisions, cached
 * beside them, and read into the list of the messages the extension defines, whatever the shape
 * its schema gives them.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StubgenError } from "../../../generator/errors.js";
import { extensionMessages } from "../../../generator/load/extension-messages.js";
import { readSchemaDocument, sha256Hex } from "../../../generator/load/schema-document.js";
import {
  extensionCachePath,
  extensionUrl,
  listExtensions,
  loadExtension,
  readManifest,
  type ExtensionInfo,
  type Manifest,
} from "../../../generator/load/schema-source.js";
import { pullSchemas } from "../../../generator/load/schema-pull.js";
import { FIXTURES, TEST_CACHE_DIR } from "../../helpers/schemas.js";

const fixture = (name: string) => join(FIXTURES, "extensions", name);
const readFixture = (name: string) => readSchemaDocument(readFileSync(fixture(name), "utf8"), fixture(name));

const REVISION = JSON.stringify({ $defs: { A: { type: "object" } } });
const EXTENSION = readFileSync(fixture("allof-extension.json"), "utf8");
const extension: ExtensionInfo = {
  id: "jobs",
  identifier: "example.com/jobs",
  version: "v1",
  revisions: ["r1"],
  repository: "example/ext-jobs",
  commit: "c0ffee",
  path: "schema/v1/schema.json",
  sha256: sha256Hex(EXTENSION),
};
const manifest: Manifest = {
  upstream: { repository: "example/repo", commit: "abc123", urlTemplate: "https://example.invalid/{commit}/{revision}/schema.json" },
  revisions: [{ id: "r1", dialect: "2020-12", sha256: sha256Hex(REVISION) }],
  extensions: [extension],
};

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "stubgen-ext-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A --from folder laid out like ../shared/mcp-schema, with the given extension text. */
function sharedLayout(extensionText: string = EXTENSION): string {
  const from = tempDir();
  mkdirSync(join(from, "r1"), { recursive: true });
  writeFileSync(join(from, "r1", "schema.json"), REVISION);
  mkdirSync(join(from, "extensions", "jobs", "v1"), { recursive: true });
  writeFileSync(join(from, "extensions", "jobs", "v1", "schema.json"), extensionText);
  return from;
}

const caught = async (run: () => unknown): Promise<StubgenError> => {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(StubgenError);
    return error as StubgenError;
  }
  throw new Error("expected an error");
};

describe("extensionMessages", () => {
  it("finds allOf messages (JSON-RPC envelope + method const), links a request to its XResult, and skips a copied core type", () => {
    expect(extensionMessages(readFixture("allof-extension.json"))).toEqual([
      { kind: "request", method: "jobs/start", definition: "StartJobRequest", pointer: "/$defs/StartJobRequest", result: "StartJobResult" },
      { kind: "request", method: "jobs/stop", definition: "StopJobRequest", pointer: "/$defs/StopJobRequest", result: null },
      { kind: "notification", method: "notifications/jobs/done", definition: "JobDoneNotification", pointer: "/$defs/JobDoneNotification", result: null },
    ]);
  });

  it("finds self-contained messages of another shape (draft-07, jsonrpc + method const, no allOf): id makes a request", () => {
    expect(extensionMessages(readFixture("plain-extension.json"))).toEqual([
      { kind: "request", method: "locks/acquire", definition: "LockRequest", pointer: "/definitions/LockRequest", result: null },
      { kind: "notification", method: "notifications/locks/released", definition: "LockReleasedNotification", pointer: "/definitions/LockReleasedNotification", result: null },
    ]);
  });

  it("an allOf message may mix in other definitions; without an envelope, or with a method that is not a string, it is no message", () => {
    const envelope = { type: "object", properties: { jsonrpc: { const: "2.0" }, id: { type: "string" }, method: { type: "string" } } };
    const method = (value: unknown) => ({ type: "object", properties: { method: { const: value } } });
    const doc = readSchemaDocument(
      JSON.stringify({
        $defs: {
          JSONRPCRequest: envelope,
          Traced: { type: "object", properties: { trace: { type: "string" } } },
          MixedRequest: { allOf: [{ $ref: "#/$defs/JSONRPCRequest" }, { $ref: "#/$defs/Traced" }, method("x/mixed")] },
          BareRequest: { allOf: [method("x/bare")] },
          NumberRequest: { allOf: [{ $ref: "#/$defs/JSONRPCRequest" }, method(5)] },
        },
      }),
      "mixed.json",
    );
    expect(extensionMessages(doc).map((m) => [m.definition, m.kind, m.method])).toEqual([["MixedRequest", "request", "x/mixed"]]);
  });

  it("two definitions of one method: an error naming the file and both pointers", async () => {
    const text = JSON.parse(EXTENSION) as { $defs: Record<string, unknown> };
    text.$defs["StartJobAgainRequest"] = text.$defs["StartJobRequest"];
    const doc = readSchemaDocument(JSON.stringify(text), "dup.json");
    const error = await caught(() => extensionMessages(doc));
    expect(error.location.file).toBe("dup.json");
    expect(error.location.pointer).toBe("/$defs/StartJobAgainRequest");
    expect(error.message).toContain("/$defs/StartJobRequest");
    expect(error.message).toContain('"jobs/start"');
  });

  it("the Tasks extension (from the test cache): exactly its three requests and its notification", () => {
    const doc = loadExtension("tasks", { cacheDir: TEST_CACHE_DIR });
    expect(extensionMessages(doc).map(({ kind, method, definition, result }) => ({ kind, method, definition, result }))).toEqual([
      { kind: "request", method: "tasks/cancel", definition: "CancelTaskRequest", result: "CancelTaskResult" },
      { kind: "request", method: "tasks/get", definition: "GetTaskRequest", result: "GetTaskResult" },
      { kind: "notification", method: "notifications/tasks", definition: "TaskStatusNotification", result: null },
      { kind: "request", method: "tasks/update", definition: "UpdateTaskRequest", result: "UpdateTaskResult" },
    ]);
  });
});

describe("the package's manifest", () => {
  it("pins the Tasks extension for 2026-07-28 and draft, to a raw URL of its own repository", () => {
    const tasks = readManifest().extensions?.find((e) => e.id === "tasks");
    if (tasks?.bundled !== undefined) throw new Error("the Tasks extension is pinned upstream, not bundled");
    expect(tasks).toMatchObject({ identifier: "io.modelcontextprotocol/tasks", revisions: ["2026-07-28", "draft"] });
    expect(extensionUrl(tasks!)).toBe(`https://raw.githubusercontent.com/modelcontextprotocol/ext-tasks/${tasks!.commit}/schema/draft/schema.json`);
    expect(tasks!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("schema pull and list with extensions", () => {
  it("with no name: every revision and extension, the extension cached as extensions/<id>/schema.json", async () => {
    const cacheDir = tempDir();
    const pulled = await pullSchemas([], { manifest, lockfile: false, cacheDir, from: sharedLayout() });
    expect(pulled.map(({ kind, revision }) => [kind, revision])).toEqual([
      ["revision", "r1"],
      ["extension", "jobs"],
    ]);
    expect(pulled[1]!.path).toBe(extensionCachePath(cacheDir, "jobs"));
    expect(readFileSync(extensionCachePath(cacheDir, "jobs"), "utf8")).toBe(EXTENSION);
    expect(listExtensions({ manifest, cacheDir }).map((e) => [e.id, e.state])).toEqual([["jobs", "cached"]]);
    expect(loadExtension("jobs", { manifest, cacheDir }).defs.has("StartJobRequest")).toBe(true);
  });

  it("an extension named alone is pulled alone; a second pull leaves the cached file untouched", async () => {
    const cacheDir = tempDir();
    const from = sharedLayout();
    const [first] = await pullSchemas(["jobs"], { manifest, lockfile: false, cacheDir, from });
    expect(first).toMatchObject({ kind: "extension", revision: "jobs" });
    expect(existsSync(join(cacheDir, "r1"))).toBe(false);
    const before = statSync(first!.path);
    await pullSchemas(["jobs"], { manifest, lockfile: false, cacheDir, from });
    const after = statSync(first!.path);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it("downloads from the pinned URL (or extensionUrlFor) when there is no --from", async () => {
    const cacheDir = tempDir();
    const asked: string[] = [];
    const fetchImpl = (async (url: string) => {
      asked.push(url);
      return new Response(EXTENSION);
    }) as unknown as typeof fetch;
    await pullSchemas(["jobs"], { manifest, lockfile: false, cacheDir, fetchImpl });
    expect(asked).toEqual(["https://raw.githubusercontent.com/example/ext-jobs/c0ffee/schema/v1/schema.json"]);
    expect(existsSync(extensionCachePath(cacheDir, "jobs"))).toBe(true);
  });

  it("a sha256 mismatch names the extension and the file, and leaves the cache as it was", async () => {
    const cacheDir = tempDir();
    const from = sharedLayout(EXTENSION.replace("jobs/stop", "jobs/halt"));
    const error = await caught(() => pullSchemas([], { manifest, lockfile: false, cacheDir, from }));
    expect(error.message).toMatch(
      /^sha256 mismatch for extension jobs: expected [0-9a-f]{64} \(pinned by the package's schema\/revisions\.json\), got [0-9a-f]{64}; jobs changed upstream: .*; the cache was not changed$/,
    );
    expect(error.location.file).toBe(join(from, "extensions", "jobs", "v1", "schema.json"));
    expect(existsSync(join(cacheDir, "r1"))).toBe(false); // nothing written, not even the good revision
  });

  it("a --from folder without the extension: names the expected path and layout", async () => {
    const from = tempDir();
    const error = await caught(() => pullSchemas(["jobs"], { manifest, lockfile: false, cacheDir: tempDir(), from }));
    expect(error.location.file).toBe(join(from, "extensions", "jobs", "v1", "schema.json"));
    expect(error.message).toContain(join(from, "extensions", "<id>", "<version>", "schema.json"));
  });

  it("an unknown name lists the revisions and the extensions", async () => {
    const error = await caught(() => pullSchemas(["job"], { manifest, lockfile: false, cacheDir: tempDir() }));
    expect(error.message).toContain('unknown revision "job"; expected one of r1 or an extension: jobs');
  });

  it("loadExtension: not cached, tampered, unknown: each a clear error", async () => {
    const cacheDir = tempDir();
    const missing = await caught(() => loadExtension("jobs", { manifest, cacheDir }));
    expect(missing.message).toContain("the schema of extension jobs is not cached; run: mcp-stubgen schema pull jobs");
    expect(listExtensions({ manifest, cacheDir })[0]!.state).toBe("missing");
    mkdirSync(join(cacheDir, "extensions", "jobs"), { recursive: true });
    writeFileSync(extensionCachePath(cacheDir, "jobs"), `${EXTENSION} `);
    const tampered = await caught(() => loadExtension("jobs", { manifest, cacheDir }));
    expect(tampered.message).toContain(`does not match its sha256 ${extension.sha256}`);
    expect(listExtensions({ manifest, cacheDir })[0]!.state).toBe("sha256 mismatch");
    const unknown = await caught(() => loadExtension("nope", { manifest, cacheDir }));
    expect(unknown.message).toBe('unknown extension "nope"; expected one of jobs');
  });
});
