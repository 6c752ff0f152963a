import { describe, expect, it } from "vitest";
import { addonPackages, addonSourceNames, ADDONS, checkAddons, type AddonTable } from "../../../generator/emit/addons.js";
import { generate } from "../../../generator/generate.js";
import { validateConfig } from "../../../generator/cli/config.js";
import type { StubgenError } from "../../../generator/errors.js";

const TABLE: AddonTable = {
  store: { files: ["store/store", "store/keys"], packages: { "some-client": "^6.0.0" }, describe: "a store" },
  socket: { files: ["socket/link"], packages: { ws: "^8.0.0", "some-client": "^6.0.0" }, describe: "a link" },
};

describe("add-ons (generator/emit/addons.ts)", () => {
  it("checks names against the table, naming the known ones, and returns them unique and sorted", () => {
    expect(checkAddons(["store", "socket", "store"], TABLE)).toEqual(["socket", "store"]);
    expect(checkAddons([], TABLE)).toEqual([]);
    expect(() => checkAddons(["redis"], TABLE)).toThrow('unknown add-on "redis" (known: socket, store)');
    expect(() => checkAddons(["x"], {})).toThrow("this generator has none");
    expect(() => checkAddons(["toString"], TABLE)).toThrow('unknown add-on "toString"');
  });

  it("lists each add-on's files under addons/, and the packages they import, sorted and merged", () => {
    expect(addonSourceNames(["socket", "store"], TABLE)).toEqual(["addons/socket/link", "addons/store/store", "addons/store/keys"]);
    expect(addonPackages(["store", "socket"], TABLE)).toEqual({ "some-client": "^6.0.0", ws: "^8.0.0" });
    expect(Object.keys(addonPackages(["socket"], TABLE))).toEqual(["some-client", "ws"]);
    expect(addonPackages([], TABLE)).toEqual({});
  });

  it("refuses an unknown add-on before writing anything", async () => {
    await expect(generate({ revisions: ["2025-11-25"], out: "/nonexistent/never-written", addons: ["no-such-addon"] })).rejects.toThrow('unknown add-on "no-such-addon"');
  });

  it("describes every add-on of the table and declares at least one file", () => {
    for (const [name, spec] of Object.entries(ADDONS)) {
      expect(spec.files.length, name).toBeGreaterThan(0);
      expect(spec.describe.length, name).toBeGreaterThan(0);
      for (const file of spec.files) expect(file.startsWith(`${name}/`), file).toBe(true);
    }
  });

  it("is a config key: an array of names, else an error naming the pointer", () => {
    expect(validateConfig({ addons: ["redis"] }, "/p/mcp-stubgen.config.json", "").addons).toEqual(["redis"]);
    const error = (() => {
      try {
        validateConfig({ addons: "redis" }, "/p/mcp-stubgen.config.json", "");
      } catch (err) {
        return err as StubgenError;
      }
      return undefined;
    })();
    expect(error?.message).toContain("an array of add-on names");
    expect(error?.location).toEqual({ file: "/p/mcp-stubgen.config.json", pointer: "/addons" });
  });
});
