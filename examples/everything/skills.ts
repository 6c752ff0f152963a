/**
 * The Skills extension (io.modelcontextprotocol/skills, SEP-2640) of the everything server: the
 * skills directory beside this file (examples/everything/skills/) served as `skill://`
 * resources by the 2026-07-28 half, with skills/list, skills/get and resources/directory/read.
 *
 * - `pdf-processing` and `acme/billing/refunds` (a nested skill path) publish their files with
 *   sha256 digests and sizes;
 * - `reports/daily` is declared "dynamic": its content stands for generated content, so its
 *   entry publishes no digests.
 *
 * out/2026-07-28 is generated with `--extension skills`, so its McpServer knows the extension's
 * requests and its index exports the runtime's SkillCatalog.
 */
import { fileURLToPath } from "node:url";
import { readSkillDirectory, SkillCatalog, type McpServer, type McpServerOptions } from "../../out/2026-07-28/index.js";

/** What examples/everything-2026/server.ts makes: the revision's options and its registrations. */
interface Era {
  readonly options: McpServerOptions;
  readonly register: (server: McpServer) => void;
}

const SKILLS_DIR = fileURLToPath(new URL("./skills/", import.meta.url));

/** The catalog of the skills directory (read once, at startup). */
export const SKILLS: SkillCatalog = await SkillCatalog.create({
  files: await readSkillDirectory(SKILLS_DIR),
  dynamic: ["reports/daily"],
  // The same caching hints as the server's other lists (everything-2026/server.ts CACHE).
  ttlMs: 60_000,
  cacheScope: "public",
});

/**
 * `era` serving the skills directory too: the extension declared in its capabilities (with
 * `directoryRead`), its three handlers beside the era's own, and every skill file registered as
 * a resource when the era registers.
 */
export function withSkills(era: Era, catalog: SkillCatalog = SKILLS): Era {
  const { options } = era;
  return {
    options: {
      ...options,
      capabilities: catalog.declare(options.capabilities ?? {}),
      handlers: { ...options.handlers, ...catalog.handlers() },
    },
    register: (server) => {
      era.register(server);
      catalog.register(server);
    },
  };
}
