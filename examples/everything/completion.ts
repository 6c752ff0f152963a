/**
 * completion/complete of the everything server, the same in every era: a prompt's arguments
 * (prompts.ts) and a resource template's variables (resources.ts) are completed from fixed
 * suggestions. The registrations answer completion/complete (at most 100 values, with total and
 * hasMore; an unknown prompt is -32602); this makes their completers.
 */

/** A completer of the registrations: the suggestions that start with the value typed so far. */
export type Suggest = (value: string) => string[];

/** One completer per argument, from its suggestions. */
export function suggest(table: Readonly<Record<string, readonly string[]>>): Record<string, Suggest> {
  return Object.fromEntries(Object.entries(table).map(([name, values]) => [name, (value: string) => values.filter((v) => v.startsWith(value))]));
}
