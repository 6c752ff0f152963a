/**
 * Revision labels that name folders: `<cache>/<revision>/schema.json` and `<out>/<revision>/`.
 * A label that `schema pull` or a lockfile brings in (one this version of mcp-stubgen does not
 * know) must be a plain folder name, and not one the cache or the output keeps for itself.
 */

/** Names a revision folder cannot have: `<out>/runtime/` is the shared runtime, `<cache>/extensions/` the extensions' cache. */
export const RESERVED_LABELS: readonly string[] = ["runtime", "extensions"];

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What a revision label must be, for error messages. */
export const LABEL_EXPECTED =
  'a revision label of letters, digits, ".", "_" and "-" starting with a letter or digit (at most 64 characters, e.g. 2027-01-01), other than runtime and extensions';

/** Undefined when `label` is a safe revision folder name; else why not. Pure. */
export function revisionLabelProblem(label: string): string | undefined {
  if (label === "") return "it is empty";
  if (label.includes("/") || label.includes("\\")) return "it contains a path separator";
  if (label === "." || label === "..") return "it is a relative folder";
  if (RESERVED_LABELS.includes(label)) return `"${label}" is a folder mcp-stubgen keeps for itself`;
  if (!LABEL.test(label)) return "it has characters other than letters, digits, '.', '_' and '-', or does not start with a letter or digit, or is too long";
  return undefined;
}
