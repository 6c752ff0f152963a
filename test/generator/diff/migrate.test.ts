/**
 * `diff --migrate` (generator/diff/migrate.ts): the diff of the published 2025-11-25 →
 * 2026-07-28 as a migration guide (repeats folded with a count, moves, the generated API's
 * changes, a "what to change" per line), a rename found on a small pair, and the CLI flag.
 */
import { describe, expect, it } from "vitest";
import { setUpPerTest } from "../../helpers/per-test.js";
import { diffRevisions } from "../../../generator/diff/diff.js";
import { formatMigration, migrationGuide, type MigrationGuide } from "../../../generator/diff/migrate.js";
import type { RevisionInput } from "../../../generator/diff/types.js";
import { buildModel } from "../../../generator/model/model.js";
import { DEFAULT_POLICY } from "../../../generator/model/policy.js";
import { modelRevision } from "../../../generator/model/revision.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { docFrom } from "../support.js";
import { expectOneErrorLine, runCli, tempDirs } from "../cli/support.js";

const tmp = tempDirs("stubgen-migrate-");

describe("2025-11-25 → 2026-07-28 as a migration guide", () => {
  let guide: MigrationGuide;
  let text: string;
  let changes: number;
  setUpPerTest(async () => {
    const load = (revision: string) => modelRevision(revision, { cacheDir: TEST_CACHE_DIR });
    const from = await load("2025-11-25");
    const to = await load("2026-07-28");
    const diff = diffRevisions(from, to);
    changes = diff.summary.changes;
    guide = migrationGuide(from, to, diff);
    text = formatMigration(guide);
  });

  const all = () => [...guide.api, ...guide.moves, ...guide.repeated, ...guide.other];

  it("covers every entry of the diff once, in far fewer lines, each breaking line with what to change", () => {
    expect(guide.changes).toBe(changes);
    // every entry is in exactly one line (the transport line stands for no entry of the schema diff)
    expect(all().reduce((n, g) => n + g.count, 0)).toBe(changes);
    expect(all().length).toBeLessThan(changes / 2);
    for (const g of all()) if (g.breaking) expect(g.todo, g.title).not.toBe("");
    expect(text.split("\n").filter((l) => l.startsWith("- ")).length).toBe(all().length);
  });

  it("folds the 17 _meta retypings to MetaObject, and the 10 resultType additions, into one line each with a count and a hint", () => {
    const meta = guide.repeated.find((g) => g.title === "17 definitions: property `_meta`: `{ [key: string]: unknown }` → `MetaObject`");
    expect(meta?.count).toBe(17);
    expect(meta?.examples).toHaveLength(4);
    expect(meta?.todo).toContain("named meta types");
    const resultType = guide.repeated.find((g) => g.title.startsWith("10 definitions: property `resultType` added (required)"));
    expect(resultType?.breaking).toBe(true);
    expect(resultType?.todo).toContain('("complete", or "input_required")');
    expect(text).toContain("- 17 definitions: property `_meta`: `{ [key: string]: unknown }` → `MetaObject` (`AudioContent`, ");
  });

  it("says that elicitation/create, roots/list and sampling/createMessage became input requests, not that they were removed", () => {
    expect(guide.moves[0]?.examples).toEqual(["elicitation/create", "roots/list", "sampling/createMessage"]);
    expect(guide.moves[0]?.todo).toContain("ctx.input.required");
    expect(all().filter((g) => g !== guide.moves[0]).flatMap((g) => g.examples)).not.toContain("elicitation/create");
  });

  it("lists the generated API's changes: initialize() and ping() gone with what to do, discover() new, the session transport replaced by the stateless one", () => {
    const titles = guide.api.map((g) => g.title);
    expect(titles).toContain('McpClient `initialize()` removed, and the McpServer handlers `"initialize"`');
    expect(titles).toContain('McpClient `ping()` removed, and the McpServer handlers `"ping"`');
    expect(guide.api.find((g) => g.examples.includes("initialize"))?.todo).toMatch(/^there is no handshake: drop the initialize\(\) call; server\/discover \(discover\(\)\)/);
    expect(titles.find((t) => t.includes("new, with the McpServer handlers"))).toMatch(/^McpClient `discover\(\)`, /);
    expect(titles).toContain(
      "HTTP: Streamable HTTP with sessions replaced by the stateless Streamable HTTP transport: `createSessionHttpClientTransport` → `createHttpClientTransport`, `createSessionHttpHandler` → `createHttpHandler`",
    );
    // the Tasks methods point at the extension
    expect(guide.api.find((g) => g.examples.includes("tasks/get") && g.title.startsWith("McpClient `"))?.todo).toContain("--extension tasks");
  });

  it("says logging/setLevel became the per-request logLevel of _meta, not just 'drop the call'", () => {
    const setLevel = guide.api.find((g) => g.examples.includes("logging/setLevel"));
    expect(setLevel?.todo).toContain('"io.modelcontextprotocol/logLevel"');
    expect(setLevel?.todo).toContain("ctx.log honours it");
  });

  it("gives the new 60 s default timeout (and the 10 min cap) a line with its values and what to do, not 'nothing in your code'", () => {
    const timeout = guide.other.find((g) => g.examples.includes("defaultTimeoutMs"));
    expect(timeout?.title).toMatch(/^default request timeout: none set by the revision .* → 60 s on every request that gives none$/);
    expect(timeout?.todo).toContain("fails after 60 s");
    expect(timeout?.todo).toContain("timeoutMs");
    expect(guide.other.find((g) => g.examples.includes("defaultMaxTotalTimeoutMs"))?.title).toBe("default cap over a whole request, progress resets included: none → 10 min");
    // the catch-all line of the rules no longer names them
    const rest = guide.other.find((g) => g.title.startsWith("the revision's cancellation and timeout rules"));
    expect(rest?.examples).not.toContain("defaultTimeoutMs");
    expect(rest?.examples).not.toContain("defaultMaxTotalTimeoutMs");
    expect(rest?.todo).toBe("nothing in your code: the generated runtime follows them");
  });

  it("prints every name of the added and removed definitions once (not the list, then the list again in parentheses)", () => {
    const added = text.split("\n").find((l) => l.startsWith("- 42 definitions added: "));
    const removed = text.split("\n").find((l) => l.startsWith("- 32 definitions removed: "));
    for (const [line, name] of [[added, "`CacheableResult`"], [removed, "`InitializeRequest`"]] as const) {
      expect(line?.split(name).length, line).toBe(2);
      expect(line).not.toContain("(");
    }
    // a repeated change still names its first definitions after the title
    expect(text).toContain("→ `MetaObject` (`AudioContent`, ");
  });

  it("prints Markdown: a title, the count line, the sections in order", () => {
    const headings = text.split("\n").filter((l) => l.startsWith("#"));
    expect(headings).toEqual(["# Migrating from MCP 2025-11-25 to 2026-07-28", "## The generated API", "## Moved and renamed", "## Repeated changes", "## Other changes"]);
    expect(text.split("\n")[2]).toBe(`${all().length} lines for the diff's ${changes} changes (\`mcp-stubgen diff\` without --migrate lists each one).`);
  });
});

describe("renames", () => {
  const object = (properties: Record<string, unknown>) => ({ type: "object", properties, required: Object.keys(properties) });
  const side = (defs: Record<string, unknown>, revision: string): RevisionInput => {
    const doc = docFrom(defs);
    return { doc, model: buildModel(doc, { revision, policy: DEFAULT_POLICY }), policy: DEFAULT_POLICY };
  };

  it("a removed definition whose shape exactly one added definition has is a rename; a shape two share is not", () => {
    const from = side({ OldName: object({ alpha: { type: "string" }, beta: { type: "integer" } }), A: { type: "string" } }, "old");
    const to = side({ NewName: object({ alpha: { type: "string" }, beta: { type: "integer" } }), B: { type: "string" } }, "new");
    const guide = migrationGuide(from, to, diffRevisions(from, to));
    expect(guide.moves.map((g) => g.title)).toEqual(["`OldName` renamed `NewName` (same shape)"]);
    // `A` → `B` (both `string`) is too plain a shape to call a rename
    expect(guide.other.map((g) => g.title)).toEqual(["1 definitions added: `B`", "1 definitions removed: `A`"]);
  });
});

describe("mcp-stubgen diff --migrate", () => {
  it("prints the guide, and refuses --json with it", async () => {
    const cwd = tmp();
    const r = await runCli(["diff", "--from", "2025-11-25", "--to", "2026-07-28", "--cache", TEST_CACHE_DIR, "--migrate"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("# Migrating from MCP 2025-11-25 to 2026-07-28");
    const both = await runCli(["diff", "--from", "2025-11-25", "--to", "2026-07-28", "--cache", TEST_CACHE_DIR, "--migrate", "--json"], cwd);
    expect(expectOneErrorLine(both)).toBe("mcp-stubgen: error: --migrate prints Markdown: leave out --json (whose data the guide is made from) (see mcp-stubgen diff --help)");
  });
});
