import { StubgenError } from "../errors.js";

/**
 * Parses JSON text; on a syntax error throws a StubgenError that names the file, the line and
 * column and what the parser expected there. `JSON.parse` does the work; the small scanner
 * below only runs on failure, to locate the error (Node 20's messages do not always carry a
 * position).
 */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { offset, expected } = locateJsonError(text);
    const { line, column } = lineAndColumn(text, offset);
    const found = offset >= text.length ? "end of input" : showChar(text[offset]!);
    throw new StubgenError(`invalid JSON: expected ${expected}, found ${found}`, { file, line, column });
  }
}

/** A character for a one-line message: control characters escaped (`'\\n'`), others quoted. */
function showChar(ch: string): string {
  return ch < " " ? `'${JSON.stringify(ch).slice(1, -1)}'` : `'${ch}'`;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

class JsonSyntax {
  constructor(
    readonly offset: number,
    readonly expected: string,
  ) {}
}

/** Finds the offset of the first syntax error in text that JSON.parse rejected. */
export function locateJsonError(text: string): { offset: number; expected: string } {
  let i = 0;
  const fail = (expected: string): never => {
    throw new JsonSyntax(i, expected);
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`"${word}"`);
      i++;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail("a string");
    i++;
    for (;;) {
      if (i >= text.length) fail('a closing \'"\'');
      const ch = text[i]!;
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === "\n" || ch === "\r") fail("a closing '\"' before the end of the line");
      if (ch < " ") fail("an escaped control character");
      if (ch === "\\") {
        i++;
        const esc = text[i];
        if (esc === "u") {
          i++;
          for (let k = 0; k < 4; k++, i++) if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail("a hex digit");
          continue;
        }
        if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail("a valid escape");
      }
      i++;
    }
  };
  const number = () => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else if (/[1-9]/.test(text[i] ?? "")) while (/[0-9]/.test(text[i] ?? "")) i++;
    else fail("a digit");
    if (text[i] === ".") {
      i++;
      if (!/[0-9]/.test(text[i] ?? "")) fail("a digit");
      while (/[0-9]/.test(text[i] ?? "")) i++;
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      if (!/[0-9]/.test(text[i] ?? "")) fail("a digit");
      while (/[0-9]/.test(text[i] ?? "")) i++;
    }
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail("a double-quoted property name");
        string();
        ws();
        if (text[i] !== ":") fail("':' after a property name");
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        fail("',' or '}' after a property value");
      }
    }
    if (ch === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        fail("',' or ']' after an array element");
      }
    }
    if (ch === '"') return string();
    if (ch === "t") return literal("true");
    if (ch === "f") return literal("false");
    if (ch === "n") return literal("null");
    if (ch === "-" || /[0-9]/.test(ch ?? "")) return number();
    fail("a JSON value");
  };
  try {
    value();
    ws();
    if (i < text.length) fail("end of input");
  } catch (e) {
    if (e instanceof JsonSyntax) return { offset: e.offset, expected: e.expected };
    throw e;
  }
  // JSON.parse rejected what the scanner accepted (should not happen); point at the start.
  return { offset: 0, expected: "valid JSON" };
}
