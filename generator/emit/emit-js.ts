/**
 * `generate --emit js`: every generated `name.ts` becomes `name.js` (ES2022, ES modules) and
 * `name.d.ts`, for projects that vendor JavaScript. Both come from TypeScript's single-file
 * transforms (through ts-morph, so load this module lazily): `transpileModule` for the code
 * and `transpileDeclaration` for the types, which needs nothing but the file itself because
 * the output passes isolatedDeclarations. No type-check, no file system, no clock: the same
 * input gives byte-identical files. Each file keeps the header (and description) comment block
 * it starts with. Pure.
 */
import { ts } from "ts-morph";
import { StubgenError } from "../errors.js";
import type { FileSet } from "./render.js";

const COMMON: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
  newLine: ts.NewLineKind.LineFeed,
  removeComments: false,
  sourceMap: false,
  inlineSourceMap: false,
  strict: true,
  exactOptionalPropertyTypes: true,
};

const JS_OPTIONS: ts.CompilerOptions = { ...COMMON };
const DTS_OPTIONS: ts.CompilerOptions = { ...COMMON, declaration: true, emitDeclarationOnly: true, isolatedDeclarations: true };

/** The `//` comment lines a file starts with (the generator's header and the file's description). */
export function headerBlock(text: string): string {
  const lines = text.split("\n");
  const count = lines.findIndex((line) => !line.startsWith("//"));
  return lines.slice(0, count === -1 ? lines.length : count).map((line) => `${line}\n`).join("");
}

/** `output` starting with `header`, then one blank line, whether or not the emitter kept it. */
function withHeader(header: string, output: string): string {
  if (header === "") return output;
  const rest = output.startsWith(header) ? output.slice(header.length) : output;
  return `${header}\n${rest.replace(/^\n+/, "")}`;
}

function failOnDiagnostics(path: string, what: string, diagnostics: readonly ts.Diagnostic[] | undefined): void {
  const first = diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
  if (first === undefined) return;
  const where = first.file && first.start !== undefined ? first.file.getLineAndCharacterOfPosition(first.start) : undefined;
  const at = where ? `:${where.line + 1}:${where.character + 1}` : "";
  throw new StubgenError(`cannot emit ${what} for ${path}${at}: ${ts.flattenDiagnosticMessageText(first.messageText, " ")}`);
}

/** One TypeScript file's JavaScript and declarations: `[name.js, text], [name.d.ts, text]`. */
export function emitJsFile(path: string, text: string): Array<[string, string]> {
  if (!path.endsWith(".ts") || path.endsWith(".d.ts")) throw new StubgenError(`cannot emit JavaScript for ${path}: expected a .ts file`);
  const base = path.slice(0, -".ts".length);
  const header = headerBlock(text);
  const js = ts.transpileModule(text, { compilerOptions: JS_OPTIONS, fileName: path, reportDiagnostics: true });
  failOnDiagnostics(path, "JavaScript", js.diagnostics);
  const dts = ts.transpileDeclaration(text, { compilerOptions: DTS_OPTIONS, fileName: path, reportDiagnostics: true });
  failOnDiagnostics(path, "declarations", dts.diagnostics);
  return [
    [`${base}.js`, withHeader(header, js.outputText)],
    [`${base}.d.ts`, withHeader(header, dts.outputText)],
  ];
}

/** The files of one revision as JavaScript and declarations; files that are not `.ts` pass through. */
export function emitJs(files: FileSet): FileSet {
  return new Map([...files].flatMap(([path, text]): Array<[string, string]> => (path.endsWith(".ts") ? emitJsFile(path, text) : [[path, text]])));
}
