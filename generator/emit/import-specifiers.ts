/**
 * The extension generated files import each other with. They are written with `./name.js`
 * (what Node, bundlers and tsc's NodeNext resolution expect of TypeScript compiled to
 * JavaScript); `.ts` is for running the sources as they are: Node's type stripping and Deno
 * (tsc then needs `allowImportingTsExtensions`).
 *
 * The rewrite parses each file (TypeScript's parser, through ts-morph, so load this module
 * lazily) and touches only module specifiers: of import and export declarations, `import()`
 * calls and `import("…")` types. Only a specifier `./name.js` naming a sibling `name.ts` of
 * the same file set changes; comments, strings and other specifiers stay as they are. Pure.
 */
import { ts } from "ts-morph";
import type { ImportExtension } from "./output-options.js";
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

/** `./name.js` → `name`, for a specifier of a sibling file; else null. */
function siblingName(specifier: string): string | null {
  const match = /^\.\/([^/\\]+)\.js$/.exec(specifier);
  return match ? match[1]! : null;
}

/** One file with its sibling specifiers (`./name.js` where `name.ts` is in `siblings`) ending in `extension`. */
export function rewriteFile(fileName: string, text: string, siblings: ReadonlySet<string>, extension: ImportExtension): string {
  let result = "";
  let at = 0;
  for (const specifier of moduleSpecifiers(fileName, text)) {
    const name = siblingName(specifier.text);
    if (name === null || !siblings.has(`${name}.ts`)) continue;
    // The literal's source text, not its value: a specifier written with escapes stays as it is.
    if (text.slice(specifier.start, specifier.end) !== specifier.text) continue;
    result += `${text.slice(at, specifier.start)}./${name}${extension}`;
    at = specifier.end;
  }
  return result + text.slice(at);
}

/** The files of one revision with their imports of each other ending in `extension`. */
export function withImportExtension(files: FileSet, extension: ImportExtension): FileSet {
  if (extension === ".js") return files;
  // The output is one flat folder: a sibling is a `.ts` file at its top.
  const siblings = new Set([...files.keys()].filter((path) => !path.includes("/") && path.endsWith(".ts") && !path.endsWith(".d.ts")));
  return new Map([...files].map(([path, text]): [string, string] => [path, siblings.has(path) ? rewriteFile(path, text, siblings, extension) : text]));
}
