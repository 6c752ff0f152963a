// The conformance client's Skills extension scenarios (io.modelcontextprotocol/skills, SEP-2640;
// the suite's sep-2640-client-*): a host that lists the server's skills, reads nothing ahead of
// need, and loads a skill only through the runtime's verifying SkillsClient (size, digest and
// frontmatter checked against the listed entry; a supporting file read only once the SKILL.md
// passed). The suite's server serves a tampered SKILL.md in the verify-* scenarios: the load
// must be refused and nothing more read.
import { SKILLS_EXTENSION, SkillsClient, SkillVerificationError, type McpClient, type McpClientOptions } from "../../out/2026-07-28/index.js";
import type { ScenarioRunner, ScenarioTable } from "./scenario.js";

/** era-2026.ts's withClient: a connected 2026-07-28 client for the body, closed afterwards. */
type WithClient = (url: string, options: McpClientOptions, body: (client: McpClient) => Promise<void>) => Promise<void>;

/** The server's skills, after checking it declared the extension (clients ask only then: Capability Negotiation). */
async function listSkills(client: McpClient): Promise<{ skills: SkillsClient; entries: Awaited<ReturnType<SkillsClient["list"]>> }> {
  const { capabilities } = await client.discover();
  if (capabilities.extensions?.[SKILLS_EXTENSION] === undefined) throw new Error(`the server does not declare ${SKILLS_EXTENSION}`);
  const skills = new SkillsClient(client);
  return { skills, entries: await skills.list() };
}

/** sep-2640-client-no-prefetch: list the skills and load none (Lazy Retrieval). */
const noPrefetch = (withClient: WithClient): ScenarioRunner => (url) =>
  withClient(url, {}, async (client) => {
    await listSkills(client);
  });

/**
 * sep-2640-client-verify-*: load the first skill; once it is verified, act on it (read every
 * file its entry lists). A verification failure is the expected refusal: reported, nothing read after it.
 */
const loadFirst = (withClient: WithClient): ScenarioRunner => (url) =>
  withClient(url, {}, async (client) => {
    const { skills, entries } = await listSkills(client);
    const entry = entries[0];
    if (entry === undefined) throw new Error("the server lists no skill");
    try {
      const loaded = await skills.load(entry);
      if (entry.resources !== "dynamic") for (const file of entry.resources) if (file.uri !== entry.uri) await loaded.read(file.uri);
    } catch (error) {
      if (!(error instanceof SkillVerificationError)) throw error;
      console.error(`skill refused: ${error.message}`);
    }
  });

/** The scenario table of the extension, over era-2026.ts's client. */
export function skillsScenarios(withClient: WithClient): ScenarioTable {
  return {
    "sep-2640-client-no-prefetch": noPrefetch(withClient),
    "sep-2640-client-verify-digest": loadFirst(withClient),
    "sep-2640-client-verify-size": loadFirst(withClient),
    "sep-2640-client-verify-frontmatter": loadFirst(withClient),
  };
}
