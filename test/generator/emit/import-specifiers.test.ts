import { describe, expect, it } from "vitest";
import { moduleSpecifiers, rewriteFile, withImportExtension } from "../../../generator/emit/import-specifiers.js";
import { outputOptions } from "../../../generator/emit/output-options.js";
import { StubgenError } from "../../../generator/errors.js";

const SIBLINGS = new Set(["types.ts", "protocol.ts", "catalog.ts", "in-memory.ts", "stdio.ts"]);

const SOURCE = `// header: import "./stdio.js" for it; see from "./types.js"
import type * as T from "./types.js";
import {
  ErrorCode,
  type Transport,
} from './protocol.js';
import "./stdio.js";
export * from "./catalog.js";
export { createInMemoryTransportPair } from "./in-memory.js";
export type { X } from "./not-generated.js";
import { readFileSync } from "node:fs";
import { deeper } from "./sub/catalog.js";
import { up } from "../catalog.js";
import { already } from "./types.ts";
const text = 'from "./types.js"';
const key = obj["from"] !== "./types.js";
/* import x from "./catalog.js"; */
const lazy = await import("./catalog.js");
type Lazy = import("./types.js").Foo;
`;

describe("moduleSpecifiers", () => {
  it("finds the specifiers of imports, exports, import() calls and import types, not strings or comments", () => {
    expect(moduleSpecifiers("x.ts", SOURCE).map((s) => s.text)).toEqual([
      "./types.js",
      "./protocol.js",
      "./stdio.js",
      "./catalog.js",
      "./in-memory.js",
      "./not-generated.js",
      "node:fs",
      "./sub/catalog.js",
      "../catalog.js",
      "./types.ts",
      "./catalog.js",
      "./types.js",
    ]);
  });

  it("gives the positions of the text inside the quotes", () => {
    for (const s of moduleSpecifiers("x.ts", SOURCE)) expect(SOURCE.slice(s.start, s.end)).toBe(s.text);
  });
});

describe("rewriteFile", () => {
  it("rewrites exactly the specifiers of sibling generated files", () => {
    const out = rewriteFile("x.ts", SOURCE, SIBLINGS, ".ts");
    expect(out).toBe(
      SOURCE.replace('* as T from "./types.js"', '* as T from "./types.ts"')
        .replace("from './protocol.js'", "from './protocol.ts'")
        .replace('import "./stdio.js";', 'import "./stdio.ts";')
        .replace('export * from "./catalog.js"', 'export * from "./catalog.ts"')
        .replace('from "./in-memory.js"', 'from "./in-memory.ts"')
        .replace('await import("./catalog.js")', 'await import("./catalog.ts")')
        .replace('import("./types.js").Foo', 'import("./types.ts").Foo'),
    );
    // Untouched: the comment, the strings, node:fs, a file that is not generated, sub and parent folders.
    expect(out).toContain('// header: import "./stdio.js" for it; see from "./types.js"');
    expect(out).toContain(`const text = 'from "./types.js"';`);
    expect(out).toContain('obj["from"] !== "./types.js"');
    expect(out).toContain('/* import x from "./catalog.js"; */');
    expect(out).toContain('from "./not-generated.js"');
    expect(out).toContain('from "./sub/catalog.js"');
    expect(out).toContain('from "../catalog.js"');
  });

  it("is the identity for .js and for a file without sibling imports", () => {
    expect(rewriteFile("x.ts", SOURCE, SIBLINGS, ".js")).toBe(SOURCE);
    expect(rewriteFile("x.ts", SOURCE, new Set(), ".ts")).toBe(SOURCE);
  });

  it("leaves a specifier written with escapes as it is", () => {
    const escaped = 'import "./\\u0074ypes.js";\n';
    expect(moduleSpecifiers("x.ts", escaped).map((s) => s.text)).toEqual(["./types.js"]);
    expect(rewriteFile("x.ts", escaped, SIBLINGS, ".ts")).toBe(escaped);
  });
});

describe("withImportExtension", () => {
  const files = new Map([
    ["types.ts", "export type A = 1;\n"],
    ["index.ts", 'export type * from "./types.js";\nexport * from "./catalog.js";\n'],
    ["catalog.ts", 'import type * as T from "./types.js";\nexport const X: 1 = 1;\n'],
    ["README.md", 'import "./types.js"\n'],
  ]);

  it("rewrites every .ts file of the set, keeps the order and leaves other files alone", () => {
    const out = withImportExtension(files, ".ts");
    expect([...out.keys()]).toEqual([...files.keys()]);
    expect(out.get("index.ts")).toBe('export type * from "./types.ts";\nexport * from "./catalog.ts";\n');
    expect(out.get("catalog.ts")).toBe('import type * as T from "./types.ts";\nexport const X: 1 = 1;\n');
    expect(out.get("README.md")).toBe(files.get("README.md"));
  });

  it("rewrites ../runtime/folder/name.js for the files of the shared runtime it is given, and nothing else under ../", () => {
    const shared = new Map([
      ["index.ts", 'export * from "./catalog.js";\nexport * from "../runtime/core/protocol.js";\nexport * from "../runtime/unknown.js";\nexport * from "../other/protocol.js";\n'],
      ["catalog.ts", "export const X: 1 = 1;\n"],
    ]);
    const out = withImportExtension(shared, ".ts", new Set(["core/protocol.ts"]));
    expect(out.get("index.ts")).toBe(
      'export * from "./catalog.ts";\nexport * from "../runtime/core/protocol.ts";\nexport * from "../runtime/unknown.js";\nexport * from "../other/protocol.js";\n',
    );
  });

  it("rewrites imports between the runtime's folders (./name.js, ../folder/name.js), resolved against the importing file", () => {
    const runtime = new Map([
      ["core/protocol.ts", 'import { isObject } from "./json.js";\n'],
      ["core/json.ts", "export const isObject = 1;\n"],
      ["http/sse.ts", 'import { isObject } from "../core/json.js";\nimport "./fetch.js";\nimport "../core/missing.js";\nimport "../../core/json.js";\n'],
      ["http/fetch.ts", "export {};\n"],
    ]);
    const out = withImportExtension(runtime, ".ts");
    expect(out.get("core/protocol.ts")).toBe('import { isObject } from "./json.ts";\n');
    // Untouched: a file the set does not hold, and a path that leaves the folder.
    expect(out.get("http/sse.ts")).toBe('import { isObject } from "../core/json.ts";\nimport "./fetch.ts";\nimport "../core/missing.js";\nimport "../../core/json.js";\n');
    const inline = withImportExtension(new Map([...runtime, ["index.ts", 'export * from "./core/protocol.js";\nexport * from "./protocol.js";\n']]), ".ts");
    expect(inline.get("index.ts")).toBe('export * from "./core/protocol.ts";\nexport * from "./protocol.js";\n');
  });

  it("returns the same set for .js", () => {
    expect(withImportExtension(files, ".js")).toBe(files);
  });
});

describe("outputOptions", () => {
  it("defaults to .js imports, TypeScript output and the shared runtime", () => {
    expect(outputOptions({})).toEqual({ importExtension: ".js", emit: "ts", runtime: "shared" });
    expect(outputOptions({ importExtension: ".ts" })).toEqual({ importExtension: ".ts", emit: "ts", runtime: "shared" });
    expect(outputOptions({ emit: "js" })).toEqual({ importExtension: ".js", emit: "js", runtime: "shared" });
    expect(outputOptions({ runtime: "inline" })).toEqual({ importExtension: ".js", emit: "ts", runtime: "inline" });
  });

  it("rejects unknown values and .ts imports in JavaScript output", () => {
    expect(() => outputOptions({ importExtension: "ts" })).toThrow(StubgenError);
    expect(() => outputOptions({ importExtension: ".mjs" })).toThrow(/expected importExtension ".js" or ".ts", found ".mjs"/);
    expect(() => outputOptions({ emit: "mjs" })).toThrow(/expected emit "ts" or "js", found "mjs"/);
    expect(() => outputOptions({ runtime: "copy" })).toThrow(/expected runtime "shared" or "inline", found "copy"/);
    expect(() => outputOptions({ emit: "js", importExtension: ".ts" })).toThrow(/applies to TypeScript output only/);
  });
});
