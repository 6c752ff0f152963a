/**
 * Code blocks of the project's Markdown files, run by the tests as written: a block named
 * "```ts NAME" is written to out/readme-snippets/NAME.ts (git-ignored), with its imports of
 * "./out/…" re-rooted to that folder ("../…"), the only change, and imported from there.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { PACKAGE_ROOT } from "../../generator/project.js";

/** The text of the one "```ts NAME" block of `markdown` (a path from the package root). */
export function codeBlock(markdown: string, name: string): string {
  const text = readFileSync(join(PACKAGE_ROOT, markdown), "utf8");
  const found = [...text.matchAll(/^```ts ([^\n]+)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === name);
  if (found.length !== 1) throw new Error(`${markdown}: expected one \`\`\`ts ${name} block, found ${found.length}`);
  return found[0]![2]!;
}

/** Imports the block `name` of `markdown` as a module. */
export async function importCodeBlock<M>(markdown: string, name: string): Promise<M> {
  const folder = join(PACKAGE_ROOT, "out", "readme-snippets");
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.ts`);
  writeFileSync(file, codeBlock(markdown, name).replaceAll(`from "./out/`, `from "../`));
  return (await import(pathToFileURL(file).href)) as M;
}
