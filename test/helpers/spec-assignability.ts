/**
 * Compares generated types with the spec's own TypeScript (`../shared/mcp-schema/<rev>/schema.ts`,
 * read at run time, never copied into the repository): for each type X the spec exports,
 * compiles `(x: Spec.X): Ours.X => x` and `(x: Ours.X): Spec.X => x` under `strict`, and for each
 * value constant C the same with `typeof Spec.C` and `typeof Ours.C`; reports every pair that
 * does not compile (ours lacking X or C included), with the first line of the compiler's reason.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Project, ts } from "ts-morph";

export interface AssignabilityFailure {
  readonly revision: string;
  readonly name: string;
  readonly direction: "spec→ours" | "ours→spec";
  readonly reason: string;
}

export interface AssignabilityReport {
  readonly revision: string;
  /** The spec's types checked (every one it exports; one ours lacks fails both ways). */
  readonly names: number;
  /** The spec's value constants checked (`typeof` both ways: their literal types, so their values). */
  readonly constants: number;
  readonly failures: AssignabilityFailure[];
}

const exportedNames = (source: string): string[] =>
  [...source.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]!);

/** The value constants a file exports (`export const NAME`): the spec's LATEST_PROTOCOL_VERSION, error codes… */
export const exportedConstants = (source: string): string[] => [...source.matchAll(/^export const (\w+)/gm)].map((m) => m[1]!);

/**
 * `specTs` is the spec's schema.ts text, `oursTs` our generated types.ts text, one entry per
 * revision. All revisions are checked in one in-memory program.
 */
export function checkAssignability(inputs: readonly { revision: string; specTs: string; oursTs: string }[]): AssignabilityReport[] {
  const project = new Project({
    useInMemoryFileSystem: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, noEmit: true, types: [], lib: ["lib.es2022.d.ts"] },
  });
  const checks: { revision: string; file: string; lines: { name: string; direction: AssignabilityFailure["direction"] }[]; names: number; constants: number }[] = [];
  for (const { revision, specTs, oursTs } of inputs) {
    const dir = `/${revision}`;
    project.createSourceFile(`${dir}/spec.ts`, specTs);
    project.createSourceFile(`${dir}/ours.ts`, oursTs);
    // Every type and constant the spec exports: one ours does not export fails as not found.
    const names = exportedNames(specTs);
    const constants = exportedConstants(specTs);
    const text = ['import type * as Spec from "./spec";', 'import type * as Ours from "./ours";'];
    const lines: (typeof checks)[number]["lines"] = [];
    const pair = (name: string, spec: string, ours: string) => {
      text.push(`export const s2o_${name} = (x: ${spec}): ${ours} => x;`);
      lines.push({ name, direction: "spec→ours" });
      text.push(`export const o2s_${name} = (x: ${ours}): ${spec} => x;`);
      lines.push({ name, direction: "ours→spec" });
    };
    for (const name of names) pair(name, `Spec.${name}`, `Ours.${name}`);
    // A constant's type is its literal (`export const PARSE_ERROR = -32700`): equal types, equal values.
    for (const name of constants) pair(name, `typeof Spec.${name}`, `typeof Ours.${name}`);
    const file = `${dir}/check.ts`;
    project.createSourceFile(file, text.join("\n"));
    checks.push({ revision, file, lines, names: names.length, constants: constants.length });
  }
  const program = project.getProgram().compilerObject;
  return checks.map(({ revision, file, lines, names, constants }) => {
    const sf = program.getSourceFile(file)!;
    const seen = new Set<number>();
    const failures: AssignabilityFailure[] = [];
    for (const d of program.getSemanticDiagnostics(sf)) {
      const line = sf.getLineAndCharacterOfPosition(d.start ?? 0).line - 2;
      const entry = lines[line];
      if (entry === undefined || seen.has(line)) continue;
      seen.add(line);
      const message = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n");
      // The first line names the two types; the reason is the first line below it.
      const reason = (message.find((l, i) => i > 0 && !/^\s*Type '(Spec|Ours)\.\w+' is not assignable/.test(l)) ?? message[0]!).trim();
      failures.push({ revision, ...entry, reason });
    }
    const other = [...program.getSemanticDiagnostics(program.getSourceFile(`/${revision}/ours.ts`)!), ...program.getSemanticDiagnostics(program.getSourceFile(`/${revision}/spec.ts`)!)];
    if (other.length > 0) throw new Error(`${revision}: ${ts.flattenDiagnosticMessageText(other[0]!.messageText, "\n")}`);
    return { revision, names, constants, failures };
  });
}

/** Reads the spec's schema.ts of each revision and our types.ts from `out/<rev>/types.ts`. */
export function checkOutput(specDir: string, out: string, revisions: readonly string[]): AssignabilityReport[] {
  return checkAssignability(
    revisions.map((revision) => ({
      revision,
      specTs: readFileSync(join(specDir, revision, "schema.ts"), "utf8"),
      oursTs: readFileSync(join(out, revision, "types.ts"), "utf8"),
    })),
  );
}
