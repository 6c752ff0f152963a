// The YAML frontmatter of a SKILL.md as a JSON object (Skills extension, SEP-2640, Frontmatter:
// "the skill's SKILL.md YAML frontmatter rendered verbatim as a JSON object"), for both sides:
// the server puts it in the skill's entry, and a client compares the file it reads against the
// entry field by field ("Frontmatter Verification").
//
// The runtime imports nothing outside Node, so this reads the part of YAML 1.2 (core schema) a
// frontmatter block uses: block mappings and sequences by indentation, plain, single- and
// double-quoted scalars, `|`/`>` block scalars, flow `[...]`/`{...}` of scalars, comments.
// Anything else (anchors, aliases, tags, complex keys, documents) is an error naming the line, never a
// guess: an entry that does not say exactly what the file says would be a verification failure.

/** Bounds of a frontmatter block: its bytes and its nesting. */
const MAX_FRONTMATTER_CHARS = 65_536;
const MAX_DEPTH = 16;

/** A frontmatter block that is not there or is not the YAML this reads; `line` is 1-based in the file. */
export class FrontmatterError extends Error {
  /** The 1-based line of the file the error is at, when it is at one. */
  readonly line: number | undefined;
  constructor(message: string, line?: number) {
    super(line === undefined ? message : `line ${line}: ${message}`);
    this.name = "FrontmatterError";
    this.line = line;
  }
}

interface Line {
  readonly indent: number;
  readonly text: string;
  /** 1-based line number in the file. */
  readonly at: number;
}

/**
 * The frontmatter of a SKILL.md: the YAML between a first line `---` and the next `---` line, as
 * a JSON object. Throws FrontmatterError when the file does not begin with one, or when its YAML
 * is not a mapping this reads.
 */
export function parseFrontmatter(text: string): Record<string, unknown> {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(body);
  if (match === null) throw new FrontmatterError("SKILL.md does not begin with a --- delimited YAML frontmatter block");
  const block = match[1]!;
  if (block.length > MAX_FRONTMATTER_CHARS) throw new FrontmatterError(`the frontmatter block is over ${MAX_FRONTMATTER_CHARS} characters`);
  const lines: Line[] = [];
  block.split(/\r?\n/).forEach((raw, i) => {
    if (raw.includes("\t") && /^\s*\t/.test(raw)) throw new FrontmatterError("tabs do not indent YAML", i + 2);
    const indent = raw.length - raw.trimStart().length;
    lines.push({ indent, text: raw.slice(indent), at: i + 2 });
  });
  const reader = new BlockReader(lines);
  const value = reader.node(0, 0);
  reader.expectEnd();
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new FrontmatterError("the frontmatter is not a mapping");
  return value as Record<string, unknown>;
}

/** Reads block nodes from the lines of a frontmatter, top to bottom. */
class BlockReader {
  #i = 0;
  readonly lines: readonly Line[];
  constructor(lines: readonly Line[]) {
    this.lines = lines;
  }

  /** The next line that holds something (not blank, not a comment), without taking it. */
  peek(): Line | undefined {
    while (this.#i < this.lines.length) {
      const line = this.lines[this.#i]!;
      if (line.text === "" || line.text.startsWith("#")) this.#i++;
      else return line;
    }
    return undefined;
  }

  expectEnd(): void {
    const rest = this.peek();
    if (rest !== undefined) throw new FrontmatterError("unexpected indentation", rest.at);
  }

  /** The node whose lines start at the next line, indented at least `min`. */
  node(min: number, depth: number): unknown {
    if (depth > MAX_DEPTH) throw new FrontmatterError(`nesting deeper than ${MAX_DEPTH}`, this.peek()?.at);
    const first = this.peek();
    if (first === undefined || first.indent < min) return null;
    return first.text === "-" || first.text.startsWith("- ") ? this.sequence(first.indent, depth) : this.mapping(first.indent, depth);
  }

  mapping(indent: number, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (let line = this.peek(); line !== undefined && line.indent === indent; line = this.peek()) {
      const { key, rest } = splitKey(line);
      if (Object.hasOwn(out, key)) throw new FrontmatterError(`duplicate key ${JSON.stringify(key)}`, line.at);
      this.#i++;
      out[key] = this.value(rest, line, indent, depth, true);
    }
    return out;
  }

  sequence(indent: number, depth: number): unknown[] {
    const out: unknown[] = [];
    for (let line = this.peek(); line !== undefined && line.indent === indent && (line.text === "-" || line.text.startsWith("- ")); line = this.peek()) {
      this.#i++;
      const rest = line.text.slice(1).trimStart();
      if (rest !== "" && !rest.startsWith("#") && looksLikeKey(rest)) {
        // `- key: value` opens a mapping whose keys sit at the column after "- ".
        const column = indent + line.text.length - rest.length;
        const { key, rest: after } = splitKey({ ...line, text: rest });
        const item: Record<string, unknown> = { [key]: this.value(after, line, column, depth + 1, true) };
        const more = this.peek();
        if (more !== undefined && more.indent === column) Object.assign(item, this.mapping(column, depth + 1));
        out.push(item);
      } else {
        out.push(this.value(rest, line, indent, depth, false));
      }
    }
    return out;
  }

  /** The value after `key:` or `- `: inline, a block scalar, or a nested block. */
  value(rest: string, line: Line, indent: number, depth: number, inMapping: boolean): unknown {
    const inline = stripComment(rest);
    if (inline === "") {
      const next = this.peek();
      // A sequence may sit at the key's own indentation (`key:\n- a`); anything else is nested deeper.
      if (inMapping && next !== undefined && next.indent === indent && (next.text === "-" || next.text.startsWith("- "))) return this.sequence(indent, depth + 1);
      return this.node(indent + 1, depth + 1);
    }
    if (/^[|>][-+]?$/.test(inline)) return this.blockScalar(inline, indent);
    if (inline.startsWith("[") || inline.startsWith("{")) return flow(inline, line.at);
    return this.plainOrQuoted(inline, line, indent);
  }

  /** A scalar, a plain one continued on the more indented lines after it. */
  plainOrQuoted(inline: string, line: Line, indent: number): unknown {
    if (inline.startsWith('"') || inline.startsWith("'")) return quoted(inline, line.at);
    const parts = [inline];
    for (let next = this.lines[this.#i]; next !== undefined && next.indent > indent && next.text !== "" && !next.text.startsWith("#"); next = this.lines[this.#i]) {
      if (looksLikeKey(next.text)) break;
      parts.push(stripComment(next.text));
      this.#i++;
    }
    return parts.length === 1 ? scalar(inline, line.at) : parts.join(" ");
  }

  /** `|` (literal) or `>` (folded), with `-` (strip) or `+` (keep) chomping. */
  blockScalar(header: string, indent: number): string {
    const lines: string[] = [];
    let column = -1;
    while (this.#i < this.lines.length) {
      const line = this.lines[this.#i]!;
      if (line.text !== "" && line.indent <= indent) break;
      if (line.text !== "" && column < 0) column = line.indent;
      lines.push(line.text === "" ? "" : " ".repeat(line.indent - Math.max(column, 0)) + line.text);
      this.#i++;
    }
    while (lines.length > 0 && lines.at(-1) === "" && !header.endsWith("+")) lines.pop();
    const text = header.startsWith("|") ? lines.join("\n") : foldLines(lines);
    return header.endsWith("-") ? text : text === "" ? "" : `${text}\n`;
  }
}

/**
 * Folded block lines: the break between two text lines becomes a space; a blank line is one
 * line break (the break before it is folded away); more-indented lines keep their breaks.
 */
function foldLines(lines: readonly string[]): string {
  let out = "";
  lines.forEach((line, i) => {
    const previous = lines[i - 1];
    if (i === 0) out = line;
    else if (line === "") out += "\n";
    else if (previous === "") out += line;
    else if (line.startsWith(" ") || previous!.startsWith(" ")) out += `\n${line}`;
    else out += ` ${line}`;
  });
  return out;
}

const looksLikeKey = (text: string): boolean => /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"\[\]{},&*!|>%@`-][^:#]*?|-[^\s:#][^:#]*?)\s*:(?:\s|$)/.test(text);

function splitKey(line: Line): { key: string; rest: string } {
  const text = line.text;
  if (/^[&*!?%@`]/.test(text)) throw new FrontmatterError(`${JSON.stringify(text[0])} (anchors, aliases, tags, complex keys) is YAML this does not read`, line.at);
  const match = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#]+?)\s*:(?:\s+|$)(.*)$/.exec(text);
  if (match === null) throw new FrontmatterError(`expected "key: value", got ${JSON.stringify(text.slice(0, 40))}`, line.at);
  const raw = match[1]!;
  const key = raw.startsWith('"') || raw.startsWith("'") ? quoted(raw, line.at) : raw;
  return { key, rest: match[2]! };
}

/**
 * The indices of `text`'s characters outside quoted scalars (`"..."` with backslash escapes,
 * `'...'` with `''`), in order; a quote character opens a scalar only where `opens(i)` allows
 * (elsewhere it is an ordinary character, and is yielded).
 */
function* unquoted(text: string, opens: (i: number) => boolean = () => true): Generator<number> {
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== "") {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
    } else if ((c === '"' || c === "'") && opens(i)) quote = c;
    else yield i;
  }
}

/** Text without a trailing ` # comment` (outside quotes; a quote opens at the start, or after a space or one of `[{,:`). */
function stripComment(text: string): string {
  for (const i of unquoted(text, (at) => at === 0 || /[\s[{,:]/.test(text[at - 1]!))) {
    if (text[i] === "#" && (i === 0 || /\s/.test(text[i - 1]!))) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", "0": "\0", " ": " ", b: "\b", f: "\f" };

/** A whole quoted scalar: `"..."` with escapes, or `'...'` with `''`. */
function quoted(text: string, at: number): string {
  if (text.startsWith("'")) {
    const match = /^'((?:[^']|'')*)'$/.exec(text);
    if (match === null) throw new FrontmatterError("unterminated single-quoted scalar", at);
    return match[1]!.replace(/''/g, "'");
  }
  const match = /^"((?:[^"\\]|\\.)*)"$/.exec(text);
  if (match === null) throw new FrontmatterError("unterminated double-quoted scalar", at);
  return match[1]!.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e: string) => {
    if (e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    const out = ESCAPES[e];
    if (out === undefined) throw new FrontmatterError(`unknown escape \\${e}`, at);
    return out;
  });
}

/**
 * A plain scalar by the YAML 1.2 core schema: null, booleans, integers and floats; anything else
 * is a string. `.inf` and `.nan` have no JSON form and are refused.
 */
function scalar(text: string, at: number): unknown {
  if (/^(?:~|null|Null|NULL)$/.test(text)) return null;
  if (/^(?:true|True|TRUE)$/.test(text)) return true;
  if (/^(?:false|False|FALSE)$/.test(text)) return false;
  if (/^[-+]?[0-9]+$/.test(text)) return safeNumber(Number(text), text, at);
  if (/^0o[0-7]+$/.test(text)) return safeNumber(parseInt(text.slice(2), 8), text, at);
  if (/^0x[0-9a-fA-F]+$/.test(text)) return safeNumber(parseInt(text.slice(2), 16), text, at);
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  if (/^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(text)) throw new FrontmatterError(`${text} has no JSON form`, at);
  if (/^[&*!%@`]/.test(text)) throw new FrontmatterError(`${JSON.stringify(text[0])} (anchors, aliases, tags) is YAML this does not read`, at);
  return text;
}

function safeNumber(value: number, text: string, at: number): number {
  if (!Number.isSafeInteger(value)) throw new FrontmatterError(`${text} is not a safe integer`, at);
  return value;
}

/** A one-line flow collection of scalars: `[a, "b", 1]` or `{k: v}` (no nesting). */
function flow(text: string, at: number): unknown {
  const open = text[0]!;
  const close = open === "[" ? "]" : "}";
  if (!text.endsWith(close)) throw new FrontmatterError(`a flow collection must close on its line (${close})`, at);
  const inner = text.slice(1, -1).trim();
  if (/[[\]{}]/.test(inner.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, ""))) throw new FrontmatterError("nested flow collections are YAML this does not read", at);
  const items = inner === "" ? [] : splitFlow(inner).map((item) => item.trim());
  const value = (item: string): unknown => (item.startsWith('"') || item.startsWith("'") ? quoted(item, at) : scalar(item, at));
  if (open === "[") return items.map(value);
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const { key, rest } = splitKey({ indent: 0, text: item, at });
    out[key] = rest === "" ? null : value(rest.trim());
  }
  return out;
}

/** Splits on the commas outside quotes. */
function splitFlow(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const i of unquoted(text)) {
    if (text[i] !== ",") continue;
    out.push(text.slice(start, i));
    start = i + 1;
  }
  out.push(text.slice(start));
  return out;
}
