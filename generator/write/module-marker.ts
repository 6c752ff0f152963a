import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { StubgenError } from "../errors.js";
import type { EmitKind } from "../emit/output-options.js";
import type { FileSet } from "../emit/render.js";

/**
 * The `package.json` that `--emit js` writes to the output root: `{"type": "module"}`, so Node
 * (and TypeScript's NodeNext resolution) treats the generated `.js` and `.d.ts` files as ES
 * modules even inside a project whose own package.json says `"type": "commonjs"` (npm 11's
 * `npm init -y`). Node uses the nearest package.json above a file, so one marker at the root
 * covers every revision folder and the shared runtime. It names no package: it is not a
 * workspace and npm never installs from it.
 */
export const MARKER_FILE = "package.json";

/** The `"//"` note that tells our marker from a package.json the user keeps in the output folder. */
const MARKER_NOTE = "Written by mcp-stubgen generate --emit js: the generated .js files are ES modules. Do not edit.";

export const MARKER_TEXT = `${JSON.stringify({ "//": MARKER_NOTE, type: "module" }, null, 2)}\n`;

/** The key of the output root in an `Output` map (write-output.ts): its files sit directly in `<out>/`. */
export const ROOT_FOLDER = "";

/** Whether `text` is a marker this generator wrote (any version: the note, parsed, not the bytes). */
export function isMarker(text: string): boolean {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === "object" && json !== null && (json as Record<string, unknown>)["//"] === MARKER_NOTE;
  } catch {
    return false;
  }
}

/** The text of `<outDir>/package.json`, or undefined when there is none (or it is not a file). */
function readRootPackage(outDir: string): string | undefined {
  const file = join(outDir, MARKER_FILE);
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  return readFileSync(file, "utf8");
}

/** `"module"` when `text` is a package.json whose `type` is `module`. */
function packageType(text: string): unknown {
  try {
    const json: unknown = JSON.parse(text);
    return typeof json === "object" && json !== null ? (json as Record<string, unknown>)["type"] : undefined;
  } catch {
    return undefined;
  }
}

/** Folders of `outDir` (not hidden, not in `except`) that hold a `.js` file at any depth. */
function foldersWithJs(outDir: string, except: readonly string[]): string[] {
  const hasJs = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) => (e.isDirectory() ? hasJs(join(dir, e.name)) : e.name.endsWith(".js")));
  if (!existsSync(outDir) || !statSync(outDir).isDirectory()) return [];
  return readdirSync(outDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !except.includes(e.name) && hasJs(join(outDir, e.name)))
    .map((e) => e.name);
}

/**
 * The files of the output root a run manages: with `emit: "js"`, the marker (nothing when the
 * user's own package.json there already says `"type": "module"`; an error when it says anything
 * else, since overwriting it is not ours to do). With `emit: "ts"`, an empty set (remove) when
 * our marker is there and no folder outside `generated` still holds JavaScript. `undefined`:
 * leave the root alone.
 */
export function rootFiles(outDir: string, emit: EmitKind, generated: readonly string[]): FileSet | undefined {
  let existing: string | undefined;
  try {
    existing = readRootPackage(outDir);
  } catch (err) {
    throw new StubgenError(`cannot read the output folder: ${(err as Error).message}`, { file: outDir });
  }
  const ours = existing !== undefined && isMarker(existing);
  if (emit === "js") {
    if (existing === undefined || ours) return new Map([[MARKER_FILE, MARKER_TEXT]]);
    if (packageType(existing) === "module") return undefined;
    throw new StubgenError(
      `cannot mark the JavaScript output as ES modules: ${MARKER_FILE} there is not mcp-stubgen's and its "type" is not "module"; give --out a folder of its own, or set "type": "module" in it`,
      { file: join(outDir, MARKER_FILE) },
    );
  }
  if (!ours) return undefined;
  return foldersWithJs(outDir, generated).length === 0 ? new Map() : undefined;
}

/** What `<outDir>/package.json` holds now, as a digest (null: there is none), for the skip-work stamp (write/stamp.ts). */
export function markerState(outDir: string): string | null {
  try {
    return createHash("sha256").update(readFileSync(join(outDir, "package.json"))).digest("hex");
  } catch {
    return null;
  }
}
