/** RFC 6901 JSON pointers: building, escaping and resolving. */

export function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Joins tokens onto a base pointer: `join("/$defs", "A", "properties")` → `/$defs/A/properties`. */
export function join(base: string, ...tokens: Array<string | number>): string {
  return base + tokens.map((t) => `/${escapeToken(t)}`).join("");
}

/** Resolves a pointer in a document; `undefined` when any step is missing. */
export function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === "") return doc;
  if (!pointer.startsWith("/")) return undefined;
  let node: unknown = doc;
  for (const raw of pointer.slice(1).split("/")) {
    const token = unescapeToken(raw);
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (node !== null && typeof node === "object" && Object.hasOwn(node, token)) {
      node = (node as Record<string, unknown>)[token];
    } else {
      return undefined;
    }
  }
  return node;
}
