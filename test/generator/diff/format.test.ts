/**
 * `formatDiffMarkdown` and `formatDiffJson`: the exact Markdown of a small pair, and the code
 * spans it builds.
 */
import { describe, expect, it } from "vitest";
import { diffRevisions } from "../../../generator/diff/diff.js";
import { code, formatDiffJson, formatDiffMarkdown } from "../../../generator/diff/format.js";
import type { RevisionInput } from "../../../generator/diff/types.js";
import { buildModel } from "../../../generator/model/model.js";
import { DEFAULT_POLICY } from "../../../generator/model/policy.js";
import { loadFixture } from "../support.js";

function side(pair: string, which: "before" | "after", uncancellable: readonly string[] = ["initialize"]): RevisionInput {
  const doc = loadFixture(`diff/${pair}/${which}.json`);
  const policy = { ...DEFAULT_POLICY, uncancellable };
  return { doc, model: buildModel(doc, { revision: `${pair}-${which}`, policy }), policy };
}

describe("formatDiffMarkdown", () => {
  it("prints a title, the summary, and only the subsections that have entries, breaking ones marked", () => {
    const diff = diffRevisions(side("method-types", "before"), side("method-types", "after", ["initialize", "search"]));
    expect(formatDiffMarkdown(diff)).toBe(
      [
        "# MCP schema method-types-before → method-types-after",
        "",
        "Summary: 0 methods added, 0 removed, 4 changed; 3 definitions added, 3 removed, 4 changed; 1 policy key and 1 cancellable flag changed; **9 breaking changes**.",
        "",
        "## Methods",
        "",
        "### Changed methods",
        "",
        "- `items/list` (request): params now required — **breaking**",
        '- `plain` (request): params none → `NonNullable<PlainRequest["params"]>`',
        "- `search` (request): params `SearchParams` → `FindParams`",
        "- `search` (request): result `SearchResult` → `FindResult` (widened: callers must handle more; narrowed: handlers may return less) — **breaking**",
        "- `tools/call` (request): no longer task-augmentable — **breaking**",
        "",
        "## Definitions",
        "",
        "### Added",
        "",
        "- `FindParams`",
        "- `FindRequest`",
        "- `FindResult`",
        "",
        "### Removed",
        "",
        "- `SearchParams` — **breaking**",
        "- `SearchRequest` — **breaking**",
        "- `SearchResult` — **breaking**",
        "",
        "### Changed",
        "",
        "- `CallToolRequestParams`",
        "  - property `task` removed (was `TaskMetadata`) — **breaking**",
        "- `ClientRequest`",
        "  - type `CallToolRequest | InitializeRequest | ListRequest | PlainRequest | SearchRequest` → `CallToolRequest | FindRequest | InitializeRequest | ListRequest | PlainRequest`",
        "- `ListRequest`",
        "  - property `params` now required — **breaking**",
        "- `PlainRequest`",
        "  - property `params` added (optional): `{ verbose?: boolean }`",
        "",
        "## Cancellation",
        "",
        "### Revision policy",
        "",
        '- `uncancellable`: `["initialize"]` → `["initialize","search"]` (added `"search"`)',
        "",
        "### Cancellable requests",
        "",
        "- `search`: no longer cancellable — **breaking**",
        "",
      ].join("\n"),
    );
  });

  it("says which way a result changed: widened, narrowed, or neither", () => {
    const text = formatDiffMarkdown(diffRevisions(side("result-union", "before"), side("result-union", "after")));
    const changed = text.slice(text.indexOf("### Changed methods"), text.indexOf("## Definitions"));
    expect(changed).toBe(
      [
        "### Changed methods",
        "",
        "- `jobs/echo` (request): result `EchoedResult` → `EchoResult`",
        "- `jobs/run` (request): result `RunJobResult` → `RunJobResult | InputRequiredResult` (widened: callers must handle more) — **breaking**",
        "- `jobs/stop` (request): result `StopJobResult | InputRequiredResult` → `StopJobResult` (narrowed: handlers may return less) — **breaking**",
        "",
        "",
      ].join("\n"),
    );
  });

  it("says 'No changes.' under each empty section", () => {
    const same = side("properties", "after");
    const text = formatDiffMarkdown(diffRevisions(same, same));
    expect(text.match(/^## .*\n\nNo changes\.$/gm)).toEqual(["## Methods\n\nNo changes.", "## Definitions\n\nNo changes.", "## Cancellation\n\nNo changes."]);
    expect(text).toContain("**0 breaking changes**");
  });
});

describe("formatDiffMarkdown: every kind of entry", () => {
  const block = (...lines: string[]) => lines.join("\n");

  it("methods added and removed, under the direction that sends them", () => {
    const text = formatDiffMarkdown(diffRevisions(side("methods", "before"), side("methods", "after")));
    expect(text).toContain(
      block(
        "## Methods",
        "",
        "### Client → server requests (`ClientRequest`)",
        "",
        "- added `new/add`",
        "- removed `old/remove` — **breaking**",
        "",
        "### Server → client requests (`ServerRequest`)",
        "",
        "- added `server/new`",
        "- removed `ping` — **breaking**",
        "- removed `server/old` — **breaking**",
        "",
        "### Client → server notifications (`ClientNotification`)",
        "",
        "- added `notifications/client-new`",
        "- added `notifications/kept`",
        "- removed `notifications/client-old` — **breaking**",
        "",
        "### Server → client notifications (`ServerNotification`)",
        "",
        "- removed `notifications/server-old` — **breaking**",
        "",
        "## Definitions",
      ),
    );
  });

  it("each kind of property change, nested under its definition", () => {
    const text = formatDiffMarkdown(diffRevisions(side("properties", "before"), side("properties", "after")));
    expect(text).toContain(
      block(
        "### Changed",
        "",
        "- `Bag`",
        "  - additional properties: `string` → none — **breaking**",
        "- `Open`",
        "  - additional properties: none → `unknown`",
        "- `Widget`",
        "  - property `count`: type `integer` → `number`",
        "  - property `label`: type `string` → `number` — **breaking**",
        "  - property `legacy` removed (was `boolean`) — **breaking**",
        "  - property `meta`: type `{ a?: string }` → `{ a?: string; b?: string }`",
        "  - property `name` now required — **breaking**",
        "  - property `note` added (optional): `string`",
        "  - property `owner` added (required): `string` — **breaking**",
        "  - property `size` now optional",
        "  - property `tags`: type `string[]` → `(integer | string)[]`",
        "",
        "## Cancellation",
        "",
        "No changes.",
      ),
    );
  });

  it("params made optional, a request made task-augmentable, a request made cancellable", () => {
    const reversed = formatDiffMarkdown(diffRevisions(side("params-appear", "after", ["jobs/start"]), side("params-appear", "before", [])));
    expect(reversed).toContain("- `jobs/start` (request): params now optional\n");
    expect(reversed).toContain("- `jobs/start` (request): params `StartParams` → none — **breaking**\n");
    expect(reversed).toContain(block("### Cancellable requests", "", "- `jobs/start`: now cancellable", ""));
    const augmented = formatDiffMarkdown(diffRevisions(side("method-types", "after"), side("method-types", "before")));
    expect(augmented).toContain("- `tools/call` (request): now task-augmentable\n");
  });
});

describe("code spans", () => {
  it("use a longer fence when the text holds backticks", () => {
    expect(code("a")).toBe("`a`");
    expect(code("a`b")).toBe("``a`b``");
    expect(code("`x`")).toBe("`` `x` ``");
  });
});

describe("formatDiffJson", () => {
  it("is the data, two-space indented, with a final newline", () => {
    const diff = diffRevisions(side("enum-widened", "before"), side("enum-widened", "after"));
    const text = formatDiffJson(diff);
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual(diff);
  });
});
