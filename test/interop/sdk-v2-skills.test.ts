/**
 * The official SDK v2's verifying Skills client (`@modelcontextprotocol/client/ext/skills` 2.4.0,
 * its own YAML parser and digests) against our generated 2026-07-28 McpServer with the Skills
 * extension serving a SkillCatalog, behind createHttpHandler on 127.0.0.1, over real HTTP: the
 * declaration it reads, a listing it finds no invalid entry in, files it verifies (size, digest,
 * and the SKILL.md's frontmatter against the entry's), a nested skill path, a dynamic skill,
 * skills/get and resources/directory/read.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen } from "../helpers/faces.js";
import { FILES, R } from "../runtime/features/skills/support.js";

let client: Client;
let close: () => Promise<void>;

beforeAll(async () => {
  const catalog = await R.SkillCatalog.create({ files: FILES, dynamic: ["reports/daily"], ttlMs: 1000, cacheScope: "public" });
  const server = new R.McpServer({ serverInfo: { name: "ours", version: "1.0.0" }, logger: null, capabilities: catalog.declare({}), handlers: catalog.handlers(), resultDefaults: { ttlMs: 1000, cacheScope: "public" } });
  catalog.register(server);
  const served = await listen("native", R.createHttpHandler(server));
  client = new Client({ name: "sdk-v2-skills", version: "2.4.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  close = async () => {
    await client.close();
    await served.close();
  };
});

afterAll(async () => {
  await close?.();
});

describe("SDK v2 SkillsClient against our SkillCatalog server", () => {
  it("sees the extension and directoryRead, and lists our skills with no invalid entry", async () => {
    const skills = new SkillsClient(client);
    expect([skills.supported, skills.directoryRead]).toEqual([true, true]);
    const listing = await skills.list();
    expect(listing.invalid).toEqual([]);
    expect(listing.skills.map((s) => s.uri)).toEqual(["skill://acme/billing/refunds/SKILL.md", "skill://pdf-processing/SKILL.md", "skill://reports/daily/SKILL.md"]);
  });

  it("verifies every listed file: sizes, digests, and each SKILL.md's frontmatter by its own YAML parser", async () => {
    const skills = new SkillsClient(client);
    const { skills: entries } = await skills.list();
    for (const entry of entries) {
      const manifest = await skills.read(entry);
      expect(manifest.frontmatter, entry.uri).toEqual(entry.frontmatter);
      if (entry.resources === "dynamic") {
        expect(manifest.verified).toBe(false);
        continue;
      }
      expect(manifest.verified).toBe(true);
      for (const file of entry.resources) expect((await skills.read(entry, file.uri)).verified, file.uri).toBe(true);
    }
  });

  it("gets a skill by URI and reads a directory's children", async () => {
    const skills = new SkillsClient(client);
    const { skill } = await skills.get("skill://pdf-processing/SKILL.md");
    expect(skill.frontmatter).toMatchObject({ name: "pdf-processing", metadata: { version: "2.1.0", owner: "docs-team" }, tags: ["pdf", "forms"] });
    const { resources } = await skills.readDirectory("skill://pdf-processing/templates");
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ["skill://pdf-processing/templates/invoice.md", "text/markdown"],
      ["skill://pdf-processing/templates/regional", "inode/directory"],
    ]);
  });
});
