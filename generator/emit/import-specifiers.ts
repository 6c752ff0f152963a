/**
 * The extension generated files import each other with. They are written with `./name.js`
 * (what Node, bundlers and tsc's NodeNext resolution expect of TypeScript compiled to
 * JavaScript); `.ts` is for running the sources as they are: Node's type stripping and Deno
 * (tsc then needs `allowImportingTsExtensions`).
 *
 * The rewrite parses each file (TypeScript's parser, through ts-morph, so load this module
 * lazily) and touches only module specifiers: of import and export declarations, `import()`
 * calls and `import("…")` types. Only a relative specifier `….js` naming a `.ts` file of the
 * same file set, or `../runtime/….js` naming a file of the shared runtime, changes;
 * comments, strings and other specifiers stay as they are. Pure.
 */
import { posix } from "node:path";
import { ts } from "ts-morph";
import { RUNTIME_DIR, type ImportExtension } from "./output-options.js";
import type { FileSet } from "./render.js";

/** A module specifier in a file: where its text (inside the quotes) starts and ends, and the text. */
export interface Specifier {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Every module specifier of a TypeScript file, in source order. */
export function moduleSpecifiers(fileName: string, text: string): Specifier[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Specifier[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node !== undefined && ts.isStringLiteral(node)) found.push({ start: node.getStart(source) + 1, end: node.getEnd() - 1, text: node.text });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The generated file a relative `.js` specifier of `fileName` names: a path of the same file set
 * (`folder: "siblings"`), a path of the shared runtime when it climbs into `../runtime/`
 * (`folder: "runtime"`), or null (not relative, not `.js`, or out of the output folder).
 * Folders nest (`./core/protocol.js`, `../core/protocol.js` inside the runtime). Pure.
 */
function relativeModule(fileName: string, specifier: string): { readonly folder: "siblings" | "runtime"; readonly path: string } | null {
  if (!(specifier.startsWith("./") || specifier.startsWith("../")) || !specifier.endsWith(".js") || specifier.includes("\\")) return null;
  const resolved = posix.normalize(posix.join(posix.dirname(fileName), `${specifier.slice(0, -".js".length)}.ts`));
  const runtimePrefix = `../${RUNTIME_DIR}/`;
  if (resolved.startsWith(runtimePrefix)) return { folder: "runtime", path: resolved.slice(runtimePrefix.length) };
  return resolved.startsWith("../") ? null : { folder: "siblings", path: resolved };
}

/**
 * One file with its imports of generated files ending in `extension`: a relative `.js` specifier
 * naming a path in `siblings` (the file set the file belongs to, paths relative to its folder),
 * or `../runtime/path.js` naming a path in `runtime` (the shared runtime's files).
 */
export function rewriteFile(
  fileName: string,
  text: string,
  siblings: ReadonlySet<string>,
  extension: ImportExtension,
  runtime: ReadonlySet<string> = new Set(),
): string {
  let result = "";
  let at = 0;
  for (const specifier of moduleSpecifiers(fileName, text)) {
    const target = relativeModule(fileName, specifier.text);
    if (target === null || !(target.folder === "siblings" ? siblings : runtime).has(target.path)) continue;
    // The literal's source text, not its value: a specifier written with escapes stays as it is.
    if (text.slice(specifier.start, specifier.end) !== specifier.text) continue;
    result += `${text.slice(at, specifier.start)}${specifier.text.slice(0, -".js".length)}${extension}`;
    at = specifier.end;
  }
  return result + text.slice(at);
}

/**
 * The files of one output folder with their imports of each other, and of the shared runtime's
 * files (`runtime`: its file names, when the folder uses `../runtime/`), ending in `extension`.
 */
export function withImportExtension(files: FileSet, extension: ImportExtension, runtime: ReadonlySet<string> = new Set()): FileSet {
  if (extension === ".js") return files;
  // A sibling is any `.ts` file of the folder, at its top or in a subfolder (the runtime's core/, http/, ...).
  const siblings = new Set([...files.keys()].filter((path) => path.endsWith(".ts") && !path.endsWith(".d.ts")));
  return new Map([...files].map(([path, text]): [string, string] => [path, siblings.has(path) ? rewriteFile(path, text, siblings, extension, runtime) : text]));
}
