import { renderRuntime } from "./dist/generator/emit/render.js";
import { ts } from "ts-morph";
const which = process.argv[2];
const rt = renderRuntime();
const opts = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: true, strict: true, exactOptionalPropertyTypes: true };
let t = performance.now();
for (const [p, text] of rt) {
  if (which.includes("js")) ts.transpileModule(text, { compilerOptions: opts, fileName: p, reportDiagnostics: which.includes("diag") });
  if (which.includes("dts")) ts.transpileDeclaration(text, { compilerOptions: { ...opts, declaration: true, emitDeclarationOnly: true, isolatedDeclarations: true }, fileName: p, reportDiagnostics: which.includes("diag") });
  if (which.includes("parse")) ts.createSourceFile(p, text, ts.ScriptTarget.ES2022, false);
}
console.log(which, (performance.now() - t).toFixed(0));
