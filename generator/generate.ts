import { sep } from "node:path";
import { StubgenError } from "./errors.js";
import { LABEL_EXPECTED, revisionLabelProblem } from "./load/revision-label.js";
import { checkDirectionUnions } from "./model/model.js";
import type { FileSet } from "./emit/render.js";
import { catalogJson, type CatalogJson } from "./model/catalog-data.js";
import { extensionInfo, readPins } from "./load/schema-source.js";
import { allRevisions, extensionPin, requirePin, revisionPin, type Pins } from "./load/pins.js";
import { checkExtensions, finishModel, modelRevision, type ModelRevisionOptions } from "./model/revision.js";
import { checkOutput, sharedRuntimeUsers, writeOutput, type CheckReport } from "./write/write-output.js";
import { markerState, rootFiles, ROOT_FOLDER } from "./write/module-marker.js";
import { stampKey, stampPath, upToDate, writeStamp } from "./write/stamp.js";
import { defaultCacheDir } from "./project.js";
import { APPS_DIR, protocolExtensions } from "./emit/apps-select.js";
import type { MethodRecord } from "./model/model.js";
import { EVERY_ERA_DIR, outputOptions, RUNTIME_DIR, type EmitKind, type ImportExtension, type OutputOptions, type RuntimeLayout } from "./emit/output-options.js";

/** The model's options (model/revision.ts: schema, cache, manifest, extensions, result overrides) and the run's. */
export interface GenerateOptions extends ModelRevisionOptions {
  /** Revisions to generate (ids of schema/revisions.json or labels the lockfile pins, or a label with `schema`). */
  readonly revisions?: readonly string[] | undefined;
  /** Generate every known revision, then every revision only the lockfile pins. */
  readonly all?: boolean | undefined;
  /** A schema path or URL that bypasses the cache (one revision, labelled `custom` by default). */
  readonly schema?: string | undefined;
  /** Output folder (default `out`). */
  readonly out?: string | undefined;
  /** Compare with the output folder instead of writing. */
  readonly check?: boolean | undefined;
  /**
   * The extension generated files import each other with: `.js` (default; compiled or bundled
   * TypeScript) or `.ts` (Node's type stripping, Deno; tsc needs allowImportingTsExtensions).
   */
  readonly importExtension?: ImportExtension | undefined;
  /** `ts` (default): TypeScript sources; `js`: a `.js` and a `.d.ts` file for each of them. */
  readonly emit?: EmitKind | undefined;
  /**
   * `shared` (default): the revision-independent runtime is written once to `<out>/runtime/` and
   * every `<out>/<revision>/` imports it; `inline`: each revision folder holds its own copy.
   */
  readonly runtime?: RuntimeLayout | undefined;
  /**
   * Result and other object types without the index signatures the spec's TypeScript inherits
   * (misspelt properties in handler results become errors; the types are then not assignable
   * from the spec's `schema.ts` types). Default false.
   */
  readonly strictObjects?: boolean | undefined;
  /** The schema is a fragment: no MCP direction unions is fine (else an error). */
  readonly fragment?: boolean | undefined;
  /**
   * Generate even when the schema, the options and the generator are those of the last run and its
   * files are on disk unchanged (write/stamp.ts). Default false: such a run is skipped.
   */
  readonly force?: boolean | undefined;
  /**
   * Add-ons to copy into the runtime (emit/addons.ts: modules that import an npm package, such as
   * a Redis store). Default none: the output imports nothing outside Node.
   */
  readonly addons?: readonly string[] | undefined;
}

export interface GenerateResult {
  readonly outDir: string;
  /** The files of `<out>/runtime/` (empty with `runtime: "inline"`). */
  readonly runtime: readonly string[];
  /**
   * Each revision written (or checked): its files, the extensions merged in, and `rulesOf`, the
   * known revision whose prose rules it follows when that is another one (an unknown label; the
   * CLI prints a line for it: policy.ts inheritanceNote).
   */
  readonly revisions: ReadonlyArray<{ readonly revision: string; readonly files: readonly string[]; readonly extensions: readonly string[]; readonly rulesOf?: string | undefined }>;
  /** The folders of the extensions generated beside the revisions (`apps`), each with its files; absent when none. */
  readonly protocols?: ReadonlyArray<{ readonly folder: string; readonly files: readonly string[] }>;
  /** Present with `check`: what is out of date (empty lists: up to date). */
  readonly check?: CheckReport;
  /** True when nothing was rendered or written: inputs and files are those of the last run (write/stamp.ts). */
  readonly upToDate?: boolean;
  /** The npm packages the chosen add-ons import (package → version range); empty without add-ons. */
  readonly packages?: Readonly<Record<string, string>>;
  /**
   * After a write: the files it wrote or removed, relative to `outDir` with "/" separators
   * (`runtime/core/json.ts`); empty when every file was already as generated.
   */
  readonly changed?: readonly string[];
}

export const DEFAULT_OUT_DIR = "out";
export const CUSTOM_REVISION = "custom";

/**
 * Which revisions a run covers: those named (each known or pinned by the lockfile), or with `all`
 * every known revision and then those only the lockfile pins.
 */
export function selectRevisions(options: GenerateOptions, pins: Pins): string[] {
  const given = [...new Set(options.revisions ?? [])];
  if (options.schema !== undefined) {
    if (options.all) throw new StubgenError("--all cannot be combined with --schema (one schema is one revision)");
    if (given.length > 1) throw new StubgenError("--schema takes at most one --revision (the label of that schema)");
    return [given[0] ?? CUSTOM_REVISION];
  }
  if (options.all) return allRevisions(pins);
  if (given.length === 0) throw new StubgenError("nothing to generate: expected --revision REV (repeatable), --all or --schema");
  for (const id of given) requirePin(pins, id);
  return given;
}

/**
 * Refuses a revision whose output folder would be the shared runtime's, or no plain folder name
 * (a `--schema` label such as `../x` would be written outside the output folder). Pure.
 */
export function checkOutputLabels(revisions: readonly string[]): void {
  const holds: ReadonlyArray<readonly [string, string]> = [[EVERY_ERA_DIR, "the server of every revision"], [APPS_DIR, "the MCP Apps protocol (--extension apps)"]];
  for (const [reserved, what] of holds) {
    if (revisions.includes(reserved)) throw new StubgenError(`a revision cannot be labelled "${reserved}": <out>/${reserved}/ holds ${what}; give the schema another label with --revision`);
  }
  if (revisions.includes(RUNTIME_DIR)) {
    throw new StubgenError(
      `a revision cannot be labelled "${RUNTIME_DIR}": <out>/${RUNTIME_DIR}/ holds the runtime the revisions share; give the schema another label with --revision`,
    );
  }
  for (const label of revisions) {
    const problem = revisionLabelProblem(label);
    if (problem !== undefined) throw new StubgenError(`--revision ${JSON.stringify(label)}: ${problem}; expected ${LABEL_EXPECTED}`);
  }
}

/**
 * The rendered files of one output folder as the output options want them written. `runtime`:
 * the file names of the shared runtime the folder imports from `../runtime/` (none for the
 * runtime itself and for an inline revision). The transforms load TypeScript, so they are
 * imported only when an option asks for them.
 */
export async function finishFiles(files: FileSet, options: OutputOptions, runtime: ReadonlySet<string> = new Set(), cacheDir?: string): Promise<FileSet> {
  let finished = files;
  if (options.importExtension !== ".js") {
    const { withImportExtension } = await import("./emit/import-specifiers.js");
    finished = withImportExtension(finished, options.importExtension, runtime);
  }
  if (options.emit === "js") {
    // From the build's table and the project's cache where they hold a text; TypeScript only for the rest.
    const { emitJsCached } = await import("./emit/emit-js-cache.js");
    finished = await emitJsCached(finished, cacheDir);
  }
  return finished;
}

/**
 * The programmatic entry point (build scripts): generate the selected revisions into
 * `out/<revision>/` (and, with the shared runtime, `out/runtime/`), or with `check` report what
 * is stale without writing anything.
 */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const pins = readPins(options);
  const { manifest } = pins;
  const outDir = options.out ?? DEFAULT_OUT_DIR;
  const finish = outputOptions(options);
  const selected = selectRevisions(options, pins);
  checkOutputLabels(selected);
  checkExtensions(options.extensions ?? [], selected, manifest);
  const { checkAddons, addonPackages } = await import("./emit/addons.js");
  const addons = checkAddons(options.addons ?? []);
  const packages = addonPackages(addons);
  const shared = finish.runtime === "shared";
  const key = options.force || options.fetchImpl !== undefined || options.extensionPolicies !== undefined ? undefined : stampKey(stampInputs(options, finish, selected, outDir, addons, pins));
  const stampFile = stampPath(options.cacheDir, outDir);
  const stamped = key === undefined ? undefined : upToDate(stampFile, outDir, key);
  if (stamped !== undefined) return { outDir, ...stamped, upToDate: true, packages, changed: [], ...(options.check ? { check: { stale: [], missing: [], extra: [] } } : {}) };
  const { renderRevision, renderRuntime, renderEveryEra } = await import("./emit/render.js");
  // Extensions generated beside the revisions (apps): the methods of the revision they build on.
  const protocols = protocolExtensions(options.extensions ?? [], manifest);
  // The MCP Apps runtime (runtime/apps/) goes only into an output that has the apps protocol.
  const apps = protocols.length > 0;
  const runtimeFiles = shared ? renderRuntime(addons, apps) : undefined;
  const runtimeNames: ReadonlySet<string> = new Set(runtimeFiles?.keys() ?? []);
  const revisionOutput = new Map<string, FileSet>();
  // --emit js keeps what it transformed in the cache folder (emit-js-cache.ts); a --check run writes nothing there.
  const emitCache = options.check ? undefined : (options.cacheDir ?? defaultCacheDir(process.cwd()));
  const merged = new Map<string, string[]>();
  const rulesOf = new Map<string, string>();
  const baseMethods = new Map<string, readonly MethodRecord[]>();
  for (const revision of selected) {
    const loaded = await modelRevision(revision, { ...options, manifest });
    if (protocols.some((p) => p.base === revision)) baseMethods.set(revision, loaded.model.methods);
    merged.set(revision, (loaded.model.extensions ?? []).map((ext) => ext.id));
    if (loaded.basis?.inherited === true) rulesOf.set(revision, loaded.basis.revision);
    if (!options.fragment) checkDirectionUnions(loaded.doc);
    const model = finishModel(loaded);
    revisionOutput.set(revision, await finishFiles(await renderRevision(model, { layout: finish.runtime, strictObjects: options.strictObjects, addons }), finish, runtimeNames, emitCache));
  }
  const output = new Map<string, FileSet>();
  if (runtimeFiles !== undefined) output.set(RUNTIME_DIR, await finishFiles(runtimeFiles, finish, new Set(), emitCache));
  // Inline: a shared runtime left from an earlier run goes, unless revisions not generated now still
  // import it; so does the every-era entry of that run, which imports it.
  else if (sharedRuntimeUsers(outDir, [...revisionOutput.keys(), EVERY_ERA_DIR]).length === 0) {
    output.set(RUNTIME_DIR, new Map());
    output.set(EVERY_ERA_DIR, new Map());
  }
  for (const [revision, files] of revisionOutput) output.set(revision, files);
  // Several revisions on the shared runtime: one server for all of them (<out>/every-era/index.ts).
  // Fewer: an entry left from an earlier run stays as it is (it serves the revisions it names).
  if (shared && revisionOutput.size > 1) output.set(EVERY_ERA_DIR, await finishFiles(renderEveryEra([...revisionOutput.keys()]), finish, runtimeNames, emitCache));
  for (const { id, base } of protocols) {
    const { renderAppsOutput } = await import("./emit/apps-output.js");
    output.set(APPS_DIR, await finishFiles(await renderAppsOutput(id, base, baseMethods.get(base), finish.runtime, { ...options, manifest }), finish, runtimeNames, emitCache));
  }
  // JavaScript output: <out>/package.json says "type": "module" (module-marker.ts).
  const root = rootFiles(outDir, finish.emit, [...output.keys()]);
  if (root !== undefined) output.set(ROOT_FOLDER, root);
  const runtime = [...(output.get(RUNTIME_DIR)?.keys() ?? [])];
  const revisions = [...revisionOutput].map(([revision, files]) => {
    const basis = rulesOf.get(revision);
    return { revision, files: [...files.keys()], extensions: merged.get(revision) ?? [], ...(basis === undefined ? {} : { rulesOf: basis }) };
  });
  const protocolFolders = protocols.length === 0 ? {} : { protocols: [{ folder: APPS_DIR, files: [...(output.get(APPS_DIR)?.keys() ?? [])] }] };
  if (options.check) return { outDir, runtime, revisions, packages, ...protocolFolders, check: checkOutput(outDir, output) };
  const report = writeOutput(outDir, output);
  const changed = [...report.written, ...report.removed].map((path) => path.split(sep).join("/"));
  // Recorded under the key the next run will compute: with JavaScript output, this run may have
  // just written <out>/package.json, which is part of the key.
  const next = key === undefined || finish.emit !== "js" ? key : stampKey(stampInputs(options, finish, selected, outDir, addons, pins));
  if (next !== undefined && output.has(RUNTIME_DIR)) writeStamp(stampFile, next, output, { runtime, revisions });
  return { outDir, runtime, revisions, packages, changed, ...protocolFolders };
}

/** What the stamp's key is made of: every option that shapes the output, defaulted, and the pins the cache is checked against. */
function stampInputs(options: GenerateOptions, finish: OutputOptions, selected: readonly string[], outDir: string, addons: readonly string[], pins: Pins): Parameters<typeof stampKey>[0] {
  return {
    // JavaScript output: what <out>/package.json holds decides what the run writes there (the
    // marker, or nothing beside a user's own), so the run is not skipped when it changed.
    rootPackageJson: finish.emit === "js" ? markerState(outDir) : null,
    selected,
    cacheDir: options.cacheDir,
    schema: options.schema,
    extensions: options.extensions ?? [],
    manifest: options.manifest,
    options: {
      ...finish,
      // A lockfile pin that changed makes the run load (and check) the cache again.
      pins: options.schema !== undefined ? [] : [...selected.map((id) => revisionPin(pins, id)?.sha256 ?? null), ...[...new Set(options.extensions ?? [])].map((id) => extensionPinSha(pins, id))],
      strictObjects: options.strictObjects ?? false,
      fragment: options.fragment ?? false,
      addons,
      resultOverrides: Object.entries(options.resultOverrides ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      rulesOf: Object.entries(options.rulesOf ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    },
  };
}

/** The sha256 an extension's cache file must have (null: not a known extension; loading says so). */
function extensionPinSha(pins: Pins, id: string): string | null {
  try {
    return extensionPin(pins, extensionInfo(pins.manifest, id)).sha256;
  } catch {
    return null;
  }
}

/** The method catalog of one revision, as `mcp-stubgen catalog --json` prints it. */
export async function catalog(options: GenerateOptions & { readonly revision?: string | undefined }): Promise<CatalogJson> {
  const pins = readPins(options);
  const { manifest } = pins;
  const [revision] = selectRevisions({ ...options, revisions: options.revision ? [options.revision] : [] }, pins);
  checkExtensions(options.extensions ?? [], [revision!], manifest);
  const { doc, model } = await modelRevision(revision!, { ...options, manifest });
  if (!options.fragment) checkDirectionUnions(doc);
  return catalogJson(model);
}
