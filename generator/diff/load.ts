import { diffRevisions } from "./diff.js";
import type { RevisionDiff, RevisionInput } from "./types.js";
import { StubgenError } from "../errors.js";
import { checkExtensions, modelRevision } from "../model/revision.js";
import { readPins, type Manifest } from "../load/schema-source.js";
import { requirePin } from "../load/pins.js";

export interface DiffOptions {
  /** The old revision (a known id or one the lockfile pins), or the label of `fromSchema`. */
  readonly from?: string | undefined;
  /** The new revision (a known id or one the lockfile pins), or the label of `toSchema`. */
  readonly to?: string | undefined;
  /** A schema path or URL for the old side, bypassing the cache (labelled `from`, else the path). */
  readonly fromSchema?: string | undefined;
  /** A schema path or URL for the new side, bypassing the cache (labelled `to`, else the path). */
  readonly toSchema?: string | undefined;
  /** Known extensions merged into the old side (e.g. `tasks`), as `generate --extension` does. */
  readonly fromExtensions?: readonly string[] | undefined;
  /** Known extensions merged into the new side. */
  readonly toExtensions?: readonly string[] | undefined;
  /** Schema cache folder (default: `.mcp-stubgen/schema` in the working folder). */
  readonly cacheDir?: string | undefined;
  readonly manifest?: Manifest | undefined;
  /** The lockfile whose pins win over the manifest's (false: none). Default: `mcp-stubgen.lock.json` in the working folder, when it exists. */
  readonly lockfile?: string | false | undefined;
  readonly fetchImpl?: typeof fetch | undefined;
}

/**
 * The programmatic `mcp-stubgen diff`: loads both revisions the way `generate` and `catalog`
 * do (cache checked against its sha256, or a schema given by path or URL), models them with
 * their revision policy, and compares them with `diffRevisions`.
 */
export async function diff(options: DiffOptions): Promise<RevisionDiff> {
  const { from, to } = await diffSides(options);
  return diffRevisions(from, to);
}

/** The two sides as `diff` loads them (for the migration guide, which also reads their models). */
export async function diffSides(options: DiffOptions): Promise<{ from: RevisionInput; to: RevisionInput }> {
  const pins = readPins(options);
  const { manifest } = pins;
  const load = async (side: "from" | "to", revision: string | undefined, schema: string | undefined, extensions: readonly string[]) => {
    const label = revision ?? schema;
    if (label === undefined) throw new StubgenError(`diff needs --${side} REV (or --${side}-schema PATH_OR_URL)`);
    // diff's own flag for a schema of one's own is --from-schema / --to-schema, not --schema.
    if (schema === undefined) requirePin(pins, label, `--${side}-schema`);
    checkExtensions(extensions, [label], manifest);
    const loaded = await modelRevision(label, { cacheDir: options.cacheDir, manifest, lockfile: options.lockfile, schema, fetchImpl: options.fetchImpl, extensions });
    // The report names a side with its extensions: "2026-07-28+tasks".
    const named = [label, ...(loaded.model.extensions ?? []).map((ext) => ext.id)].join("+");
    return { ...loaded, model: { ...loaded.model, revision: named } };
  };
  const from = await load("from", options.from, options.fromSchema, options.fromExtensions ?? []);
  const to = await load("to", options.to, options.toSchema, options.toExtensions ?? []);
  return { from, to };
}
