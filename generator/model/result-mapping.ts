import { StubgenError } from "../errors.js";
import { join } from "../load/json-pointer.js";
import { deref, isSchemaNode, refName, type Located, type SchemaDocument } from "../load/schema-document.js";

/** How a request's result type was found. */
export type ResultRule = "override" | "response" | "name" | "description" | "default";

export interface ResultMapping {
  /**
   * The definitions the result may be, in order: one name, or the members of a union (the
   * request's own `…Result` first, then the others in the schema's order).
   */
  readonly types: readonly string[];
  readonly rule: ResultRule;
}

/**
 * A request's result, in this order:
 * 1. an override (`--result-override method=Type`, or `method=A | B`, or the config file);
 * 2. from the schema's own link (2026-07-28 on): the `…ResultResponse` definition that answers
 *    the request (responsesAnswering); the result is what its `result` property allows;
 * 3. by name: `FooRequest` → `FooResult`, when that definition exists;
 * 4. by description: the one `…Result` definition whose description names the method (as a
 *    whole token: "a prompts/get request" names `prompts/get`, not `prompts/get/x`) or links
 *    the request (`{@link GetPromptRequest | prompts/get}`);
 * 5. otherwise `EmptyResult`, or `Result` in a revision without `EmptyResult`.
 */
export function deriveResult(
  doc: SchemaDocument,
  request: { readonly method: string; readonly typeName: string | null },
  overrides: Readonly<Record<string, string>>,
): ResultMapping {
  const override = overrides[request.method];
  if (override !== undefined) return { types: overrideTypes(doc, request.method, override), rule: "override" };
  const byResponse = resultFromResponse(doc, request);
  if (byResponse !== null) return { types: byResponse, rule: "response" };
  const byName = namedResult(request.typeName);
  if (byName !== null && doc.defs.has(byName)) return { types: [byName], rule: "name" };
  const byDescription = resultsNamingMethod(doc, request.method, request.typeName);
  if (byDescription.length === 1) return { types: [byDescription[0]!], rule: "description" };
  if (byDescription.length > 1) {
    throw new StubgenError(
      `cannot tell the result of ${request.method}: ${byDescription.join(", ")} all name it in their description; ` +
        `expected one, add --result-override ${request.method}=TypeName`,
      { file: doc.file, pointer: `/${doc.defsKey}` },
    );
  }
  const fallback = ["EmptyResult", "Result"].find((name) => doc.defs.has(name));
  if (fallback === undefined) {
    throw new StubgenError(
      `cannot tell the result of ${request.method}: expected ${byName ?? "a …Result"}, ` +
        `a result whose description names it, EmptyResult or Result; add --result-override ${request.method}=TypeName`,
      { file: doc.file, pointer: `/${doc.defsKey}` },
    );
  }
  return { types: [fallback], rule: "default" };
}

/** `FooRequest` → `FooResult`; null when the type name does not end in `Request`. */
function namedResult(typeName: string | null): string | null {
  return typeName?.endsWith("Request") && typeName !== "Request" ? `${typeName.slice(0, -"Request".length)}Result` : null;
}

/** An override's type names: `Type`, or a union `A | B`; each must be a definition. */
function overrideTypes(doc: SchemaDocument, method: string, override: string): string[] {
  const names = [...new Set(override.split("|").map((name) => name.trim()))];
  if (names.some((name) => !doc.defs.has(name))) {
    throw new StubgenError(
      `result override ${method}=${override}: expected the name of a definition in this schema, or names joined by "|"`,
      { file: doc.file, pointer: `/${doc.defsKey}` },
    );
  }
  return names;
}

/** A `…ResultResponse` definition: the requests it answers and where its `result` is. */
export interface ResultResponse {
  readonly name: string;
  /** Type names of the request messages it answers. */
  readonly answers: readonly string[];
  readonly result: Located;
}

const RESPONSE_SUFFIX = "ResultResponse";
const responseCache = new WeakMap<SchemaDocument, readonly ResultResponse[]>();

/**
 * The `…ResultResponse` definitions of a schema (2026-07-28 and later: `CallToolResultResponse`,
 * …; earlier revisions have none but the generic `JSONRPCResultResponse`, which answers no
 * particular request) that have a `result` property, in schema order. Which request one answers
 * is what the schema says:
 * - its description links request messages: "A successful response from the server for a
 *   {@link CallToolRequest | tools/call} request" (in schema.json the link reads
 *   `{@link CallToolRequesttools/call}`; linkTargets reads both forms);
 * - else its name pairs with one: `CallToolResultResponse` answers `CallToolRequest`.
 * A request message is a definition with a `properties.method.const` string.
 */
export function resultResponses(doc: SchemaDocument): readonly ResultResponse[] {
  const cached = responseCache.get(doc);
  if (cached !== undefined) return cached;
  const responses: ResultResponse[] = [];
  for (const [name, node] of doc.defs) {
    if (!name.endsWith(RESPONSE_SUFFIX) || name === RESPONSE_SUFFIX) continue;
    const result = propertyOf(doc, { node, pointer: join("", doc.defsKey, name), name }, "result");
    if (result === null) continue;
    const description = node["description"];
    const linked = typeof description === "string" ? linkTargets(doc, description).filter((target) => isMessage(doc, target)) : [];
    const paired = `${name.slice(0, -RESPONSE_SUFFIX.length)}Request`;
    const answers = linked.length > 0 ? linked : isMessage(doc, paired) ? [paired] : [];
    responses.push({ name, answers: [...new Set(answers)], result });
  }
  responseCache.set(doc, responses);
  return responses;
}

/**
 * The result types of the response that answers this request, or null when none does. Several
 * responses answering one request must agree; a `result` must be a `$ref` or an `anyOf`/`oneOf`
 * of `$ref`s (types.ts names each definition; an inline result has no name to give).
 */
function resultFromResponse(doc: SchemaDocument, request: { readonly method: string; readonly typeName: string | null }): string[] | null {
  if (request.typeName === null) return null;
  const typeName = request.typeName;
  const answering = resultResponses(doc).filter((r) => r.answers.includes(typeName));
  if (answering.length === 0) return null;
  const lists = answering.map((r) => orderResults(responseResultTypes(doc, r, request.method), namedResult(typeName)));
  const distinct = new Set(lists.map((list) => [...list].sort().join(" | ")));
  if (distinct.size > 1) {
    throw new StubgenError(
      `cannot tell the result of ${request.method}: ${answering.map((r) => r.name).join(", ")} all answer ${typeName} ` +
        `with different results; add --result-override ${request.method}=TypeName`,
      { file: doc.file, pointer: `/${doc.defsKey}` },
    );
  }
  return lists[0]!;
}

/** The request's own `…Result` first (schema.ts writes `CallToolResult | InputRequiredResult`), the rest in schema order. */
function orderResults(types: readonly string[], primary: string | null): string[] {
  return primary !== null && types.includes(primary) ? [primary, ...types.filter((t) => t !== primary)] : [...types];
}

/** The definitions a response's `result` allows, in schema order. */
function responseResultTypes(doc: SchemaDocument, response: ResultResponse, method: string): string[] {
  const { node, pointer } = response.result;
  const single = refName(doc, node["$ref"]);
  if (single !== null) return [single];
  for (const keyword of ["anyOf", "oneOf"]) {
    const members = node[keyword];
    if (!Array.isArray(members)) continue;
    const names = members.map((member) => (isSchemaNode(member) ? refName(doc, member["$ref"]) : null));
    if (names.length > 0 && names.every((n) => n !== null)) return [...new Set(names as string[])];
  }
  throw new StubgenError(
    `${response.name} answers ${method}, but its "result" is not a "$ref" to a definition or an anyOf of them: ` +
      `expected named result types; add --result-override ${method}=TypeName`,
    { file: doc.file, pointer },
  );
}

/**
 * A property's schema: the definition's own (after `$ref`s), else its inline `allOf` members',
 * else those of the definitions it extends (`$ref`s in `allOf`): the nearest declaration refines
 * an inherited one (a response that extends JSONRPCResultResponse, whose `result` is any
 * Result, and narrows `result` beside it). Null when absent.
 */
function propertyOf(doc: SchemaDocument, at: Located, property: string, seen = new Set<string>()): Located | null {
  const target = deref(doc, at);
  if (seen.has(target.pointer)) return null;
  seen.add(target.pointer);
  const props = target.node["properties"];
  const own = isSchemaNode(props) ? props[property] : undefined;
  if (isSchemaNode(own)) return { node: own, pointer: join(target.pointer, "properties", property), name: null };
  const all = target.node["allOf"];
  if (!Array.isArray(all)) return null;
  const members = all.flatMap((node, i): Located[] => (isSchemaNode(node) ? [{ node, pointer: join(target.pointer, "allOf", i), name: null }] : []));
  const inline = members.filter((m) => m.node["$ref"] === undefined);
  const extended = members.filter((m) => m.node["$ref"] !== undefined);
  for (const member of [...inline, ...extended]) {
    const found = propertyOf(doc, member, property, seen);
    if (found !== null) return found;
  }
  return null;
}

/** Whether a definition is a message: an object whose `method` is a string constant. */
function isMessage(doc: SchemaDocument, name: string): boolean {
  const node = doc.defs.get(name);
  const props = node?.["properties"];
  const method = isSchemaNode(props) ? props["method"] : undefined;
  return isSchemaNode(method) && typeof method["const"] === "string";
}

const LINK = /\{@link(?:code|plain)?\s+([^}]*)\}/g;

/** One `{@link …}` of a description: the definition it names (null: none) and its label text. */
interface Link {
  readonly target: string | null;
  readonly label: string;
}

/**
 * One `{@link Target | label}` tag (TSDoc; also `{@link Target label}` and `{@link Target}`),
 * given its inner text. The published schema.json loses the separator (`{@link
 * CallToolRequesttools/call}`), so a tag without one names the longest definition its text
 * starts with, and the rest is the label.
 */
function parseLink(doc: SchemaDocument, inner: string): Link {
  const text = inner.trim();
  const separated = /^([^\s|]+)\s*(?:\|\s*)?(.*)$/s.exec(text);
  if (separated !== null && separated[2] !== "") {
    const target = separated[1]!;
    return { target: doc.defs.has(target) ? target : null, label: separated[2]!.trim() };
  }
  let target: string | null = null;
  for (const name of doc.defs.keys()) {
    if (text.startsWith(name) && (target === null || name.length > target.length)) target = name;
  }
  return { target, label: target === null ? text : text.slice(target.length) };
}

/**
 * A description with each `{@link}` tag replaced by its target and label as plain words
 * (`{@link DiscoverRequestserver/discover}` → ` DiscoverRequest server/discover `), and the
 * definitions the tags name, in order.
 */
function readLinks(doc: SchemaDocument, description: string): { readonly text: string; readonly targets: readonly string[] } {
  const targets: string[] = [];
  const text = description.replace(LINK, (_tag: string, inner: string) => {
    const link = parseLink(doc, inner);
    if (link.target !== null) targets.push(link.target);
    return ` ${link.target ?? ""} ${link.label} `;
  });
  return { text, targets };
}

/** The definitions a description's `{@link}` tags name, in order. */
export function linkTargets(doc: SchemaDocument, description: string): readonly string[] {
  return readLinks(doc, description).targets;
}

/**
 * `…Result` definitions whose description names the method as a whole token, or links the
 * request type (`typeName`). A `{@link Target | label}` reads as "Target label", so a link whose
 * label is the method names it too (`{@link DiscoverRequestserver/discover}`).
 */
export function resultsNamingMethod(doc: SchemaDocument, method: string, typeName: string | null = null): string[] {
  const escaped = method.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // A whole token: not inside a longer method (`tools/call-x`, `x/tools/call`); a sentence's
  // full stop after it is fine.
  const token = new RegExp(`(?<![\\w/.-])${escaped}(?![\\w/-]|\\.\\w)`);
  const hits: string[] = [];
  for (const [name, node] of doc.defs) {
    if (!name.endsWith("Result")) continue;
    const description = node["description"];
    if (typeof description !== "string") continue;
    const { text, targets } = readLinks(doc, description);
    if (token.test(text) || (typeName !== null && targets.includes(typeName))) hits.push(name);
  }
  return hits;
}
