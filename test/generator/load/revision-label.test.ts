/**
 * Revision labels a lockfile or `schema pull` brings in name folders (`<cache>/<label>/`,
 * `<out>/<label>/`): only plain folder names that are not the cache's or the output's own.
 */
import { describe, expect, it } from "vitest";
import { revisionLabelProblem } from "../../../generator/load/revision-label.js";

describe("revisionLabelProblem", () => {
  it.each(["2027-01-01", "draft", "2025-11-25", "v2.1_rc", "X"])("%s is a revision label", (label) => {
    expect(revisionLabelProblem(label)).toBeUndefined();
  });

  it.each([
    ["", "it is empty"],
    ["a/b", "it contains a path separator"],
    ["a\\b", "it contains a path separator"],
    ["../2027", "it contains a path separator"],
    ["..", "it is a relative folder"],
    [".", "it is a relative folder"],
    ["runtime", '"runtime" is a folder mcp-stubgen keeps for itself'],
    ["extensions", '"extensions" is a folder mcp-stubgen keeps for itself'],
    [".stamps", "it has characters other than"],
    ["-x", "it has characters other than"],
    ["a b", "it has characters other than"],
    ["x".repeat(65), "too long"],
  ])("%j is refused: %s", (label, why) => {
    expect(revisionLabelProblem(label)).toContain(why);
  });

  it("64 characters is the longest label", () => {
    expect(revisionLabelProblem("x".repeat(64))).toBeUndefined();
  });
});
