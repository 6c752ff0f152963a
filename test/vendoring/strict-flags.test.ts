/**
 * The generated output of every published revision (test/generated/, from test/prepare.mjs)
 * vendors under the flags of transpile-only and declaration-only tool chains:
 * isolatedDeclarations, erasableSyntaxOnly, isolatedModules and verbatimModuleSyntax, on top of
 * strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess and noImplicitOverride. Checked
 * with ts-morph's TypeScript (6) in process and with the repository's tsc CLI (7, native), and
 * with the two `lib` set-ups the README names. The explicit annotations of METHODS and RULES
 * are exactly the `as const` types of their data, so nobody loses a literal type.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REVISIONS, TEST_OUT_DIR } from "../helpers/schemas.js";
import { STRICT_OPTIONS } from "../helpers/typecheck.js";
import { generatedFiles, runTsc, typecheckWith, VENDOR_FLAGS, VENDOR_OPTIONS } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "mcp-stubgen-vendoring-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the generated output of every published revision", () => {
  it("type-checks with isolatedDeclarations, erasableSyntaxOnly, isolatedModules, verbatimModuleSyntax and the strict flags (TypeScript 6, in process)", () => {
    const files = generatedFiles();
    // six files per revision (types, catalog, client, server, index, the stdio re-export) and the shared runtime's eight
    expect(files.length).toBeGreaterThanOrEqual(REVISIONS.length * 6 + 8);
    expect(typecheckWith(files, VENDOR_OPTIONS)).toEqual([]);
  });

  it("does the same under the tsc CLI (TypeScript 7)", () => {
    const { status, output } = runTsc([...VENDOR_FLAGS, "--types", "node", ...generatedFiles()]);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it.each([
    { setup: "lib ES2022 + DOM, no @types", flags: ["--lib", "ES2022,DOM", "--types", ""] },
    { setup: "lib ES2022 + @types/node", flags: ["--lib", "ES2022", "--types", "node"] },
  ])("needs no more than $setup", ({ flags }) => {
    const { status, output } = runTsc([...VENDOR_FLAGS, ...flags, ...generatedFiles()]);
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("needs some lib for its globals: ES2022 alone lacks AbortSignal, Event, timers, queueMicrotask, structuredClone, console and (its HTTP client transport) fetch and its types", () => {
    const { status, output } = runTsc([...VENDOR_FLAGS, "--lib", "ES2022", "--types", "", join(TEST_OUT_DIR, "2025-11-25", "index.ts")]);
    expect(status).not.toBe(0);
    const missing = new Set([...output.matchAll(/Cannot find name '(\w+)'/g)].map((m) => m[1]));
    expect([...missing].sort()).toEqual([
      "AbortController",
      "AbortSignal",
      // The web face of the HTTP servers (http/server/web-face.ts): streamed bodies that count bytes.
      "ByteLengthQueuingStrategy",
      "Event",
      // The HTTP servers' Request → Response face and its types (web-face.ts, reached through
      // toNodeListener and the HttpHandler type); random session ids (crypto).
      "Headers",
      // The session revisions' index exports the Streamable HTTP client (http-session-client.ts,
      // with the shared HTTP room's fetch.ts and sse.ts): the web fetch API.
      "ReadableStream",
      "ReadableStreamDefaultController",
      "ReadableStreamDefaultReader",
      "Request",
      "RequestInit",
      "Response",
      "TextDecoder",
      "TextEncoder",
      "URL",
      // The native node:http face (http/server/node-face.ts) reads a query without a URL.
      "URLSearchParams",
      "atob",
      "btoa",
      "clearInterval",
      "clearTimeout",
      "console",
      "crypto",
      "fetch",
      "queueMicrotask",
      "setInterval",
      "setTimeout",
      "structuredClone",
    ]);
  });
});

/** The initializer of `export const NAME: <type> = <initializer> as const satisfies …;`. */
function initializer(catalog: string, name: string, end: string): string {
  const start = catalog.indexOf(`export const ${name}: `);
  const close = catalog.indexOf(end, start);
  expect(start, name).toBeGreaterThanOrEqual(0);
  expect(close, name).toBeGreaterThan(start);
  const opening = name === "METHODS" ? "\n] = [\n" : "\n} = {\n";
  const body = catalog.indexOf(opening, start);
  return catalog.slice(body + 5, close + 1);
}

describe("METHODS and RULES", () => {
  it("are annotated with exactly the `as const` types of their data (no precision lost), in every revision", () => {
    const checks: string[] = [];
    cpSync(join(TEST_OUT_DIR, "runtime"), join(scratch, "precision", "runtime"), { recursive: true });
    for (const revision of REVISIONS) {
      const dir = join(scratch, "precision", revision);
      cpSync(join(TEST_OUT_DIR, revision), dir, { recursive: true });
      const catalog = readFileSync(join(dir, "catalog.ts"), "utf8");
      const methods = initializer(catalog, "METHODS", "] as const satisfies readonly MethodInfo[];");
      const rules = initializer(catalog, "RULES", "} as const satisfies CancellationRules;");
      expect(methods.startsWith("[\n")).toBe(true);
      expect(rules.startsWith("{\n")).toBe(true);
      const file = join(dir, "precision.check.ts");
      writeFileSync(
        file,
        [
          'import { METHODS, RULES, REVISION, type MethodInfo } from "./catalog.js";',
          'import type { CancellationRules } from "../runtime/core/protocol.js";',
          "type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;",
          `const methods = ${methods} as const satisfies readonly MethodInfo[];`,
          `const rules = ${rules} as const satisfies CancellationRules;`,
          `const revision = ${JSON.stringify(revision)} as const;`,
          "export const methodsExact: Equal<typeof METHODS, typeof methods> = true;",
          "export const rulesExact: Equal<typeof RULES, typeof rules> = true;",
          "export const revisionExact: Equal<typeof REVISION, typeof revision> = true;",
        ].join("\n"),
      );
      checks.push(file);
    }
    expect(typecheckWith(checks, STRICT_OPTIONS)).toEqual([]);
  });
});
