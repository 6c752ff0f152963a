import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeToken, join, resolvePointer, unescapeToken } from "../../../generator/load/json-pointer.js";

describe("json-pointer", () => {
  describe("escapeToken / unescapeToken", () => {
    it("escapes ~ as ~0 and / as ~1", () => {
      expect(escapeToken("a/b")).toBe("a~1b");
      expect(escapeToken("m~n")).toBe("m~0n");
      expect(escapeToken("~/")).toBe("~0~1");
      expect(escapeToken("$defs")).toBe("$defs");
      expect(escapeToken(3)).toBe("3");
    });

    it("unescapes ~1 before ~0, so ~01 is the two characters ~1", () => {
      expect(unescapeToken("~01")).toBe("~1");
      expect(unescapeToken("a~1b")).toBe("a/b");
      expect(unescapeToken("~0~1")).toBe("~/");
    });

    it("round-trips any token (property)", () => {
      fc.assert(
        fc.property(fc.string({ unit: fc.constantFrom("~", "/", "0", "1", "a") }), (token) => {
          expect(unescapeToken(escapeToken(token))).toBe(token);
          expect(escapeToken(token)).not.toContain("/");
        }),
      );
    });
  });

  describe("join", () => {
    it("appends escaped tokens to a base pointer", () => {
      expect(join("/$defs", "A", "properties")).toBe("/$defs/A/properties");
      expect(join("", "$defs", "a/b", "~x")).toBe("/$defs/a~1b/~0x");
      expect(join("/anyOf", 0)).toBe("/anyOf/0");
    });

    it("returns the base unchanged without tokens", () => {
      expect(join("/x")).toBe("/x");
      expect(join("")).toBe("");
    });
  });

  describe("resolvePointer", () => {
    const doc = {
      $defs: {
        A: { properties: { x: { $ref: "#/$defs/B" } } },
        "a/b": { n: 1 },
        "m~n": { n: 2 },
      },
      list: [{ name: "first" }, { name: "second" }],
      nothing: null,
      "": "empty key",
    };

    it("returns the whole document for the empty pointer", () => {
      expect(resolvePointer(doc, "")).toBe(doc);
    });

    it("walks object keys", () => {
      expect(resolvePointer(doc, "/$defs/A/properties/x/$ref")).toBe("#/$defs/B");
    });

    it("unescapes ~1 and ~0 in tokens", () => {
      expect(resolvePointer(doc, "/$defs/a~1b/n")).toBe(1);
      expect(resolvePointer(doc, "/$defs/m~0n/n")).toBe(2);
      expect(resolvePointer(doc, join("", "$defs", "a/b", "n"))).toBe(1);
    });

    it("indexes arrays by decimal index", () => {
      expect(resolvePointer(doc, "/list/0/name")).toBe("first");
      expect(resolvePointer(doc, "/list/1/name")).toBe("second");
    });

    it("is undefined for bad or out-of-range array indexes", () => {
      expect(resolvePointer(doc, "/list/2")).toBeUndefined();
      expect(resolvePointer(doc, "/list/-")).toBeUndefined();
      expect(resolvePointer(doc, "/list/01")).toBeUndefined();
      expect(resolvePointer(doc, "/list/name")).toBeUndefined();
      expect(resolvePointer(doc, "/list/length")).toBeUndefined();
      expect(resolvePointer({ big: Array.from({ length: 13 }, (_, i) => i * 10) }, "/big/12")).toBe(120);
    });

    it("is undefined when any step is missing", () => {
      expect(resolvePointer(doc, "/$defs/Missing")).toBeUndefined();
      expect(resolvePointer(doc, "/$defs/A/properties/y/$ref")).toBeUndefined();
      expect(resolvePointer(doc, "/list/0/name/length")).toBeUndefined();
      expect(resolvePointer(doc, "/nothing/x")).toBeUndefined();
    });

    it("does not see inherited properties", () => {
      expect(resolvePointer(doc, "/$defs/toString")).toBeUndefined();
      expect(resolvePointer({}, "/constructor")).toBeUndefined();
    });

    it("resolves null values and the empty key", () => {
      expect(resolvePointer(doc, "/nothing")).toBeNull();
      expect(resolvePointer(doc, "/")).toBe("empty key");
    });

    it("is undefined for a pointer without a leading slash", () => {
      expect(resolvePointer(doc, "$defs/A")).toBeUndefined();
      expect(resolvePointer(doc, "x$defs/A")).toBeUndefined();
      expect(resolvePointer(doc, "#/$defs/A")).toBeUndefined();
    });
  });
});
