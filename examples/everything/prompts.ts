/**
 * The prompts of the everything server: definition (prompts/list) and messages (prompts/get),
 * registered with registerPrompts (McpServer.registerPrompt: the registrations check required
 * arguments and complete argument values).
 */
import type { McpServer, Prompt, PromptMessage } from "../../out/2025-11-25/index.js";
import { suggest } from "./completion.js";
import { RED_PIXEL_PNG } from "./media.js";

interface PromptEntry {
  readonly prompt: Prompt;
  /** The messages, from the arguments (the required ones are checked before this is called). */
  readonly messages: (args: Readonly<Record<string, string>>) => PromptMessage[];
  /** Suggestions for completion/complete, by argument. */
  readonly complete?: Readonly<Record<string, readonly string[]>>;
}

const user = (content: PromptMessage["content"]): PromptMessage => ({ role: "user", content });

export const PROMPTS: readonly PromptEntry[] = [
  {
    prompt: { name: "test_simple_prompt", description: "A prompt without arguments." },
    messages: () => [user({ type: "text", text: "This is a simple prompt for testing." })],
  },
  {
    prompt: {
      name: "test_prompt_with_arguments",
      description: "A prompt that substitutes two arguments.",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
    },
    messages: ({ arg1 = "", arg2 = "" }) => [user({ type: "text", text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` })],
    complete: { arg1: ["paris", "park", "party", "test", "testing"], arg2: ["hello", "help", "world"] },
  },
  {
    prompt: {
      name: "test_prompt_with_embedded_resource",
      description: "A prompt that embeds a resource.",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    messages: ({ resourceUri = "" }) => [
      user({ type: "resource", resource: { uri: resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." } }),
      user({ type: "text", text: "Please process the embedded resource above." }),
    ],
    complete: { resourceUri: ["test://static-text", "test://static-binary", "test://example-resource"] },
  },
  {
    prompt: { name: "test_prompt_with_image", description: "A prompt with an image (a 1x1 red PNG)." },
    messages: () => [
      user({ type: "image", data: RED_PIXEL_PNG, mimeType: "image/png" }),
      user({ type: "text", text: "Please analyze the image above." }),
    ],
  },
];

/** The registration of a prompt: its definition, and the completers of its arguments. */
export function promptRegistration({ prompt, complete }: PromptEntry) {
  const { name, ...config } = prompt;
  return { name, config: { ...config, ...(complete === undefined ? {} : { complete: suggest(complete) }) } };
}

/** Registers every prompt on `server` (the 2025-11-25 one; the 2026-07-28 server registers the same table). */
export function registerPrompts(server: McpServer): void {
  for (const entry of PROMPTS) {
    const { name, config } = promptRegistration(entry);
    server.registerPrompt(name, config, (args) => ({ messages: entry.messages(args) }));
  }
}
