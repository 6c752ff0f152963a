// Part of `npm run build` (after tsc): the runtime's files as `--emit js` writes them, in
// dist/generator/emit/runtime-js.json, so a `generate --emit js` run transforms only the
// revision's own files (generator/emit/emit-js.ts, PrebuiltJs). Without this file the output is
// the same, only slower.
import { writeFileSync } from "node:fs";

const { renderRuntime } = await import("../dist/generator/emit/render.js");
const { prebuildJs, PREBUILT_URL } = await import("../dist/generator/emit/emit-js.js");
writeFileSync(PREBUILT_URL, `${JSON.stringify(prebuildJs(renderRuntime([], true)))}\n`);
