/**
 * The pure part of the CLI's usage errors (generator/cli/usage.ts): edit distance, near misses,
 * and turning yargs' "Unknown argument" into our messages.
 */
import { describe, expect, it } from "vitest";
import { editDistance, nearest, usageContext, usageError, type UsageContext } from "../../../generator/cli/usage.js";

const TOP: Omit<UsageContext, "argv"> = { command: "", commands: ["generate", "catalog", "diff", "schema"], options: ["help", "version", "config", "cache"] };
const GENERATE: Omit<UsageContext, "argv"> = { command: "generate", commands: [], options: ["help", "version", "config", "cache", "revision", "all", "out"] };

describe("editDistance and nearest", () => {
  it("counts insertions, deletions, substitutions and neighbour swaps as one edit each", () => {
    expect(editDistance("generat", "generate")).toBe(1);
    expect(editDistance("form", "from")).toBe(1);
    expect(editDistance("revison", "revision")).toBe(1);
    expect(editDistance("cat", "dog")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("suggests only near misses: one edit for words of up to 4 letters, else two", () => {
    expect(nearest("generat", TOP.commands)).toBe("generate");
    expect(nearest("dif", TOP.commands)).toBe("diff");
    expect(nearest("frob", TOP.commands)).toBeUndefined();
    expect(nearest("schma", TOP.commands)).toBe("schema");
    expect(nearest("ctalogue", TOP.commands)).toBeUndefined();
  });
});

describe("usageError", () => {
  it("an unknown positional at a level with commands is an unknown command", () => {
    expect(usageError("Unknown argument: generat", { ...TOP, argv: ["generat"] })).toEqual({
      message: "unknown command generat; did you mean generate?",
      command: "",
    });
    expect(usageError("Unknown argument: zzz", { ...TOP, argv: ["zzz"] }).message).toBe(
      "unknown command zzz; expected one of generate, catalog, diff, schema",
    );
  });

  it("an unknown --flag is an unknown option, with the nearest long option", () => {
    expect(usageError("Unknown argument: revison", { ...GENERATE, argv: ["generate", "--revison", "x"] })).toEqual({
      message: "unknown option --revison; did you mean --revision?",
      command: "generate",
    });
    expect(usageError("Unknown argument: x", { ...GENERATE, argv: ["generate", "-x"] }).message).toBe("unknown option -x");
    expect(usageError("Unknown argument: outt", { ...GENERATE, argv: ["generate", "--outt=dir"] }).message).toBe(
      "unknown option --outt; did you mean --out?",
    );
  });

  it("reports the first unknown name as typed", () => {
    expect(usageError("Unknown arguments: zzz, revison", { ...GENERATE, argv: ["generate", "--revison", "a", "zzz"] }).message).toBe(
      "unknown option --revison; did you mean --revision?",
    );
  });

  it("a stray positional in a leaf command is an unexpected argument; other messages pass through", () => {
    expect(usageError("Unknown argument: extra", { ...GENERATE, argv: ["generate", "extra"] }).message).toBe("unexpected argument extra");
    expect(usageError("expected a command: generate, catalog, diff or schema", { ...TOP, argv: [] })).toEqual({
      message: "expected a command: generate, catalog, diff or schema",
      command: "",
    });
  });
});

describe("usageContext", () => {
  it("reads the command path, subcommands and options from yargs' usage object", () => {
    const usage = {
      getCommands: () => [["list", "List"], ["pull [revisions..]", "Pull"]],
      getDescriptions: () => ({ help: "", config: "", from: "" }),
      getUsage: () => [["$0 schema pull [revisions..]", "Pull"]],
    };
    expect(usageContext(["schema", "x"], usage)).toEqual({
      argv: ["schema", "x"],
      command: "schema pull",
      commands: ["list", "pull"],
      options: ["help", "config", "from"],
    });
  });

  it("falls back to an empty context when yargs hands over something else", () => {
    expect(usageContext(["a"], undefined)).toEqual({ argv: ["a"], command: "", commands: [], options: [] });
  });
});
