import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
const dir = "test/generated/2026-07-28";
const files = new Map(readdirSync(dir).filter(f => f.endsWith(".ts")).map(f => [f, readFileSync(join(dir, f), "utf8")]));
let t = performance.now();
const { emitJsFile } = await import("./dist/generator/emit/emit-js.js");
console.log("load", (performance.now() - t).toFixed(0));
t = performance.now();
for (const [p, text] of files) { const t0 = performance.now(); emitJsFile(p, text); console.log(p, text.length, (performance.now()-t0).toFixed(0)); }
console.log("rev", (performance.now() - t).toFixed(0));
