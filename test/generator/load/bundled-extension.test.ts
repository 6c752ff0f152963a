/**
 * A bundled extension (schema/revisions.json `"bundled": true`): the Skills extension, whose
 * specification publishes no JSON Schema, so the project wrote one (schema/extensions/skills/).
 * It is read from the package, checked against the manifest's sha256, and never downloaded,
 * cached or locked.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { extensionMessages } from "../../../generator/load/extension-messages.js";
import { readSchemaDocument, sha256Hex } from "../../../generator/load/schema-document.js";
import { pullSchemas } from "../../../generator/load/schema-pull.js";
import { extensionCachePath, listExtensions, loadExtension, readManifest, type BundledExtensionInfo, type Manifest } from "../../../generator/load/schema-source.js";
import { mergeExtension } from "../../../generator/model/merge-extension.js";
import { EXTENSION_POLICIES } from "../../../generator/model/extensions.js";
import { PACKAGE_ROOT } from "../../../generator/project.js";

const dirs: string[] = [];
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), "stubgen-bundled-"));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const manifest: Manifest = readManifest();
const skills = manifest.extensions?.find((e) => e.id === "skills") as BundledExtensionInfo;

describe("the Skills extension in the package's manifest", () => {
  it("is bundled: its file ships in the package and has the manifest's sha256", () => {
    expect(skills).toMatchObject({ bundled: true, identifier: "io.modelcontextprotocol/skills", revisions: ["2026-07-28", "draft"] });
    const file = join(PACKAGE_ROOT, skills.path);
    expect(sha256Hex(readFileSync(file, "utf8"))).toBe(skills.sha256);
  });

  it("defines the three requests of SEP-2640, each with its result", () => {
    const doc = loadExtension("skills", { manifest, lockfile: false, cacheDir: tempDir() });
    expect(extensionMessages(doc).map(({ kind, method, result }) => [kind, method, result])).toEqual([
      ["request", "skills/list", "ListSkillsResult"],
      ["request", "skills/get", "GetSkillResult"],
      ["request", "resources/directory/read", "ReadResourceDirectoryResult"],
    ]);
  });

  it("merges into 2026-07-28: its copies of base types are the core's, its own shapes are added", () => {
    const core = readSchemaDocument(readFileSync(join(PACKAGE_ROOT, "..", "shared", "mcp-schema", "2026-07-28", "schema.json"), "utf8"), "core");
    const ext = loadExtension("skills", { manifest, lockfile: false, cacheDir: tempDir() });
    const merged = mergeExtension(core, "skills", ext, EXTENSION_POLICIES["skills"]);
    expect(merged.added).toEqual([
      "SkillsExtensionSettings",
      "SkillResource",
      "SkillFrontmatter",
      "Skill",
      "ListSkillsRequest",
      "ListSkillsResult",
      "GetSkillRequestParams",
      "GetSkillRequest",
      "GetSkillResult",
      "ReadResourceDirectoryRequestParams",
      "ReadResourceDirectoryRequest",
      "ReadResourceDirectoryResult",
    ]);
    expect(merged.shared).toContain("Resource");
    expect(merged.methods.every((m) => m.from.join() === "client")).toBe(true);
  });
});

describe("schema pull, list and load with a bundled extension", () => {
  it("pull with no name reports it from the package and writes nothing for it", async () => {
    const cacheDir = tempDir();
    const pulled = await pullSchemas([], { manifest: { ...manifest, revisions: [], extensions: [skills] }, lockfile: false, cacheDir });
    expect(pulled).toEqual([{ kind: "extension", revision: "skills", source: "package", path: join(PACKAGE_ROOT, skills.path), sha256: skills.sha256, commit: null, pin: "kept" }]);
    expect(existsSync(extensionCachePath(cacheDir, "skills"))).toBe(false);
  });

  it("pull naming it alone answers from the package, even with --from", async () => {
    const pulled = await pullSchemas(["skills"], { manifest, lockfile: false, cacheDir: tempDir(), from: tempDir() });
    expect(pulled.map((p) => [p.revision, p.source])).toEqual([["skills", "package"]]);
  });

  it("list shows it as bundled, at its path in the package", () => {
    const listed = listExtensions({ manifest, lockfile: false, cacheDir: tempDir() }).find((e) => e.id === "skills");
    expect([listed?.state, listed?.path]).toEqual(["bundled", join(PACKAGE_ROOT, skills.path)]);
  });

  it("another sha256 in the manifest (a modified install) is refused by load and pull, naming the file", async () => {
    const tampered: Manifest = { ...manifest, extensions: [{ ...skills, sha256: "0".repeat(64) }] };
    expect(() => loadExtension("skills", { manifest: tampered, lockfile: false, cacheDir: tempDir() })).toThrow(/ships with mcp-stubgen has sha256 [0-9a-f]{64}, expected 0{64}.*modified/);
    await expect(pullSchemas(["skills"], { manifest: tampered, lockfile: false, cacheDir: tempDir() })).rejects.toThrow(/modified, reinstall it/);
    expect(listExtensions({ manifest: tampered, lockfile: false, cacheDir: tempDir() })[0]!.state).toBe("sha256 mismatch");
  });
});
