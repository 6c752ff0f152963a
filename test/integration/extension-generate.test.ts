/**
 * `generate --extension`: the Tasks extension merged into 2026-07-28 and draft gives strict,
 * deterministic output with each type once; a fixture extension of another shape goes through
 * the same path (its own manifest entry and table); bad selections fail before anything is written.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { StubgenError } from "../../generator/errors.js";
import { diff } from "../../generator/diff/load.js";
import { generate } from "../../generator/generate.js";
import { sha256Hex } from "../../generator/load/schema-document.js";
import { extensionCachePath, readManifest, type Manifest } from "../../generator/load/schema-source.js";
import type { ExtensionPolicy } from "../../generator/model/extensions.js";
import { FIXTURES, TEST_CACHE_DIR } from "../helpers/schemas.js";
import { typecheckFiles } from "../helpers/typecheck.js";

const TASKS_NEW = [
  "CancelTaskRequest", "CancelTaskResult", "CancelledTask", "CompletedTask", "CreateTaskResult", "DetailedTask", "FailedTask",
  "GetTaskRequest", "GetTaskResult", "InputRequiredTask", "Task", "TaskStatus", "TaskStatusNotification", "TaskStatusNotificationParams",
  "TaskSubscriptionAcknowledgedNotifications", "TaskSubscriptionNotifications", "TasksExtensionCapability", "UpdateTaskRequest", "UpdateTaskResult", "WorkingTask",
];
const files = (dir: string) => new Map(readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => [join(e.parentPath, e.name).slice(dir.length), readFileSync(join(e.parentPath, e.name), "utf8")]));
const exported = (types: string) => [...types.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);

describe("generate --extension tasks (2026-07-28, draft)", () => {
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "mcp-stubgen-ext-"));
    const result = await generate({ revisions: ["2026-07-28", "draft"], extensions: ["tasks"], out, cacheDir: TEST_CACHE_DIR });
    expect(result.revisions.map((r) => [r.revision, r.extensions])).toEqual([["2026-07-28", ["tasks"]], ["draft", ["tasks"]]]);
  });

  it("type-checks with zero diagnostics under the strictest options", () => {
    const all = ["2026-07-28", "draft", "runtime"].flatMap((r) => readdirSync(join(out, r), { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).map((f) => join(out, r, f)));
    expect(typecheckFiles(all)).toEqual([]);
  });

  it("exports every core type and each of the extension's 20 own types once, none renamed", async () => {
    const plain = mkdtempSync(join(tmpdir(), "mcp-stubgen-ext-plain-"));
    await generate({ revisions: ["2026-07-28"], out: plain, cacheDir: TEST_CACHE_DIR });
    const core = exported(readFileSync(join(plain, "2026-07-28", "types.ts"), "utf8"));
    const all = exported(readFileSync(join(out, "2026-07-28", "types.ts"), "utf8"));
    // The direction unions with the extension's messages, each right after the core's (below).
    expect(all.filter((n) => n.endsWith("WithExtensions"))).toEqual(["ClientRequestWithExtensions", "ServerNotificationWithExtensions"]);
    expect(all[all.indexOf("ClientRequest") + 1]).toBe("ClientRequestWithExtensions");
    const merged = all.filter((n) => !n.endsWith("WithExtensions"));
    expect(new Set(all).size).toBe(all.length);
    expect(merged).toEqual([...core, ...merged.slice(core.length)]);
    expect([...merged.slice(core.length)].sort()).toEqual([...TASKS_NEW].sort());
  });

  it("keeps the spec's own direction unions; ClientRequestWithExtensions and ServerNotificationWithExtensions add the extension's messages", () => {
    const types = readFileSync(join(out, "2026-07-28", "types.ts"), "utf8");
    const union = (name: string) => new RegExp(`^export type ${name} = \\((.*)\\)$`, "m").exec(types)?.[1]?.split(" | ");
    expect(union("ClientRequest")).not.toContain("GetTaskRequest");
    expect(union("ClientRequest")).toContain("CallToolRequest");
    expect(union("ClientRequestWithExtensions")).toEqual(["ClientRequest", "CancelTaskRequest", "GetTaskRequest", "UpdateTaskRequest"]);
    expect(union("ServerNotification")).not.toContain("TaskStatusNotification");
    expect(union("ServerNotificationWithExtensions")).toEqual(["ServerNotification", "TaskStatusNotification"]);
    // The catalog (what the client and server send and handle) still has the extension's methods.
    expect(readFileSync(join(out, "2026-07-28", "catalog.ts"), "utf8")).toContain('"tasks/get"');
  });

  it("names the extension's schema and sha256 in every file's header, and its types' source in their doc comments", () => {
    const { sha256 } = readManifest().extensions!.find((e) => e.id === "tasks")!;
    for (const name of ["types.ts", "catalog.ts", "validators.ts", "client.ts", "server.ts", "index.ts"]) {
      expect(readFileSync(join(out, "2026-07-28", name), "utf8").split("\n").slice(0, 4).join("\n")).toContain(`// With the extension tasks, schema sha256: ${sha256}`);
    }
    const types = readFileSync(join(out, "2026-07-28", "types.ts"), "utf8");
    expect(types).toContain("MCP extension tasks schema: `#/$defs/GetTaskRequest`");
    expect(types).toContain("MCP 2026-07-28 schema: `#/$defs/CallToolRequest`");
  });

  it("is deterministic: a second run into another folder is byte-identical, and --check finds nothing stale", async () => {
    const again = mkdtempSync(join(tmpdir(), "mcp-stubgen-ext-again-"));
    await generate({ revisions: ["2026-07-28", "draft"], extensions: ["tasks"], out: again, cacheDir: TEST_CACHE_DIR });
    expect(files(again)).toEqual(files(out));
    const check = await generate({ revisions: ["2026-07-28", "draft"], extensions: ["tasks"], out, cacheDir: TEST_CACHE_DIR, check: true });
    expect(check.check).toEqual({ stale: [], missing: [], extra: [] });
    // Without the extension the same folder is stale: the extension is part of what --check compares.
    const without = await generate({ revisions: ["2026-07-28"], out, cacheDir: TEST_CACHE_DIR, check: true });
    expect(without.check?.stale).toEqual(expect.arrayContaining(["2026-07-28/types.ts", "2026-07-28/catalog.ts"]));
  });

  it("the catalog module lists the extension's methods with their senders", () => {
    const catalog = readFileSync(join(out, "2026-07-28", "catalog.ts"), "utf8");
    for (const method of ["tasks/get", "tasks/update", "tasks/cancel", "notifications/tasks"]) expect(catalog).toContain(JSON.stringify(method));
  });
});

describe("generate --extension: selection errors, nothing written", () => {
  it("an extension that extends none of the selected revisions", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "mcp-stubgen-ext-bad-")), "out");
    await expect(generate({ revisions: ["2025-11-25"], extensions: ["tasks"], out, cacheDir: TEST_CACHE_DIR })).rejects.toThrow(
      "extension tasks (io.modelcontextprotocol/tasks) extends the revisions 2026-07-28, draft; none of them is selected (2025-11-25)",
    );
    expect(existsSync(out)).toBe(false);
  });

  it("an unknown extension", async () => {
    await expect(generate({ revisions: ["2026-07-28"], extensions: ["jobs"], out: join(tmpdir(), "never"), cacheDir: TEST_CACHE_DIR })).rejects.toThrow('unknown extension "jobs"; expected one of tasks');
  });

  it("an extension not in the cache names the command that fills it", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-ext-cache-"));
    mkdirSync(join(cacheDir, "2026-07-28"));
    copyFileSync(join(TEST_CACHE_DIR, "2026-07-28", "schema.json"), join(cacheDir, "2026-07-28", "schema.json"));
    const run = generate({ revisions: ["2026-07-28"], extensions: ["tasks"], out: join(cacheDir, "out"), cacheDir });
    await expect(run).rejects.toBeInstanceOf(StubgenError);
    await expect(run).rejects.toThrow(`the schema of extension tasks is not cached; run: mcp-stubgen schema pull tasks --cache ${cacheDir}`);
    expect(existsSync(join(cacheDir, "out"))).toBe(false);
  });
});

describe("generate --extension: a fixture extension of another shape (draft-07, self-contained messages)", () => {
  const locks: ExtensionPolicy = {
    senders: { "locks/acquire": ["client"], "notifications/locks/released": ["server"] },
    httpNameParams: {},
    widenedResults: {},
    cancelRequest: null,
    runtime: null,
  };

  it("merges into a revision the manifest says it extends, and the output type-checks", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "mcp-stubgen-ext-locks-"));
    // The fixture without its copy of CompleteRequest, which is a stand-in unlike 2026-07-28's.
    const plain = JSON.parse(readFileSync(join(FIXTURES, "extensions", "plain-extension.json"), "utf8")) as { definitions: Record<string, unknown> };
    delete plain.definitions["CompleteRequest"];
    const fixture = join(cacheDir, "locks.json");
    writeFileSync(fixture, JSON.stringify(plain));
    const base = readManifest();
    const manifest: Manifest = {
      ...base,
      extensions: [{ id: "locks", identifier: "example.com/locks", version: "1", revisions: ["2026-07-28"], repository: "example/locks", commit: "0".repeat(40), path: "schema.json", sha256: sha256Hex(readFileSync(fixture)) }],
    };
    mkdirSync(join(cacheDir, "2026-07-28"));
    copyFileSync(join(TEST_CACHE_DIR, "2026-07-28", "schema.json"), join(cacheDir, "2026-07-28", "schema.json"));
    mkdirSync(join(extensionCachePath(cacheDir, "locks"), ".."), { recursive: true });
    copyFileSync(fixture, extensionCachePath(cacheDir, "locks"));
    const out = join(cacheDir, "out");
    await generate({ revisions: ["2026-07-28"], extensions: ["locks"], extensionPolicies: { locks }, manifest, out, cacheDir });
    const catalog = readFileSync(join(out, "2026-07-28", "catalog.ts"), "utf8");
    expect(catalog).toContain('"locks/acquire"');
    expect(catalog).toContain('"notifications/locks/released"');
    const types = exported(readFileSync(join(out, "2026-07-28", "types.ts"), "utf8"));
    // RequestId is the core's (the fixture's copy equals it but for annotations), so it is there once.
    expect(types.filter((t) => t === "RequestId")).toHaveLength(1);
    expect(types.slice(-2)).toEqual(["LockRequest", "LockReleasedNotification"]);
    const all = ["2026-07-28", "runtime"].flatMap((r) => readdirSync(join(out, r), { recursive: true }).map(String).filter((f) => f.endsWith(".ts")).map((f) => join(out, r, f)));
    expect(typecheckFiles(all)).toEqual([]);
  });
});

describe("diff with extensions", () => {
  it("--to-extension tasks: the extension's methods and types are added, tools/call's result changes, the side is named 2026-07-28+tasks", async () => {
    const result = await diff({ from: "2026-07-28", to: "2026-07-28", toExtensions: ["tasks"], cacheDir: TEST_CACHE_DIR });
    expect([result.from, result.to]).toEqual(["2026-07-28", "2026-07-28+tasks"]);
    expect(result.methods.added.map((m) => m.method).sort()).toEqual(["notifications/tasks", "tasks/cancel", "tasks/get", "tasks/update"]);
    expect(result.methods.removed).toEqual([]);
    expect(result.methods.changed.map((c) => [c.method, c.change, c.after])).toEqual([["tools/call", "result", "CallToolResult | InputRequiredResult | CreateTaskResult"]]);
    expect(result.definitions.added.map((d) => d.definition).sort()).toEqual([...TASKS_NEW].sort());
    // The other way round the extension's methods are removed (breaking for whoever used them).
    const back = await diff({ from: "2026-07-28", to: "2026-07-28", fromExtensions: ["tasks"], cacheDir: TEST_CACHE_DIR });
    expect(back.methods.removed.map((m) => m.method).sort()).toEqual(["notifications/tasks", "tasks/cancel", "tasks/get", "tasks/update"]);
    expect(back.summary.breaking).toBeGreaterThanOrEqual(4);
  });

  it("an extension that does not extend the side's revision: an error", async () => {
    await expect(diff({ from: "2025-11-25", to: "2026-07-28", fromExtensions: ["tasks"], cacheDir: TEST_CACHE_DIR })).rejects.toThrow("none of them is selected (2025-11-25)");
  });
});
