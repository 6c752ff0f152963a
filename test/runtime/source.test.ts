/**
 * The runtime is real source: templates/runtime/*.ts are plain TypeScript modules that tests
 * import where they are (no generation step), and that `npm run typecheck` (tsconfig.json's
 * include) checks in place under the repository's strict flags.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PACKAGE_ROOT } from "../../generator/project.js";
import { RUNTIME_FILES } from "../../generator/emit/render.js";
import { appsRuntimeSourceNames } from "../../generator/emit/templates.js";
import { createInMemoryTransportPair } from "../../templates/runtime/transports/in-memory.js";
import { timerDelay } from "../../templates/runtime/core/outgoing.js";
import { describeValue, McpError, type JsonRpcMessage } from "../../templates/runtime/core/protocol.js";

describe("templates/runtime/*.ts, imported directly", () => {
  it("timerDelay: 0, Infinity and undefined mean no timer; values beyond setTimeout's range are clamped; a negative or NaN value is a RangeError", () => {
    expect(timerDelay("timeoutMs", undefined)).toBeUndefined();
    expect(timerDelay("timeoutMs", 0)).toBeUndefined();
    expect(timerDelay("timeoutMs", Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(timerDelay("timeoutMs", 250)).toBe(250);
    expect(timerDelay("timeoutMs", 2 ** 40)).toBe(2 ** 31 - 1);
    expect(() => timerDelay("timeoutMs", -1)).toThrow(RangeError);
    expect(() => timerDelay("timeoutMs", Number.NaN)).toThrow(/timeoutMs must be an integer ≥ 1 or 0 \(off\) or Infinity \(no bound\), got NaN/);
  });

  it("describeValue names objects and quotes strings, cut at 200 characters", () => {
    expect(describeValue("a\nb")).toBe('"a\\nb"');
    expect(describeValue(42)).toBe("42");
    expect(describeValue({ secret: 1 })).not.toContain("secret");
    expect(describeValue("x".repeat(500)).length).toBeLessThan(210);
  });

  it("createInMemoryTransportPair carries a message from one end to the other; McpError is a real class", async () => {
    const [a, b] = createInMemoryTransportPair();
    const received: JsonRpcMessage[] = [];
    b.onmessage = (message) => received.push(message);
    await a.start();
    await b.start();
    await a.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
    const error = new McpError(-32601, "Method not found");
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(-32601);
  });
});

describe("the runtime sources", () => {
  it("are type-checked in place: tsconfig.json includes templates/runtime, and every runtime file is a .ts file there", () => {
    const tsconfig = JSON.parse(readFileSync(join(PACKAGE_ROOT, "tsconfig.json"), "utf8")) as { include: string[] };
    expect(tsconfig.include).toContain("templates/runtime");
    for (const name of [...RUNTIME_FILES, ...appsRuntimeSourceNames()]) {
      const source = readFileSync(join(PACKAGE_ROOT, "templates", "runtime", `${name}.ts`), "utf8");
      expect(source.startsWith("// "), name).toBe(true);
    }
  });
});

describe("era facts come from the generated catalog", () => {
  /** Every .ts file under templates/runtime, add-ons included. */
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : []));

  it("no revision date is written in the runtime outside comments: the runtime knows no revision by name", () => {
    const found: string[] = [];
    for (const file of files(join(PACKAGE_ROOT, "templates", "runtime"))) {
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const code = line.trim();
          if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) return;
          // A trailing comment is a comment too.
          const beforeComment = code.replace(/\s\/\/ .*$/, "");
          if (/\b20\d\d-\d\d-\d\d\b/.test(beforeComment)) found.push(`${file.slice(PACKAGE_ROOT.length + 1)}:${i + 1}: ${code}`);
        });
    }
    expect(found).toEqual([]);
  });
});
