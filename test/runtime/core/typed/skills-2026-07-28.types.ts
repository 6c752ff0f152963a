// Type-level tests of the Skills extension (--extension skills, issue 43): the generated client
// has the extension's requests typed by the project's schema, a revision generated without it
// has none, and the runtime's SkillsClient takes the generated McpClient as it is.
// Compiled by `npm test` (tsc -p tsconfig.json): each `@ts-expect-error` line must be an error, or
// tsc fails on the unused directive.
import type * as T from "../../../generated-skills/2026-07-28/index.js";
import { McpClient, SkillsClient } from "../../../generated-skills/2026-07-28/index.js";
import { McpClient as PlainClient } from "../../../generated/2026-07-28/index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;

export async function skillsRequests(client: McpClient): Promise<number> {
  const listed = await client.listSkills({});
  assertType<Equal<typeof listed.skills, T.Skill[]>>();
  const entry = listed.skills[0]!;
  assertType<Equal<typeof entry.resources, T.SkillResource[] | "dynamic">>();
  const name: string = entry.frontmatter.name;
  // @ts-expect-error skills/get names the skill by the URI of its SKILL.md
  await client.getSkill({});
  // @ts-expect-error resources/directory/read needs the directory's URI
  await client.readResourceDirectory({ cursor: "c" });
  const children = await client.readResourceDirectory({ uri: "skill://a" });
  assertType<Equal<typeof children.resources, T.Resource[]>>();
  // The verifying client takes the generated client as it is.
  const loaded = await new SkillsClient(client).load(entry);
  return name.length + loaded.entry.uri.length;
}

export function withoutTheExtension(client: PlainClient): void {
  // @ts-expect-error a revision generated without --extension skills has no skills/list
  void client.listSkills({});
}
