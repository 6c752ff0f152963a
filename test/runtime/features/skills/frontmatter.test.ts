/**
 * parseFrontmatter (templates/runtime/features/skill-frontmatter.ts), and the JSON equality the skills
 * client compares frontmatter with (core/validation.ts `equal`): the YAML of a
 * SKILL.md's frontmatter as JSON, as a YAML 1.2 (core schema) reader would give it, for the forms
 * a frontmatter uses; what it does not read is an error naming the line, never a guess.
 */
import { describe, expect, it } from "vitest";
import { equal as sameJson } from "../../../../templates/runtime/core/validation.js";
import { FrontmatterError, parseFrontmatter } from "../../../../templates/runtime/features/skill-frontmatter.js";

const fm = (yaml: string) => parseFrontmatter(`---\n${yaml}\n---\n# body\n`);

describe("parseFrontmatter", () => {
  it("reads scalars by the core schema: strings, quoted strings, numbers, booleans, null", () => {
    expect(
      fm(
        [
          "name: pdf",
          "description: Extract: fill, and assemble # not a comment? yes it is",
          'quoted: "2.1.0"',
          "single: 'it''s'",
          'escaped: "tab\\tnewline\\n\\u00e9"',
          "int: 42",
          "neg: -7",
          "float: 1.5",
          "exp: 1e3",
          "hex: 0x1F",
          "yes: true",
          "no: False",
          "nothing: ~",
          "empty:",
          "version: 2.1.0",
          "url: https://example.com/a#b",
        ].join("\n"),
      ),
    ).toEqual({
      name: "pdf",
      description: "Extract: fill, and assemble",
      quoted: "2.1.0",
      single: "it's",
      escaped: "tab\tnewline\né",
      int: 42,
      neg: -7,
      float: 1.5,
      exp: 1000,
      hex: 31,
      yes: true,
      no: false,
      nothing: null,
      empty: null,
      version: "2.1.0",
      url: "https://example.com/a#b",
    });
  });

  it("reads nested mappings, block and flow sequences, and sequences of mappings", () => {
    const yaml = [
      "name: x",
      "metadata:",
      "  version: \"1\"",
      "  owner:",
      "    team: billing",
      "tags: [a, \"b c\", 3]",
      "empty-list: []",
      "empty-map: {}",
      "flow-map: {k: v, n: 1}",
      "allowed-tools:",
      "- Read",
      "- Bash(git:*)",
      "steps:",
      "  - name: one",
      "    run: first",
      "  - two",
    ].join("\n");
    expect(fm(yaml)).toEqual({
      name: "x",
      metadata: { version: "1", owner: { team: "billing" } },
      tags: ["a", "b c", 3],
      "empty-list": [],
      "empty-map": {},
      "flow-map": { k: "v", n: 1 },
      "allowed-tools": ["Read", "Bash(git:*)"],
      steps: [{ name: "one", run: "first" }, "two"],
    });
  });

  it("reads block scalars (literal, folded, chomping) and multi-line plain scalars", () => {
    const yaml = ["lit: |", "  line one", "    indented", "  line two", "fold: >-", "  a long", "  description", "", "  second paragraph", "plain: first", "  continued", "end: 1"].join("\n");
    expect(fm(yaml)).toEqual({ lit: "line one\n  indented\nline two\n", fold: "a long description\nsecond paragraph", plain: "first continued", end: 1 });
  });

  it("skips comments and blank lines, a BOM, and CRLF line ends", () => {
    expect(parseFrontmatter("\ufeff---\r\n# comment\r\nname: a\r\n\r\ndescription: b # trailing\r\n---\r\n")).toEqual({ name: "a", description: "b" });
  });

  const refused: ReadonlyArray<[string, string, RegExp]> = [
    ["no frontmatter", "# just markdown\n", /does not begin with a --- delimited YAML frontmatter block/],
    ["an unclosed block", "---\nname: a\n", /does not begin with/],
    ["a duplicate key", "---\nname: a\nname: b\n---\n", /line 3: duplicate key "name"/],
    ["an anchor", "---\nname: &x a\n---\n", /anchors, aliases, tags/],
    ["an alias", "---\nname: *x\n---\n", /anchors, aliases, tags/],
    ["a tag", "---\nname: !!str a\n---\n", /anchors, aliases, tags/],
    ["a complex key", "---\n? name\n---\n", /complex keys/],
    [".nan", "---\nn: .nan\n---\n", /no JSON form/],
    ["an unsafe integer", "---\nn: 123456789012345678901\n---\n", /not a safe integer/],
    ["nested flow", "---\nn: [[1]]\n---\n", /nested flow collections/],
    ["a top-level sequence", "---\n- a\n---\n", /not a mapping/],
    ["bad indentation", "---\nname: a\n  extra: b\n---\n", /unexpected indentation|expected "key: value"/],
    ["an unterminated string", '---\nname: "a\n---\n', /unterminated double-quoted/],
    ["an over-long block", `---\nname: ${"x".repeat(70_000)}\n---\n`, /over 65536 characters/],
  ];
  for (const [what, text, error] of refused) {
    it(`refuses ${what}`, () => {
      expect(() => parseFrontmatter(text)).toThrow(FrontmatterError);
      expect(() => parseFrontmatter(text)).toThrow(error);
    });
  }

  it("refuses nesting deeper than 16", () => {
    const deep = Array.from({ length: 20 }, (_, i) => `${"  ".repeat(i)}k${i}:`).join("\n") + `\n${"  ".repeat(20)}v: 1`;
    expect(() => fm(deep)).toThrow(/nesting deeper than 16/);
  });
});

describe("sameJson", () => {
  it("compares objects key by key in any order, arrays in order", () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: "1" }, { a: 1 })).toBe(false);
    expect(sameJson([], {})).toBe(false);
  });
});
