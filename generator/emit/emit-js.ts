/**
 * `generate --emit js`: every generated `name.ts` becomes `name.js` (ES2022, ES modules) and
 * `name.d.ts`, for projects that vendor JavaScript. Both come from TypeScript's single-file
 * transforms (through ts-morph, so load this module lazily): `transpileModule` for the code
 * and `transpileDeclaration` for the types, which needs nothing but the file itself because
 * the output passes isolatedDeclarations. No type-check, no file system, no clock: the same
 * input gives byte-identical files. Each file keeps the header (and description) comment block
 * it starts with. The runtime's files, the same in every run, come from a table the build makes
 * (PrebuiltJs), so a run transforms only the revision's own files. Pure but for reading that
 * table once.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
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

/**
 * Doc comments are copied as comments, never read as JSDoc (that is for JavaScript sources and
 * editor features): not parsing them makes each transform about a third cheaper, with the same bytes.
 */
const JSDOC = ts.JSDocParsingMode.ParseNone;

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

/** Statements a file of types only consists of, when each is exported (or a type-only import or export). */
const TYPE_ONLY: ReadonlySet<ts.SyntaxKind> = new Set([ts.SyntaxKind.InterfaceDeclaration, ts.SyntaxKind.TypeAliasDeclaration]);

const isExported = (node: ts.Statement) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** A literal as a constant's value: a string, a number, or a negative number (`-32700`). */
const isLiteral = (node: ts.Expression): boolean =>
  ts.isStringLiteral(node) || ts.isNumericLiteral(node) || (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand));

/** A literal constant's statement and its one declaration (the parser sets no parent links). */
interface LiteralConstant {
  readonly statement: ts.Statement;
  readonly declaration: ts.VariableDeclaration;
}

/**
 * `export const NAME: <literal type> = <literal>;`, one name (types.ts's spec constants,
 * `LATEST_PROTOCOL_VERSION`, `PARSE_ERROR`): its JavaScript and its declaration are the statement
 * without the type, and with `declare` and without the value.
 */
function literalConstant(statement: ts.Statement): ts.VariableDeclaration | undefined {
  if (!ts.isVariableStatement(statement) || !isExported(statement) || (statement.declarationList.flags & ts.NodeFlags.Const) === 0) return undefined;
  const [declaration, ...more] = statement.declarationList.declarations;
  if (declaration === undefined || more.length > 0 || !ts.isIdentifier(declaration.name)) return undefined;
  const { type, initializer } = declaration;
  return type !== undefined && ts.isLiteralTypeNode(type) && initializer !== undefined && isLiteral(initializer) ? declaration : undefined;
}

/**
 * The statements of `text` when it holds nothing but exported interfaces and type aliases,
 * type-only imports and exports, and literal constants (types.ts): then its declaration file is
 * itself with the constants declared, and its JavaScript the constants alone. Parsed, not
 * type-checked; a file with a syntax error, or when the parser does not say, is undefined and
 * takes the full transforms, which report it.
 */
function typesOnly(path: string, text: string): { readonly source: ts.SourceFile; readonly constants: readonly LiteralConstant[] } | undefined {
  const source = ts.createSourceFile(path, text, { languageVersion: ts.ScriptTarget.ES2022, jsDocParsingMode: JSDOC }, false, ts.ScriptKind.TS);
  const parseDiagnostics = (source as unknown as { readonly parseDiagnostics?: readonly ts.Diagnostic[] }).parseDiagnostics;
  if (parseDiagnostics === undefined || parseDiagnostics.length > 0) return undefined;
  const constants: LiteralConstant[] = [];
  const simple = source.statements.every((statement) => {
    if (TYPE_ONLY.has(statement.kind)) return isExported(statement);
    if (ts.isImportDeclaration(statement)) return statement.importClause?.isTypeOnly === true;
    if (ts.isExportDeclaration(statement)) return statement.isTypeOnly;
    const constant = literalConstant(statement);
    if (constant !== undefined) constants.push({ statement, declaration: constant });
    return constant !== undefined;
  });
  return simple ? { source, constants } : undefined;
}

/** The JavaScript and declarations of a file typesOnly accepts: written, not transformed. */
function typesOnlyOutput(text: string, header: string, { source, constants }: NonNullable<ReturnType<typeof typesOnly>>): [js: string, dts: string] {
  const js: string[] = [];
  let dts = "";
  let at = 0;
  for (const { statement, declaration } of constants) {
    const comment = text.slice(statement.getFullStart(), statement.getStart(source)).trim();
    const name = declaration.name.getText(source);
    js.push(`${comment === "" ? "" : `${comment}\n`}export const ${name} = ${declaration.initializer!.getText(source)};\n`);
    dts += `${text.slice(at, statement.getStart(source))}export declare const ${name}: ${declaration.type!.getText(source)};`;
    at = statement.getEnd();
  }
  dts += text.slice(at);
  return [withHeader(header, js.length === 0 ? "export {};\n" : js.join("")), withHeader(header, dts.slice(header.length))];
}

/** One TypeScript file's JavaScript and declarations: `[name.js, text], [name.d.ts, text]`. */
export function emitJsFile(path: string, text: string): Array<[string, string]> {
  if (!path.endsWith(".ts") || path.endsWith(".d.ts")) throw new StubgenError(`cannot emit JavaScript for ${path}: expected a .ts file`);
  const base = path.slice(0, -".ts".length);
  const header = headerBlock(text);
  const simple = typesOnly(path, text);
  if (simple !== undefined) {
    const [js, dts] = typesOnlyOutput(text, header, simple);
    return [
      [`${base}.js`, js],
      [`${base}.d.ts`, dts],
    ];
  }
  const js = ts.transpileModule(text, { compilerOptions: JS_OPTIONS, fileName: path, reportDiagnostics: true, jsDocParsingMode: JSDOC });
  failOnDiagnostics(path, "JavaScript", js.diagnostics);
  const dts = ts.transpileDeclaration(text, { compilerOptions: DTS_OPTIONS, fileName: path, reportDiagnostics: true, jsDocParsingMode: JSDOC });
  failOnDiagnostics(path, "declarations", dts.diagnostics);
  return [
    [`${base}.js`, withHeader(header, js.outputText)],
    [`${base}.d.ts`, withHeader(header, dts.outputText)],
  ];
}

/**
 * Emitted texts by source, built with the package (`npm run build` runs
 * scripts/prebuild-runtime-js.mjs): the runtime's files are the same for every run of one
 * version, and transforming them is most of the cost of `--emit js`. Looked up by the sha256 of
 * the `.ts` text, so an entry can only stand for the very text it was made from; `fingerprint`
 * names the emitter (TypeScript's version and the options above), and a table made by another
 * one is not used.
 */
export interface PrebuiltJs {
  readonly fingerprint: string;
  /** sha256 of a `.ts` file's text → its JavaScript and declarations. */
  readonly files: Readonly<Record<string, readonly [js: string, dts: string]>>;
}

/** Where the build writes the runtime's table: beside this module in dist/ (absent when running from source). */
export const PREBUILT_URL: URL = new URL("./runtime-js.json", import.meta.url);

/** What makes two emits of one text differ: the compiler's version and options, and this module's shaping. */
export function emitterFingerprint(): string {
  return sha256(JSON.stringify({ typescript: ts.version, js: JS_OPTIONS, dts: DTS_OPTIONS, shape: 2 }));
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The table of `files`' `.ts` texts, as the build writes it. */
export function prebuildJs(files: FileSet): PrebuiltJs {
  const table: Record<string, readonly [string, string]> = {};
  for (const [path, text] of files) {
    if (!path.endsWith(".ts")) continue;
    const [[, js], [, dts]] = emitJsFile(path, text) as [[string, string], [string, string]];
    table[sha256(text)] = [js, dts];
  }
  return { fingerprint: emitterFingerprint(), files: table };
}

const isPair = (value: unknown): value is readonly [string, string] =>
  Array.isArray(value) && value.length === 2 && typeof value[0] === "string" && typeof value[1] === "string";

/**
 * The build's table, or undefined when there is none, it does not parse as one, or another
 * emitter made it: then every file is transformed, which gives the same bytes, only slower.
 */
export function loadPrebuiltJs(url: URL = PREBUILT_URL): PrebuiltJs | undefined {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(url, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof json !== "object" || json === null) return undefined;
  const { fingerprint, files } = json as Record<string, unknown>;
  if (fingerprint !== emitterFingerprint() || typeof files !== "object" || files === null) return undefined;
  if (!Object.values(files).every(isPair)) return undefined;
  return { fingerprint, files: files as PrebuiltJs["files"] };
}

let defaultTable: PrebuiltJs | undefined | null = null;

/**
 * The files of one revision as JavaScript and declarations; files that are not `.ts` pass
 * through. A file whose text is in `prebuilt` (default: the build's table) is taken from there.
 */
export function emitJs(files: FileSet, prebuilt: PrebuiltJs | undefined = defaultTable === null ? (defaultTable = loadPrebuiltJs()) : defaultTable): FileSet {
  const emit = (path: string, text: string): Array<[string, string]> => {
    // A hex digest is never a prototype key ("constructor", ...): a plain lookup is exact.
    const hit = prebuilt?.files[sha256(text)];
    if (hit === undefined || path.endsWith(".d.ts")) return emitJsFile(path, text);
    const base = path.slice(0, -".ts".length);
    return [
      [`${base}.js`, hit[0]],
      [`${base}.d.ts`, hit[1]],
    ];
  };
  return new Map([...files].flatMap(([path, text]): Array<[string, string]> => (path.endsWith(".ts") ? emit(path, text) : [[path, text]])));
}
