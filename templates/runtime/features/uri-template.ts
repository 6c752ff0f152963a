// URI templates of resource templates (features/registry.ts registerResourceTemplate): RFC 6570
// level 1 and 2 (`{var}`, `{+var}`), matched against a URI in linear time, so that no template
// and no URI a client sends can make resources/read scan more than once.

/** A URI template's variables, matched in linear time: `{name}` (no `/`) and `{+name}` (anything). */
export interface UriMatcher {
  readonly variables: readonly string[];
  match(uri: string): { [name: string]: string } | null;
}

/** A piece of a template: literal text, or a variable (`reserved`: `{+name}`, whose value may hold `/`). */
type Part = { readonly literal: string } | { readonly name: string; readonly reserved: boolean };

/**
 * A matcher of an RFC 6570 template, level 1 and 2 (`{var}`, `{+var}`). Two variables must be
 * separated by literal text (else the split is ambiguous); each takes the text up to the first
 * occurrence of the literal after it, so a match is one scan of the URI.
 */
export function uriMatcher(template: string): UriMatcher {
  const parts = parseTemplate(template);
  return {
    variables: parts.flatMap((p) => ("name" in p ? [p.name] : [])),
    match: (uri) => matchParts(parts, uri),
  };
}

/** A template's parts, in order; a TypeError for an expression other than `{name}` and `{+name}`, or two variables in a row. */
function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let rest = template;
  while (rest.length > 0) {
    const open = rest.indexOf("{");
    if (open < 0) {
      parts.push({ literal: rest });
      break;
    }
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    const close = rest.indexOf("}", open);
    if (close < 0) throw new TypeError(`URI template ${JSON.stringify(template)}: an unclosed {`);
    const expression = rest.slice(open + 1, close);
    const reserved = expression.startsWith("+");
    const name = reserved ? expression.slice(1) : expression;
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new TypeError(`URI template ${JSON.stringify(template)}: {${expression}} is not supported (only {name} and {+name})`);
    const last = parts[parts.length - 1];
    if (last !== undefined && !("literal" in last)) throw new TypeError(`URI template ${JSON.stringify(template)}: two variables must be separated by literal text`);
    parts.push({ name, reserved });
    rest = rest.slice(close + 1);
  }
  return parts;
}

/** The variables' values when `uri` matches the parts (`{name}` percent-decoded), else null. One scan of `uri`. */
function matchParts(parts: readonly Part[], uri: string): { [name: string]: string } | null {
  const values: { [name: string]: string } = {};
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    if ("literal" in part) {
      if (!uri.startsWith(part.literal, at)) return null;
      at += part.literal.length;
      continue;
    }
    const next = parts[i + 1];
    const end = next === undefined ? uri.length : uri.indexOf((next as { literal: string }).literal, at);
    if (end < 0) return null;
    const value = uri.slice(at, end);
    if (!part.reserved && value.includes("/")) return null;
    try {
      values[part.name] = part.reserved ? value : decodeURIComponent(value);
    } catch {
      return null;
    }
    at = end;
  }
  return at === uri.length ? values : null;
}
