import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineAndColumn, locateJsonError, parseJson } from "../../../generator/load/parse-json.js";
import { catchStubgenError } from "../support.js";

describe("parseJson", () => {
  describe("valid JSON", () => {
    it("returns the same value as JSON.parse", () => {
      const text = '{\n  "a": [1, -2.5e3, true, false, null],\n  "b": {"c": "\\u00e9\\n\\"x\\""},\n  "": 0\n}\n';
      expect(parseJson(text, "ok.json")).toEqual(JSON.parse(text));
    });

    it("accepts scalars at the top level and surrounding whitespace", () => {
      expect(parseJson(" \t\r\n42 \n", "n.json")).toBe(42);
      expect(parseJson('"s"', "s.json")).toBe("s");
      expect(parseJson("null", "null.json")).toBeNull();
    });

    it("round-trips any JSON value (property)", () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const text = JSON.stringify(value, null, 2);
          expect(parseJson(text, "p.json")).toEqual(JSON.parse(text));
        }),
        { numRuns: 200 },
      );
    });
  });

  describe("syntax errors", () => {
    const cases: ReadonlyArray<{
      readonly name: string;
      readonly text: string;
      readonly line: number;
      readonly column: number;
      readonly expected: string;
      readonly found: string;
    }> = [
      {
        name: "a trailing comma in an object",
        text: '{\n  "a": 1,\n}\n',
        line: 3,
        column: 1,
        expected: "a double-quoted property name",
        found: "'}'",
      },
      {
        name: "a trailing comma in an array",
        text: '{\n  "list": [1, 2,]\n}',
        line: 2,
        column: 17,
        expected: "a JSON value",
        found: "']'",
      },
      {
        name: "a missing colon",
        text: '{\n  "a" 1\n}',
        line: 2,
        column: 7,
        expected: "':' after a property name",
        found: "'1'",
      },
      {
        name: "a missing comma between properties",
        text: '{\n  "a": 1\n  "b": 2\n}',
        line: 3,
        column: 3,
        expected: "',' or '}' after a property value",
        found: `'"'`,
      },
      {
        name: "an unterminated string at the end of the input",
        text: '{\n  "a": "abc',
        line: 2,
        column: 12,
        expected: `a closing '"'`,
        found: "end of input",
      },
      {
        name: "an unexpected end inside an array",
        text: '{"a": [1, 2',
        line: 1,
        column: 12,
        expected: "',' or ']' after an array element",
        found: "end of input",
      },
      {
        name: "an unexpected end where a value should start",
        text: '{\n  "a": ',
        line: 2,
        column: 8,
        expected: "a JSON value",
        found: "end of input",
      },
      {
        name: "an empty input",
        text: "",
        line: 1,
        column: 1,
        expected: "a JSON value",
        found: "end of input",
      },
      {
        name: "the bad literal tru",
        text: '{\n  "ok": tru}',
        line: 2,
        column: 12,
        expected: '"true"',
        found: "'}'",
      },
      {
        name: "the bad literal nul",
        text: '[nul]',
        line: 1,
        column: 5,
        expected: '"null"',
        found: "']'",
      },
      {
        name: "the bad literal fals",
        text: '{"x": fals }',
        line: 1,
        column: 11,
        expected: '"false"',
        found: "' '",
      },
      {
        name: "single-quoted property names",
        text: "{'a': 1}",
        line: 1,
        column: 2,
        expected: "a double-quoted property name",
        found: "'''",
      },
      {
        name: "an invalid escape",
        text: '["a\\x"]',
        line: 1,
        column: 5,
        expected: "a valid escape",
        found: "'x'",
      },
      {
        name: "a short unicode escape",
        text: '["\\u12G4"]',
        line: 1,
        column: 7,
        expected: "a hex digit",
        found: "'G'",
      },
      {
        name: "a number with a leading zero",
        text: '{"n": 01}',
        line: 1,
        column: 8,
        expected: "',' or '}' after a property value",
        found: "'1'",
      },
      {
        name: "a number without digits after the point",
        text: "[1.]",
        line: 1,
        column: 4,
        expected: "a digit",
        found: "']'",
      },
      {
        name: "a line break inside a string",
        text: '{"a": "x\ny"}',
        line: 1,
        column: 9,
        expected: "a closing '\"' before the end of the line",
        found: "'\\n'",
      },
      {
        name: "a carriage return inside a string",
        text: '["a\rb"]',
        line: 1,
        column: 4,
        expected: "a closing '\"' before the end of the line",
        found: "'\\r'",
      },
      {
        name: "a raw tab inside a string",
        text: '["a\tb"]',
        line: 1,
        column: 4,
        expected: "an escaped control character",
        found: "'\\t'",
      },
      {
        name: "a backslash at the end of the input",
        text: '["a\\',
        line: 1,
        column: 5,
        expected: "a valid escape",
        found: "end of input",
      },
      {
        name: "a value after every escape",
        text: '["\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uABcd", x]',
        line: 1,
        column: 34,
        expected: "a JSON value",
        found: "'x'",
      },
      {
        name: "a value after numbers of every form",
        text: "[-0.5e+10, 1E-2, 3e5, 10, -7, 0, x]",
        line: 1,
        column: 34,
        expected: "a JSON value",
        found: "'x'",
      },
      {
        name: "a trailing comma after keys and values with spaces",
        text: '{"a b": "c d",}',
        line: 1,
        column: 15,
        expected: "a double-quoted property name",
        found: "'}'",
      },
      {
        name: "a minus sign without digits",
        text: "[-]",
        line: 1,
        column: 3,
        expected: "a digit",
        found: "']'",
      },
      {
        name: "an exponent without digits",
        text: "[1e]",
        line: 1,
        column: 4,
        expected: "a digit",
        found: "']'",
      },
      {
        name: "a signed exponent without digits",
        text: "[1e+]",
        line: 1,
        column: 5,
        expected: "a digit",
        found: "']'",
      },
      {
        name: "a value after empty and nested containers",
        text: '[{}, [], { }, [ ], {"a": []}, [[1]], x]',
        line: 1,
        column: 38,
        expected: "a JSON value",
        found: "'x'",
      },
      {
        name: "text after the value",
        text: "{}\n{}",
        line: 2,
        column: 1,
        expected: "end of input",
        found: "'{'",
      },
    ];

    for (const c of cases) {
      it(`locates ${c.name} at ${c.line}:${c.column}`, () => {
        const err = catchStubgenError(() => parseJson(c.text, "dir/schema.json"));
        expect(err.location).toEqual({ file: "dir/schema.json", line: c.line, column: c.column });
        expect(err.message).toBe(`invalid JSON: expected ${c.expected}, found ${c.found}`);
        expect(err.format()).toBe(`dir/schema.json:${c.line}:${c.column}: invalid JSON: expected ${c.expected}, found ${c.found}`);
      });
    }

    it("counts lines by LF only, so CRLF files get the same line:column", () => {
      const err = catchStubgenError(() => parseJson('{\r\n  "a": 1,\r\n}\r\n', "crlf.json"));
      expect(err.location.line).toBe(3);
      expect(err.location.column).toBe(1);
    });

    it("counts a tab as one column", () => {
      const err = catchStubgenError(() => parseJson('{\n\t"a" 1\n}', "tab.json"));
      expect(err.location).toMatchObject({ line: 2, column: 6 });
    });

    it("finds an error in every text that JSON.parse rejects (property: one character deleted)", () => {
      fc.assert(
        fc.property(fc.jsonValue(), fc.nat(), (value, n) => {
          const valid = JSON.stringify(value, null, 1);
          const at = n % valid.length;
          const text = valid.slice(0, at) + valid.slice(at + 1);
          let parsed = true;
          try {
            JSON.parse(text);
          } catch {
            parsed = false;
          }
          if (parsed) return;
          const err = catchStubgenError(() => parseJson(text, "f.json"));
          // The scanner's fallback ("valid JSON" at 1:1) means it disagreed with JSON.parse.
          expect(err.message).not.toContain("expected valid JSON");
          const { line, column } = err.location;
          const lines = text.split("\n");
          expect(line).toBeGreaterThanOrEqual(1);
          expect(line).toBeLessThanOrEqual(lines.length);
          expect(column).toBeGreaterThanOrEqual(1);
          expect(column).toBeLessThanOrEqual(lines[line! - 1]!.length + 1);
        }),
        { numRuns: 300 },
      );
    });
  });

  describe("lineAndColumn and locateJsonError", () => {
    it("maps offsets to 1-based line and column", () => {
      const text = "ab\ncd\n\nef";
      expect(lineAndColumn(text, 0)).toEqual({ line: 1, column: 1 });
      expect(lineAndColumn(text, 2)).toEqual({ line: 1, column: 3 });
      expect(lineAndColumn(text, 3)).toEqual({ line: 2, column: 1 });
      expect(lineAndColumn(text, 7)).toEqual({ line: 4, column: 1 });
      expect(lineAndColumn(text, text.length)).toEqual({ line: 4, column: 3 });
    });

    it("returns the offset of the first error", () => {
      expect(locateJsonError('{"a":1,}')).toEqual({ offset: 7, expected: "a double-quoted property name" });
      expect(locateJsonError("[1 2]")).toEqual({ offset: 3, expected: "',' or ']' after an array element" });
    });
  });
});
