/**
 * readSkillDirectory (templates/runtime/features/skill-files.ts): a skills directory read from
 * disk, bounded before reading: nested paths by `/`, dotfiles skipped, symbolic links refused,
 * and a huge file (a sparse one here, so the test allocates nothing), too many files or too deep
 * a tree refused by name. And the everything server's own directory makes a valid catalog.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSkillDirectory } from "../../../../templates/runtime/features/skill-files.js";
import { SkillCatalog } from "../../../../templates/runtime/features/skill-catalog.js";
import { PACKAGE_ROOT } from "../../../../generator/project.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A temporary folder holding `files` (path → text). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "stubgen-skills-"));
  dirs.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const SKILL = "---\nname: git\ndescription: Git conventions\n---\n";

describe("readSkillDirectory", () => {
  it("reads every file by its /-separated path, skipping dotfiles and dot-folders", async () => {
    const root = tree({ "git/SKILL.md": SKILL, "git/refs/a.md": "a", "git/.DS_Store": "x", ".git/config": "x" });
    const files = await readSkillDirectory(root);
    expect(Object.keys(files).sort()).toEqual(["git/SKILL.md", "git/refs/a.md"]);
    expect(new TextDecoder().decode(files["git/SKILL.md"])).toBe(SKILL);
  });

  it("refuses a symbolic link (it could point outside the folder)", async () => {
    const root = tree({ "git/SKILL.md": SKILL });
    symlinkSync("/etc/passwd", join(root, "git", "passwd"));
    await expect(readSkillDirectory(root)).rejects.toThrow(/passwd: not a regular file or folder \(symbolic links are not followed\)/);
  });

  it("refuses a file over maxFileBytes before reading it", async () => {
    const root = tree({ "git/SKILL.md": SKILL, "git/huge.bin": "" });
    truncateSync(join(root, "git", "huge.bin"), 64 * 1024 * 1024); // sparse: nothing is allocated
    await expect(readSkillDirectory(root)).rejects.toThrow(/huge\.bin: 67108864 bytes, over 16777216 \(SkillDirectoryOptions\.maxFileBytes\)/);
    await expect(readSkillDirectory(tree({ "a/b.md": "12345" }), { maxFileBytes: 4 })).rejects.toThrow(/5 bytes, over 4/);
  });

  it("refuses more than maxFiles files and deeper than maxDepth folders", async () => {
    await expect(readSkillDirectory(tree({ "a/1": "", "a/2": "", "a/3": "" }), { maxFiles: 2 })).rejects.toThrow(/more than 2 files/);
    await expect(readSkillDirectory(tree({ "a/b/c/d.md": "" }), { maxDepth: 2 })).rejects.toThrow(/deeper than 2 folders/);
  });

  it("the everything server's skills directory makes a valid catalog: 3 skills, one dynamic", async () => {
    const files = await readSkillDirectory(join(PACKAGE_ROOT, "examples", "everything", "skills"));
    const catalog = await SkillCatalog.create({ files, dynamic: ["reports/daily"] });
    expect(catalog.skills.map((s) => [s.uri, s.resources === "dynamic" ? "dynamic" : s.resources.length])).toEqual([
      ["skill://acme/billing/refunds/SKILL.md", 2],
      ["skill://pdf-processing/SKILL.md", 4],
      ["skill://reports/daily/SKILL.md", "dynamic"],
    ]);
  });
});
