import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_FILE, findConfig, loadConfig, parseResultOverrides, validateConfig } from "../../../generator/cli/config.js";
import { catchStubgenError } from "../support.js";

let tmp: string;

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), "mcp-stubgen-config-"));
});

afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const write = (path: string, value: unknown) => {
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value, null, 2));
  return path;
};

describe("validateConfig", () => {
  const file = "/projects/app/mcp-stubgen.config.json";

  it("accepts every documented key", () => {
    const config = {
      revisions: ["2025-11-25", "draft"],
      all: false,
      schema: "https://example.com/schema.json",
      out: "/abs/out",
      cache: "/abs/cache",
      fragment: true,
      resultOverrides: { "tools/call": "CallToolResult" },
      importExtension: ".ts",
      emit: "js",
      runtime: "inline",
      strictObjects: true,
      extensions: ["tasks"],
    };
    // Absolute paths and URLs come back unchanged.
    expect(validateConfig(structuredClone(config), file, "")).toEqual(config);
  });

  it("accepts each value of the enumerated keys", () => {
    for (const importExtension of [".js", ".ts"]) expect(validateConfig({ importExtension }, file, "")).toEqual({ importExtension });
    for (const emit of ["ts", "js"]) expect(validateConfig({ emit }, file, "")).toEqual({ emit });
    for (const runtime of ["shared", "inline"]) expect(validateConfig({ runtime }, file, "")).toEqual({ runtime });
    expect(validateConfig({ extensions: [] }, file, "")).toEqual({ extensions: [] });
  });

  it("accepts an empty object", () => {
    expect(validateConfig({}, file, "")).toEqual({});
  });

  it("rejects an unknown key, naming the file and the key's pointer", () => {
    const err = catchStubgenError(() => validateConfig({ out: "x", bogus: 1 }, file, ""));
    expect(err.location).toEqual({ file, pointer: "/bogus" });
    expect(err.format()).toMatch(/^\/projects\/app\/mcp-stubgen\.config\.json#\/bogus: invalid config: expected one of the keys /);
    expect(err.message).toContain("resultOverrides");
  });

  it("escapes the key in the pointer", () => {
    expect(catchStubgenError(() => validateConfig({ "a/b~c": 1 }, file, "")).location.pointer).toBe("/a~1b~0c");
  });

  it("rejects a config that is not an object, at the config's own pointer", () => {
    expect(catchStubgenError(() => validateConfig([], file, "")).location).toEqual({ file, pointer: "" });
    expect(catchStubgenError(() => validateConfig("out", file, "/mcp-stubgen")).location.pointer).toBe("/mcp-stubgen");
    expect(catchStubgenError(() => validateConfig(null, file, "")).message).toContain("an object");
  });

  describe("wrong types", () => {
    const cases: ReadonlyArray<[key: string, value: unknown, expected: string]> = [
      ["revisions", "2025-11-25", "an array of revision ids"],
      ["revisions", ["2025-11-25", 7], "an array of revision ids"],
      ["all", "yes", "true or false"],
      ["fragment", 1, "true or false"],
      ["schema", 3, "a path or URL"],
      ["out", ["out"], "a folder path"],
      ["cache", null, "a folder path"],
      ["resultOverrides", { ping: 1 }, "an object of method → result type name"],
      ["resultOverrides", ["ping=EmptyResult"], "an object of method → result type name"],
      ["extensions", "tasks", 'an array of extension ids, e.g. ["tasks"]'],
      ["extensions", ["tasks", 1], 'an array of extension ids, e.g. ["tasks"]'],
      ["strictObjects", "true", "true or false"],
      ["importExtension", "ts", '".js" or ".ts"'],
      ["importExtension", ".mjs", '".js" or ".ts"'],
      ["emit", "d.ts", '"ts" or "js"'],
      ["emit", null, '"ts" or "js"'],
      ["runtime", "bundled", '"shared" or "inline"'],
    ];
    for (const [key, value, expected] of cases) {
      it(`rejects ${key}: ${JSON.stringify(value)}`, () => {
        const err = catchStubgenError(() => validateConfig({ [key]: value }, file, ""));
        expect(err.location).toEqual({ file, pointer: `/${key}` });
        expect(err.message).toContain(`expected ${expected}`);
      });
    }
  });

  describe("paths", () => {
    it("resolves out, cache and schema relative to the config file's folder", () => {
      expect(validateConfig({ out: "src/generated", cache: "../cache", schema: "schemas/s.json" }, file, "")).toEqual({
        out: "/projects/app/src/generated",
        cache: "/projects/cache",
        schema: "/projects/app/schemas/s.json",
      });
    });

    it("keeps absolute paths and http(s) URLs as they are", () => {
      expect(validateConfig({ out: "/abs/out", schema: "HTTPS://example.com/s.json" }, file, "")).toEqual({
        out: "/abs/out",
        schema: "HTTPS://example.com/s.json",
      });
      expect(validateConfig({ schema: "http://localhost:8080/s.json" }, file, "").schema).toBe("http://localhost:8080/s.json");
    });
  });
});

describe("loadConfig", () => {
  it("reads mcp-stubgen.config.json in the folder, resolving paths against it", () => {
    write(join(tmp, CONFIG_FILE), { out: "gen", revisions: ["draft"] });
    expect(loadConfig(tmp)).toEqual({ out: join(tmp, "gen"), revisions: ["draft"] });
  });

  it("reads an explicit file relative to cwd, resolving paths against the file's folder", () => {
    mkdirSync(join(tmp, "conf"));
    write(join(tmp, "conf", "stubgen.json"), { out: "gen" });
    write(join(tmp, CONFIG_FILE), { out: "ignored" });
    expect(loadConfig(tmp, "conf/stubgen.json")).toEqual({ out: join(tmp, "conf", "gen") });
  });

  it("prefers mcp-stubgen.config.json over package.json", () => {
    write(join(tmp, CONFIG_FILE), { all: true });
    write(join(tmp, "package.json"), { name: "app", "mcp-stubgen": { all: false } });
    expect(loadConfig(tmp)).toEqual({ all: true });
  });

  it('reads the "mcp-stubgen" key of package.json', () => {
    write(join(tmp, "package.json"), { name: "app", "mcp-stubgen": { out: "src/mcp", resultOverrides: { ping: "EmptyResult" } } });
    expect(loadConfig(tmp)).toEqual({ out: join(tmp, "src", "mcp"), resultOverrides: { ping: "EmptyResult" } });
  });

  it("names package.json and the pointer /mcp-stubgen/... in errors", () => {
    const pkg = write(join(tmp, "package.json"), { name: "app", "mcp-stubgen": { out: "x", bogus: true } });
    const err = catchStubgenError(() => loadConfig(tmp));
    expect(err.location).toEqual({ file: pkg, pointer: "/mcp-stubgen/bogus" });
    expect(err.format()).toMatch(new RegExp(`^${pkg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}#/mcp-stubgen/bogus: `));
  });

  it("names package.json and the pointer of a wrong type under mcp-stubgen", () => {
    write(join(tmp, "package.json"), { "mcp-stubgen": { revisions: "draft" } });
    expect(catchStubgenError(() => loadConfig(tmp)).location.pointer).toBe("/mcp-stubgen/revisions");
    write(join(tmp, "package.json"), { "mcp-stubgen": true });
    expect(catchStubgenError(() => loadConfig(tmp)).location.pointer).toBe("/mcp-stubgen");
  });

  it("is empty without a config file or an mcp-stubgen key", () => {
    expect(loadConfig(tmp)).toEqual({});
    write(join(tmp, "package.json"), { name: "app" });
    expect(loadConfig(tmp)).toEqual({});
  });

  it("names the config file and pointer of an unknown key", () => {
    const file = write(join(tmp, CONFIG_FILE), { revisions: ["draft"], outDir: "x" });
    expect(catchStubgenError(() => loadConfig(tmp)).location).toEqual({ file, pointer: "/outDir" });
  });

  it("names an explicit config file and the pointer of an unknown key from the file's root", () => {
    const file = write(join(tmp, "stubgen.json"), { outDir: "x" });
    expect(catchStubgenError(() => loadConfig(tmp, "stubgen.json")).location).toEqual({ file, pointer: "/outDir" });
  });

  it("reports invalid JSON in a config file with line and column", () => {
    const file = write(join(tmp, CONFIG_FILE), '{\n  "out": "x",\n}\n');
    expect(catchStubgenError(() => loadConfig(tmp)).location).toEqual({ file, line: 3, column: 1 });
  });

  it("reports invalid JSON in package.json", () => {
    const pkg = write(join(tmp, "package.json"), '{ "name": "app" "x": 1 }');
    expect(catchStubgenError(() => loadConfig(tmp)).location).toMatchObject({ file: pkg, line: 1 });
  });

  it("reports an explicit config file that does not exist: the file and what was expected", () => {
    const err = catchStubgenError(() => loadConfig(tmp, "missing.json"));
    expect(err.location.file).toBe(join(tmp, "missing.json"));
    expect(err.message).toBe(
      "cannot read the config file: no such file (ENOENT); expected a JSON object with the keys revisions, all, schema, out, cache, lockfile, fragment, resultOverrides, importExtension, emit, runtime, strictObjects, extensions, addons, rulesOf",
    );
  });
});

describe("findConfig", () => {
  it("says which file the config came from, or null", () => {
    expect(findConfig(tmp)).toEqual({ config: {}, file: null });
    const pkg = write(join(tmp, "package.json"), { name: "app", "mcp-stubgen": { all: true } });
    expect(findConfig(tmp)).toEqual({ config: { all: true }, file: pkg });
    const file = write(join(tmp, CONFIG_FILE), { fragment: true });
    expect(findConfig(tmp)).toEqual({ config: { fragment: true }, file });
    mkdirSync(join(tmp, "conf"));
    const explicit = write(join(tmp, "conf", "x.json"), {});
    expect(findConfig(tmp, "conf/x.json")).toEqual({ config: {}, file: explicit });
  });
});

describe("parseResultOverrides", () => {
  it('parses "method=TypeName" pairs', () => {
    expect(parseResultOverrides(["a=B"])).toEqual({ a: "B" });
    expect(parseResultOverrides(["tools/call=CallToolResult", "ping=EmptyResult"])).toEqual({
      "tools/call": "CallToolResult",
      ping: "EmptyResult",
    });
  });

  it("is empty for no pairs", () => {
    expect(parseResultOverrides([])).toEqual({});
  });

  it("lets a later pair for the same method win", () => {
    expect(parseResultOverrides(["ping=A", "ping=B"])).toEqual({ ping: "B" });
  });

  for (const bad of ["ping", "=EmptyResult", "ping=", "", "="]) {
    it(`rejects ${JSON.stringify(bad)}, quoting it and the expected form`, () => {
      const err = catchStubgenError(() => parseResultOverrides(["ok=Fine", bad]));
      expect(err.message).toContain(JSON.stringify(bad));
      expect(err.message).toContain("expected method=TypeName");
    });
  }
});
