/**
 * completion/complete of the everything server, the same in every era: suggestions for a
 * prompt's arguments (prompts.ts) or a resource template's variables (resources.ts).
 */
import { findPrompt } from "./prompts.js";
import { TEMPLATES } from "./resources.js";

/** At most this many values per answer (Completion: "Must not exceed 100 items"). */
const COMPLETION_LIMIT = 100;

/** What completion/complete names: a prompt, or a resource template by its URI template. */
export type CompletionRef = { readonly type: "ref/prompt"; readonly name: string } | { readonly type: "ref/resource"; readonly uri: string };

export interface Completion {
  values: string[];
  total: number;
  hasMore: boolean;
}

/**
 * The suggestions for `argument` that start with its value, or undefined when `ref` names no
 * prompt (Completion, Error Handling: an invalid prompt name is -32602; each era throws its own
 * error). A template without suggestions for that variable answers none.
 */
export function complete(ref: CompletionRef, argument: { readonly name: string; readonly value: string }): Completion | undefined {
  let table: Readonly<Record<string, readonly string[]>>;
  if (ref.type === "ref/resource") {
    table = TEMPLATES.find((entry) => entry.template.uriTemplate === ref.uri)?.complete ?? {};
  } else {
    const prompt = findPrompt(ref.name);
    if (prompt === undefined) return undefined;
    table = prompt.complete ?? {};
  }
  const values = (Object.hasOwn(table, argument.name) ? (table[argument.name] ?? []) : []).filter((value) => value.startsWith(argument.value));
  return { values: values.slice(0, COMPLETION_LIMIT), total: values.length, hasMore: values.length > COMPLETION_LIMIT };
}
