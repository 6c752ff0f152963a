/**
 * The options of the CLI's commands as data: yargs builds its parser and help from these tables
 * (main.ts), and the fast path (fast-args.ts) parses the common command lines from the same
 * tables without loading yargs. No imports: this module is loaded on every start.
 */

export interface OptionSpec {
  readonly type: "string" | "boolean";
  readonly alias?: string;
  readonly array?: boolean;
  readonly describe: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export const GLOBAL_OPTIONS: OptionTable = {
  config: { type: "string", describe: "Config file (default: mcp-stubgen.config.json, or the \"mcp-stubgen\" key of package.json)" },
  cache: { type: "string", describe: "Schema cache folder (default: .mcp-stubgen/schema beside the config file, else in the working folder)" },
  lockfile: { type: "string", describe: "Lockfile of the schema pins (default: mcp-stubgen.lock.json beside the config file, else in the working folder)" },
};

export const GENERATE_OPTIONS: OptionTable = {
  revision: { alias: "r", type: "string", array: true, describe: "Revision to generate (repeatable)" },
  all: { type: "boolean", describe: "Generate every known revision" },
  schema: { type: "string", describe: "Schema path or URL (bypasses the cache; one revision, labelled by --revision or 'custom')" },
  extension: { alias: "x", type: "string", array: true, describe: "Merge a known extension into each revision (repeatable; e.g. tasks; see schema list)" },
  out: { alias: "o", type: "string", describe: "Output folder (default: out)" },
  check: { type: "boolean", describe: "Write nothing; list stale or missing files and exit 1 if any" },
  fragment: { type: "boolean", describe: "The schema is a fragment: no ClientRequest/ServerRequest/… unions is not an error" },
  "result-override": { type: "string", array: true, describe: "method=TypeName, for a result the derivation gets wrong" },
  "import-ext": { type: "string", describe: "Extension of the generated files' imports of each other (default: js; ts for Node type stripping and Deno)" },
  emit: { type: "string", describe: "ts (default): TypeScript sources; js: a .js and a .d.ts file for each" },
  runtime: {
    type: "string",
    describe: "shared (default): the runtime once in <out>/runtime/, imported by every revision; inline: a copy in each revision folder",
  },
  "strict-objects": {
    type: "boolean",
    describe:
      "Index signatures only where a definition itself allows extra properties: misspelt properties in results become errors, but the types no longer accept values of the spec's own TypeScript types (default: off)",
  },
  addon: {
    type: "string",
    array: true,
    describe: "Copy an add-on into the runtime (repeatable): a module that imports an npm package you install (see docs/addons.md)",
  },
  force: { type: "boolean", describe: "Generate even when the schema, options and generator are unchanged since the last run and its files are intact" },
};

export const CATALOG_OPTIONS: OptionTable = {
  revision: { alias: "r", type: "string", describe: "Revision (or the label of --schema)" },
  schema: { type: "string", describe: "Schema path or URL (bypasses the cache)" },
  extension: { alias: "x", type: "string", array: true, describe: "Merge a known extension into the revision (repeatable; e.g. tasks)" },
  json: { type: "boolean", describe: "Print JSON instead of a table" },
  fragment: { type: "boolean", describe: "The schema is a fragment: no direction unions is not an error" },
  "result-override": { type: "string", array: true, describe: "method=TypeName" },
};

export const DIFF_OPTIONS: OptionTable = {
  from: { type: "string", describe: "Old revision (or the label of --from-schema)" },
  to: { type: "string", describe: "New revision (or the label of --to-schema)" },
  "from-schema": { type: "string", describe: "Old schema path or URL (bypasses the cache)" },
  "to-schema": { type: "string", describe: "New schema path or URL (bypasses the cache)" },
  "from-extension": { type: "string", array: true, describe: "Merge a known extension into the old side (repeatable)" },
  "to-extension": { type: "string", array: true, describe: "Merge a known extension into the new side (repeatable)" },
  json: { type: "boolean", describe: "Print JSON instead of Markdown" },
  migrate: { type: "boolean", describe: "Print a migration guide: repeated changes folded, moves and renames, the generated API's changes, what to change in your code" },
  "fail-on": { type: "string", describe: 'Exit 1 when the diff has a change of this kind (one kind: "breaking")' },
};

/** The commands the fast path may run, with their options (the global ones apply to each). */
export const FAST_COMMANDS: Readonly<Record<string, OptionTable>> = {
  generate: GENERATE_OPTIONS,
  catalog: CATALOG_OPTIONS,
  diff: DIFF_OPTIONS,
};
