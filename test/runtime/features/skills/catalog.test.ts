/**
 * SkillCatalog (templates/runtime/features/skill-catalog.ts), the server side of the Skills
 * extension (SEP-2640), through a generated 2026-07-28 McpServer with the extension, connected in
 * memory to the generated McpClient: the capability declaration, skills/list entries (frontmatter
 * verbatim, every file under the skill with a sha256 digest and size computed here
 * independently, nested skill paths, "dynamic"), pagination, skills/get, resources/read,
 * resources/directory/read, and hostile input (path traversal and other unserved URIs are
 * -32602; paths and skills the specification forbids are refused at construction).
 */
import { describe, expect, it } from "vitest";
import { digestOf, FILES, pair, R, sizeOf } from "./support.js";

const catalog = (options: Partial<R.SkillCatalogOptions> = {}) => R.SkillCatalog.create({ files: FILES, dynamic: ["reports/daily"], ...options });

/** The JSON-RPC error code of a rejected call. */
async function codeOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
  } catch (error) {
    return error instanceof R.McpError ? error.code : -1;
  }
  return undefined;
}

describe("SkillCatalog over a generated server", () => {
  it("declares the extension inline (directoryRead) and the resources capability it requires", async () => {
    const { client, close } = await pair(await catalog());
    const { capabilities } = await client.discover();
    expect(capabilities.extensions).toEqual({ [R.SKILLS_EXTENSION]: { directoryRead: true } });
    expect(capabilities.resources).toEqual({});
    expect((await catalog({ directoryRead: false })).declare({ tools: {} })).toEqual({ tools: {}, resources: {}, extensions: { [R.SKILLS_EXTENSION]: {} } });
    await close();
  });

  it("lists every skill: frontmatter verbatim, every file under the skill with its digest and size, SKILL.md first", async () => {
    const { client, close } = await pair(await catalog());
    const result = await client.listSkills({});
    expect(result.skills.map((s) => s.uri)).toEqual(["skill://acme/billing/refunds/SKILL.md", "skill://pdf-processing/SKILL.md", "skill://reports/daily/SKILL.md"]);
    const pdf = result.skills[1]!;
    expect(pdf.frontmatter).toEqual({ name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", license: "Apache-2.0", metadata: { version: "2.1.0", owner: "docs-team" }, tags: ["pdf", "forms"] });
    const paths = ["pdf-processing/SKILL.md", "pdf-processing/assets/logo.png", "pdf-processing/references/FORMS.md", "pdf-processing/templates/invoice.md", "pdf-processing/templates/regional/eu-invoice.md"];
    expect(pdf.resources).toEqual(paths.map((path) => ({ uri: `skill://${path}`, digest: digestOf(FILES[path]!), size: sizeOf(FILES[path]!) })));
    // A nested skill path: the name is the final segment; the folded description is one line.
    expect(result.skills[0]!.frontmatter.name).toBe("refunds");
    expect(result.skills[2]).toEqual({ uri: "skill://reports/daily/SKILL.md", frontmatter: { name: "daily", description: "Today's report from live data" }, resources: "dynamic" });
    expect([result.ttlMs, result.cacheScope, result.nextCursor]).toEqual([0, "private", undefined]);
    await close();
  });

  it("pages skills/list without splitting an entry; a cursor it did not make is -32602", async () => {
    const { client, close } = await pair(await catalog({ pageSize: 2 }));
    const first = await client.listSkills({});
    expect(first.skills).toHaveLength(2);
    const second = await client.listSkills({ cursor: first.nextCursor! });
    expect(second.skills.map((s) => s.uri)).toEqual(["skill://reports/daily/SKILL.md"]);
    expect(second.nextCursor).toBeUndefined();
    expect(await codeOf(client.listSkills({ cursor: "not-ours" }))).toBe(-32602);
    await close();
  });

  it("skills/get answers the entry of a served skill, -32602 for any other URI", async () => {
    const { client, close } = await pair(await catalog());
    const { skill } = await client.getSkill({ uri: "skill://pdf-processing/SKILL.md" });
    expect(skill).toEqual((await client.listSkills({})).skills[1]);
    for (const uri of ["skill://pdf-processing", "skill://pdf-processing/references/FORMS.md", "skill://nope/SKILL.md", "skill://acme/../pdf-processing/SKILL.md"]) {
      expect(await codeOf(client.getSkill({ uri })), uri).toBe(-32602);
    }
    await close();
  });

  it("resources/read serves text as text, other bytes as a base64 blob", async () => {
    const { client, close } = await pair(await catalog());
    const md = await client.readResource({ uri: "skill://pdf-processing/references/FORMS.md" });
    expect(md.contents).toEqual([{ uri: "skill://pdf-processing/references/FORMS.md", mimeType: "text/markdown", text: FILES["pdf-processing/references/FORMS.md"] }]);
    const png = await client.readResource({ uri: "skill://pdf-processing/assets/logo.png" });
    expect(png.contents).toEqual([{ uri: "skill://pdf-processing/assets/logo.png", mimeType: "image/png", blob: Buffer.from(FILES["pdf-processing/assets/logo.png"]!).toString("base64") }]);
    await close();
  });

  it("path traversal and other spellings of a served file are not served: -32602", async () => {
    const { client, close } = await pair(await catalog());
    const hostile = [
      "skill://pdf-processing/../acme/billing/refunds/SKILL.md",
      "skill://pdf-processing/./SKILL.md",
      "skill://pdf-processing/%2e%2e/reports/daily/SKILL.md",
      "skill://pdf-processing//SKILL.md",
      "skill://PDF-processing/SKILL.md",
      "skill:///etc/passwd",
      "file:///etc/passwd",
    ];
    for (const uri of hostile) {
      expect(await codeOf(client.readResource({ uri })), uri).toBe(-32602);
      expect(await codeOf(client.readResourceDirectory({ uri })), uri).toBe(-32602);
    }
    await close();
  });

  it("resources/directory/read lists direct children: files with their metadata, subfolders as inode/directory", async () => {
    const { client, close } = await pair(await catalog());
    const root = await client.readResourceDirectory({ uri: "skill://pdf-processing" });
    expect(root.resources).toEqual([
      { uri: "skill://pdf-processing/SKILL.md", name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", mimeType: "text/markdown", size: sizeOf(FILES["pdf-processing/SKILL.md"]!) },
      { uri: "skill://pdf-processing/assets", name: "assets", mimeType: R.DIRECTORY_MIME_TYPE },
      { uri: "skill://pdf-processing/references", name: "references", mimeType: R.DIRECTORY_MIME_TYPE },
      { uri: "skill://pdf-processing/templates", name: "templates", mimeType: R.DIRECTORY_MIME_TYPE },
    ]);
    const templates = await client.readResourceDirectory({ uri: "skill://pdf-processing/templates" });
    expect(templates.resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ["skill://pdf-processing/templates/invoice.md", "text/markdown"],
      ["skill://pdf-processing/templates/regional", R.DIRECTORY_MIME_TYPE],
    ]);
    // The organizational prefix of a nested skill path is a directory too.
    expect((await client.readResourceDirectory({ uri: "skill://acme/billing" })).resources.map((r) => r.uri)).toEqual(["skill://acme/billing/refunds"]);
    // A file, a trailing slash, an unknown folder: not directory resources.
    for (const uri of ["skill://pdf-processing/SKILL.md", "skill://pdf-processing/", "skill://nowhere"]) expect(await codeOf(client.readResourceDirectory({ uri })), uri).toBe(-32602);
    await close();
  });

  it("pages resources/directory/read", async () => {
    const { client, close } = await pair(await catalog({ pageSize: 3 }));
    const first = await client.readResourceDirectory({ uri: "skill://pdf-processing" });
    const second = await client.readResourceDirectory({ uri: "skill://pdf-processing", cursor: first.nextCursor! });
    expect([first.resources.length, second.resources.length, second.nextCursor]).toEqual([3, 1, undefined]);
    await close();
  });

  it("without directoryRead, resources/directory/read is not served (-32601)", async () => {
    const { client, close } = await pair(await catalog({ directoryRead: false }));
    expect(await codeOf(client.readResourceDirectory({ uri: "skill://pdf-processing" }))).toBe(-32601);
    await close();
  });

  it("register() makes every file a resource of the server, a SKILL.md named and described by its frontmatter", async () => {
    const { client, server, close } = await pair(await catalog());
    (await catalog()).register(server);
    const { resources } = await client.listResources({});
    expect(resources).toHaveLength(Object.keys(FILES).length);
    expect(resources.find((r) => r.uri === "skill://acme/billing/refunds/SKILL.md")).toMatchObject({ name: "refunds", description: "Process refunds", mimeType: "text/markdown" });
    await close();
  });
});

describe("SkillCatalog refuses at construction what the specification forbids", () => {
  const refused: ReadonlyArray<[string, Record<string, string>, RegExp]> = [
    ["a .. segment", { "a/../SKILL.md": "x" }, /not a relative path/],
    ["an absolute path", { "/etc/SKILL.md": "x" }, /not a relative path/],
    ["a backslash", { "a\\b/SKILL.md": "x" }, /not a relative path/],
    ["a control character", { "a\u0000/SKILL.md": "x" }, /not a relative path/],
    ["a name other than its folder's", { "git/SKILL.md": "---\nname: other\ndescription: d\n---\n" }, /must equal the skill's directory name "git"/],
    ["a name against the naming rules", { "Bad--Name/SKILL.md": "---\nname: Bad--Name\ndescription: d\n---\n" }, /is not a skill name/],
    ["no description", { "git/SKILL.md": "---\nname: git\n---\n" }, /no description/],
    ["no frontmatter", { "git/SKILL.md": "# git\n" }, /does not begin with a --- delimited YAML frontmatter block/],
    ["metadata that is not strings to strings", { "git/SKILL.md": "---\nname: git\ndescription: d\nmetadata:\n  tags: [a]\n---\n" }, /metadata must map strings to strings/],
  ];
  for (const [what, files, error] of refused) {
    it(what, async () => {
      await expect(R.SkillCatalog.create({ files })).rejects.toThrow(error);
    });
  }

  it("a skill over the per-skill limits (513 files; over 16 MiB)", async () => {
    const many: Record<string, string> = { "big/SKILL.md": "---\nname: big\ndescription: d\n---\n" };
    for (let i = 0; i < 512; i++) many[`big/f${i}.md`] = "x";
    await expect(R.SkillCatalog.create({ files: many })).rejects.toThrow(/513 files.*over the per-skill limits/);
    const huge = { "big/SKILL.md": "---\nname: big\ndescription: d\n---\n", "big/blob.bin": new Uint8Array(R.SKILL_LIMITS.totalBytes) };
    await expect(R.SkillCatalog.create({ files: huge })).rejects.toThrow(/over the per-skill limits/);
  });

  it("a dynamic skill without a SKILL.md, and a scheme that is not one", async () => {
    await expect(R.SkillCatalog.create({ files: FILES, dynamic: ["reports/weekly"] })).rejects.toThrow(/dynamic names "reports\/weekly"/);
    await expect(R.SkillCatalog.create({ files: FILES, scheme: "skill:/" })).rejects.toThrow(/must be a URI scheme/);
  });
});
