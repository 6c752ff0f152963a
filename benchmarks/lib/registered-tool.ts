// The tool of the registration rows (registrations.ts): the same arguments schema as JSON Schema
// and as zod (the same constraints), the same arguments, the same result, for both sides, in memory
// and over HTTP (http/registered-servers.ts).
import { z } from "zod";

export const INPUT_JSON = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1, maxLength: 64 },
    days: { type: "integer", minimum: 1, maximum: 7 },
    units: { enum: ["c", "f"] },
    tags: { type: "array", items: { type: "string", maxLength: 16 }, maxItems: 8 },
  },
  required: ["city", "days"],
  additionalProperties: false,
} as const;

export const INPUT_ZOD = z
  .object({
    city: z.string().min(1).max(64),
    days: z.number().int().min(1).max(7),
    units: z.enum(["c", "f"]).optional(),
    tags: z.array(z.string().max(16)).max(8).optional(),
  })
  .strict();

export const TOOL_NAME = "forecast";
export const ARGUMENTS = { city: "Oslo", days: 3, units: "c", tags: ["coast", "north"] };
export const RESULT = { content: [{ type: "text" as const, text: "ok" }] };

/**
 * on, JSON Schema   ours: the plain JSON Schema, checked by the built-in validator (SDK: none; v2 takes Standard Schemas only);
 * on, zod           ours: the zod schema, checked by zod's own validate; SDK: registerTool with the zod schema;
 * off               ours: `registrations: { validate: false }` with the JSON Schema; SDK: the tool without inputSchema.
 */
export type Variant = "on, JSON Schema" | "on, zod" | "off";
export const VARIANTS: readonly Variant[] = ["on, JSON Schema", "on, zod", "off"];
