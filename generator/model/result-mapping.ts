import { StubgenError } from "../errors.js";
import type { SchemaDocument } from "../load/schema-document.js";

/** How a request's result type was found. */
export type ResultRule = "override" | "name" | "description" | "default";

export interface ResultMapping {
  readonly type: string;
  readonly rule: ResultRule;
}

/**
 * The schema does not link a request to its result, so derive it, in this order:
 * 1. an override (`--result-override method=Type`, or the config file);
 * 2. by name: `FooRequest` → `FooResult`, when that definition exists;
 * 3. by description: the one `…Result` definition whose description names the method
 *    (as a whole token: "a prompts/get request" names `prompts/get`, not `prompts/get/x`);
 * 4. otherwise `EmptyResult`, or `Result` in a revision without `EmptyResult`.
 */
export function deriveResult(
  doc: SchemaDocument,
  request: { readonly method: string; readonly typeName: string | null },
  overrides: Readonly<Record<string, string>>,
): ResultMapping {
  const override = overrides[request.method];
  if (override !== undefined) {
    if (!doc.defs.has(override)) {
      throw new StubgenError(
        `result override ${request.method}=${override}: expected the name of a definition in this schema`,
        { file: doc.file, pointer: `/${doc.defsKey}` },
      );
    }
    return { type: override, rule: "override" };
  }
  if (request.typeName?.endsWith("Request")) {
    const byName = `${request.typeName.slice(0, -"Request".length)}Result`;
    if (doc.defs.has(byName)) return { type: byName, rule: "name" };
  }
  const byDescription = resultsNamingMethod(doc, request.method);
  if (byDescription.length === 1) return { type: byDescription[0]!, rule: "description" };
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
      `cannot tell the result of ${request.method}: expected ${request.typeName?.replace(/Request$/, "Result") ?? "a …Result"}, ` +
        `a result whose description names it, EmptyResult or Result; add --result-override ${request.method}=TypeName`,
      { file: doc.file, pointer: `/${doc.defsKey}` },
    );
  }
  return { type: fallback, rule: "default" };
}

/** `…Result` definitions whose description mentions the method as a whole token. */
export function resultsNamingMethod(doc: SchemaDocument, method: string): string[] {
  const escaped = method.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // A whole token: not inside a longer method (`tools/call-x`, `x/tools/call`); a sentence's
  // full stop after it is fine.
  const token = new RegExp(`(?<![\\w/.-])${escaped}(?![\\w/-]|\\.\\w)`);
  const hits: string[] = [];
  for (const [name, node] of doc.defs) {
    if (!name.endsWith("Result")) continue;
    const description = node["description"];
    if (typeof description === "string" && token.test(description)) hits.push(name);
  }
  return hits;
}
