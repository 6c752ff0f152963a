import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { definition, deref, readSchemaDocument, refName, sha256Hex } from "../../../generator/load/schema-document.js";
import { catchStubgenError, docFrom, fixturePath, loadFixture } from "../support.js";

const readFixtureError = (name: string) =>
  catchStubgenError(() => readSchemaDocument(readFileSync(fixturePath(name), "utf8"), fixturePath(name)));

describe("readSchemaDocument", () => {
  describe("dialects", () => {
    it("reads a draft-07 schema with definitions", () => {
      const doc = loadFixture("draft07-lifecycle.json");
      expect(doc.dialect).toBe("draft-07");
      expect(doc.defsKey).toBe("definitions");
      expect(doc.file).toBe(fixturePath("draft07-lifecycle.json"));
    });

    it("reads a 2020-12 schema with $defs", () => {
      const doc = loadFixture("2020-12-inline.json");
      expect(doc.dialect).toBe("2020-12");
      expect(doc.defsKey).toBe("$defs");
    });

    it("without $schema, takes $defs as 2020-12 and definitions as draft-07", () => {
      expect(readSchemaDocument('{"$defs": {"A": {"type": "string"}}}', "a.json").dialect).toBe("2020-12");
      expect(readSchemaDocument('{"definitions": {"A": {"type": "string"}}}', "a.json").dialect).toBe("draft-07");
    });

    it("keeps the definitions in document order", () => {
      const text = readFileSync(fixturePath("draft07-lifecycle.json"), "utf8");
      const doc = readSchemaDocument(text, "x.json");
      const names = Object.keys((JSON.parse(text) as { definitions: object }).definitions);
      expect([...doc.defs.keys()]).toEqual(names);
      expect(names[0]).toBe("Result");
      expect(names.at(-1)).toBe("ServerNotification");
    });

    it("reads boolean definitions as schemas", () => {
      const doc = readSchemaDocument('{"$defs": {"Any": true, "Never": false}}', "b.json");
      expect(doc.defs.get("Any")).toEqual({});
      expect(doc.defs.get("Never")).toEqual({ not: {} });
    });
  });

  describe("sha256", () => {
    it("is the sha256 of the file's bytes", () => {
      const bytes = readFileSync(fixturePath("2020-12-tasks.json"));
      const doc = loadFixture("2020-12-tasks.json");
      expect(doc.sha256).toBe(createHash("sha256").update(bytes).digest("hex"));
      expect(doc.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it("changes with formatting (bytes, not the parsed value)", () => {
      const compact = '{"$defs":{"A":{"type":"string"}}}';
      const spaced = '{ "$defs": { "A": { "type": "string" } } }';
      expect(readSchemaDocument(compact, "a").sha256).not.toBe(readSchemaDocument(spaced, "a").sha256);
    });

    it("hashes non-ASCII text as UTF-8", () => {
      const text = '{"$defs": {"A": {"description": "café ✓"}}}';
      expect(readSchemaDocument(text, "u.json").sha256).toBe(createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex"));
      expect(sha256Hex(text)).toBe(sha256Hex(Buffer.from(text, "utf8")));
    });
  });

  describe("$ref checks", () => {
    it("names the pointer of the $ref key that does not resolve", () => {
      const err = readFixtureError("bad-ref-unresolved.json");
      expect(err.location.file).toBe(fixturePath("bad-ref-unresolved.json"));
      expect(err.location.pointer).toBe("/$defs/A/properties/x/$ref");
      expect(err.message).toContain('"#/$defs/Missing"');
      expect(err.message).toContain("does not resolve");
      expect(err.format()).toBe(`${fixturePath("bad-ref-unresolved.json")}#/$defs/A/properties/x/$ref: ${err.message}`);
    });

    it("names array positions in the pointer", () => {
      const err = catchStubgenError(() =>
        docFrom({ A: { type: "string" }, U: { anyOf: [{ $ref: "#/$defs/A" }, { $ref: "#/$defs/Nope" }] } }),
      );
      expect(err.location.pointer).toBe("/$defs/U/anyOf/1/$ref");
    });

    it("rejects a $ref in a draft-07 schema that uses the $defs prefix", () => {
      const err = catchStubgenError(() =>
        docFrom({ A: { type: "string" }, B: { $ref: "#/$defs/A" } }, { key: "definitions" }),
      );
      expect(err.location.pointer).toBe("/definitions/B/$ref");
    });

    it("rejects a $ref to another file", () => {
      const err = readFixtureError("bad-ref-remote.json");
      expect(err.location.pointer).toBe("/definitions/A/properties/x/$ref");
      expect(err.message).toContain("local");
      expect(err.message).toContain('"other.json#/definitions/B"');
    });

    it("rejects a $ref that is a URL or not a string", () => {
      expect(catchStubgenError(() => docFrom({ A: { $ref: "https://example.com/s.json#/$defs/A" } })).location.pointer).toBe(
        "/$defs/A/$ref",
      );
      expect(catchStubgenError(() => docFrom({ A: { items: { $ref: 7 } } })).location.pointer).toBe("/$defs/A/items/$ref");
    });

    it("accepts local refs to any node, not only definitions", () => {
      const doc = docFrom({
        A: { type: "object", properties: { x: { type: "string" } } },
        B: { $ref: "#/$defs/A/properties/x" },
        C: { $ref: "#" },
      });
      expect([...doc.defs.keys()]).toEqual(["A", "B", "C"]);
    });

    it("does not treat $ref inside const, enum, default or examples as a reference", () => {
      const data = { $ref: "elsewhere.json#/nothing" };
      const doc = docFrom({ A: { const: data, enum: [data], default: data, examples: [data] } });
      expect(doc.defs.has("A")).toBe(true);
    });
  });

  describe("structure errors", () => {
    it("rejects a schema with neither $defs nor definitions, at the root pointer", () => {
      const err = readFixtureError("no-defs.json");
      expect(err.location).toEqual({ file: fixturePath("no-defs.json"), pointer: "" });
      expect(err.message).toContain('"$defs"');
      expect(err.message).toContain('"definitions"');
    });

    it("rejects $defs that is not an object", () => {
      const err = catchStubgenError(() => readSchemaDocument('{"$defs": [], "definitions": 3}', "arr.json"));
      expect(err.location.pointer).toBe("");
    });

    it("rejects a top level that is not an object", () => {
      const err = catchStubgenError(() => readSchemaDocument("[]", "top.json"));
      expect(err.location).toEqual({ file: "top.json", pointer: "" });
    });

    it("rejects a definition name that is not an identifier, at its pointer", () => {
      const err = readFixtureError("bad-def-name.json");
      expect(err.location.pointer).toBe("/definitions/Not-An-Identifier");
      expect(err.message).toContain('"Not-An-Identifier"');
    });

    it("escapes the definition name in the pointer", () => {
      expect(catchStubgenError(() => docFrom({ "a/b": {} })).location.pointer).toBe("/$defs/a~1b");
      expect(catchStubgenError(() => docFrom({ "1Up": {} })).location.pointer).toBe("/$defs/1Up");
      expect(catchStubgenError(() => docFrom({ "": {} })).location.pointer).toBe("/$defs/");
    });

    it("accepts identifier names with _ and $", () => {
      expect([...docFrom({ _x: {}, $y: {}, Foo9: {} }).defs.keys()]).toEqual(["_x", "$y", "Foo9"]);
    });

    it("rejects a definition that is not a schema", () => {
      const err = catchStubgenError(() => docFrom({ A: 42 }));
      expect(err.location.pointer).toBe("/$defs/A");
      expect(err.message).toContain("schema");
    });

    it("rejects a sub-schema that is not a schema, at its pointer, saying what it found", () => {
      const cases: ReadonlyArray<[node: unknown, pointer: string, found: string]> = [
        [{ allOf: [null, { type: "object" }] }, "/$defs/A/allOf/0", "null"],
        [{ properties: { x: 3 } }, "/$defs/A/properties/x", "a number"],
        [{ items: [{}, "s"] }, "/$defs/A/items/1", "a string"],
        [{ not: [1] }, "/$defs/A/not/0", "a number"],
        [{ anyOf: [[]] }, "/$defs/A/anyOf/0", "an array"],
      ];
      for (const [node, pointer, found] of cases) {
        const err = catchStubgenError(() => docFrom({ A: node }));
        expect(err.location).toEqual({ file: "inline.json", pointer });
        expect(err.message).toBe(`expected a schema (an object or a boolean), found ${found}`);
      }
      // Booleans are schemas; other keywords are not walked.
      expect(docFrom({ A: { properties: { x: true }, additionalProperties: false, default: null, examples: [3] } }).defs.has("A")).toBe(true);
    });

    it("reports invalid JSON with the file, line and column", () => {
      const err = catchStubgenError(() => readSchemaDocument('{\n  "$defs": {,}\n}', "broken.json"));
      expect(err.location).toEqual({ file: "broken.json", line: 2, column: 13 });
    });
  });
});

describe("refName, definition and deref", () => {
  const doc = docFrom({
    A: { type: "object", properties: { x: { type: "string" } } },
    Alias: { $ref: "#/$defs/A", description: "Another name for A." },
    AliasOfAlias: { $ref: "#/$defs/Alias" },
    Loop1: { $ref: "#/$defs/Loop2" },
    Loop2: { $ref: "#/$defs/Loop1" },
  });

  it("refName names a definition only for #/<defsKey>/<Name>", () => {
    expect(refName(doc, "#/$defs/A")).toBe("A");
    expect(refName(doc, "#/$defs/A/properties/x")).toBeNull();
    expect(refName(doc, "#/definitions/A")).toBeNull();
    expect(refName(doc, "#/$defs/Missing")).toBeNull();
    expect(refName(doc, 3)).toBeNull();
  });

  it("definition locates a named definition", () => {
    expect(definition(doc, "A")).toEqual({ node: doc.defs.get("A"), pointer: "/$defs/A", name: "A" });
    expect(definition(doc, "Missing")).toBeNull();
  });

  it("deref follows chains of $refs to the target", () => {
    const target = deref(doc, definition(doc, "AliasOfAlias")!);
    expect(target.name).toBe("A");
    expect(target.pointer).toBe("/$defs/A");
  });

  it("deref reports a $ref cycle", () => {
    const err = catchStubgenError(() => deref(doc, definition(doc, "Loop1")!));
    expect(err.message).toContain("cycle");
  });
});
