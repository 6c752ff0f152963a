// Type-level tests of registrations on the generated 2025-11-25 server (registerTool and the
// others): handler arguments and structured results are typed from the schema the user gives,
// a plain JSON Schema written inline (or `as const`) or a Standard Schema (zod v4). Checked in
// place by test/runtime/features/registry/types.test.ts: every `@ts-expect-error` must still be
// an error, and every other line must compile.
import { z } from "zod";
import type { FromSchema } from "../generated/2025-11-25/index.js";
import { McpServer } from "../generated/2025-11-25/index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T | undefined => undefined;

const server = new McpServer();

// FromSchema: required and optional properties, enums, arrays, unions, nullable types.
const ORDER = {
  type: "object",
  properties: {
    id: { type: "integer" },
    note: { type: "string" },
    status: { enum: ["open", "closed"] },
    lines: { type: "array", items: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] } },
    parent: { type: ["string", "null"] },
    kind: { anyOf: [{ const: "a" }, { type: "number" }] },
  },
  required: ["id", "status"],
} as const;
assert<Equal<FromSchema<typeof ORDER>, { id: number; status: "open" | "closed"; note?: string; lines?: { sku: string }[]; parent?: string | null; kind?: "a" | number }>>();
// A schema whose literal types are lost types as unknown, never narrower than what is accepted.
const loose: { type: string } = { type: "string" };
assert<Equal<FromSchema<typeof loose>, unknown>>();

// Inline JSON Schema: the handler's arguments are typed from it (no `as const` needed).
server.registerTool(
  "add",
  {
    inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a"] },
    outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
  },
  (args) => {
    assert<Equal<typeof args, { a: number; b?: number }>>();
    // @ts-expect-error a is a number, not a string
    const wrong: string = args.a;
    void wrong;
    // @ts-expect-error c is not an argument of the schema
    void args.c;
    return { structuredContent: { sum: args.a + (args.b ?? 0) } };
  },
);

// A wrong structured result is a compile error.
server.registerTool("bad-result", { outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } }, () =>
  // @ts-expect-error sum must be a number
  ({ structuredContent: { sum: "three" } }),
);
server.registerTool("missing-result", { outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } }, () =>
  // @ts-expect-error with an outputSchema, a result that is not an error carries structuredContent
  ({ content: [] }),
);
// An error result needs no structuredContent.
server.registerTool("fails", { outputSchema: { type: "object", properties: { sum: { type: "number" } } } }, () => ({ content: [{ type: "text", text: "no" }], isError: true }));
// Without an outputSchema, content is required (CallToolResult of 2025-11-25).
// @ts-expect-error content is required when there is no outputSchema
server.registerTool("no-content", {}, () => ({}));

// zod v4 (a Standard Schema with a JSON Schema view): its output type.
server.registerTool(
  "greet",
  { inputSchema: z.object({ name: z.string(), times: z.number().int().default(1) }), outputSchema: z.object({ text: z.string() }) },
  (args) => {
    assert<Equal<typeof args, { name: string; times: number }>>();
    // @ts-expect-error name is a string
    const n: number = args.name;
    void n;
    return { structuredContent: { text: args.name.repeat(args.times) } };
  },
);
server.registerTool("greet-wrong", { inputSchema: z.object({ name: z.string() }), outputSchema: z.object({ text: z.string() }) }, () =>
  // @ts-expect-error text must be a string
  ({ structuredContent: { text: 1 } }),
);

// The config takes the revision's Tool fields; a misspelt one is an error.
server.registerTool("annotated", { title: "T", annotations: { readOnlyHint: true }, icons: [{ src: "https://example.com/i.png" }] }, () => ({ content: [] }));
// @ts-expect-error no such field of Tool
server.registerTool("misspelt", { descripton: "x" }, () => ({ content: [] }));

// Prompts: arguments typed from argsSchema; the result is a GetPromptResult.
server.registerPrompt("p", { argsSchema: { type: "object", properties: { topic: { type: "string" } }, required: ["topic"] } }, (args) => {
  assert<Equal<typeof args, { topic: string }>>();
  return { messages: [{ role: "user", content: { type: "text", text: args.topic } }] };
});
// @ts-expect-error a prompt's messages are required
server.registerPrompt("q", {}, () => ({}));

// Resources and templates: the reader returns a ReadResourceResult; templates get their variables.
server.registerResource("r", "x://r", { mimeType: "text/plain" }, (uri) => ({ contents: [{ uri, text: "" }] }));
server.registerResourceTemplate("t", "x://{id}", {}, (uri, variables) => ({ contents: [{ uri, text: variables["id"] ?? "" }] }));
// A template's list: the revision's Resource, typed (name and uri required).
server.registerResourceTemplate("listed", "x://{id}", { list: async () => ({ resources: [{ uri: "x://1", name: "one", mimeType: "text/plain" }] }) }, (uri) => ({ contents: [{ uri, text: "" }] }));
// @ts-expect-error a listed resource needs a name
server.registerResourceTemplate("nameless", "x://{id}", { list: () => ({ resources: [{ uri: "x://1" }] }) }, (uri) => ({ contents: [{ uri, text: "" }] }));
// @ts-expect-error list answers { resources }, not an array
server.registerResourceTemplate("bare", "x://{id}", { list: () => [{ uri: "x://1", name: "one" }] }, (uri) => ({ contents: [{ uri, text: "" }] }));
// @ts-expect-error contents is required
server.registerResource("bad", "x://bad", {}, () => ({}));
