/**
 * What the server's registrations (runtime features/registry.ts) need to know of a revision that
 * its schema says: whether tool results carry structured content (`CallToolResult.structuredContent`,
 * server/tools, Structured Content, 2025-06-18 …) and whether servers declare the `completions`
 * capability (`ServerCapabilities.completions`, 2025-03-26 …; 2024-11-05 has completion/complete
 * without one). What only the prose says (the error conventions) is the policy table's.
 */
import type { SchemaDocument } from "../load/schema-document.js";
import { propertiesOf } from "./lifecycle.js";

export interface RegistryFacts {
  readonly structuredContent: boolean;
  readonly completionsCapability: boolean;
}

/** Read from the schema's definitions. Pure. */
export function registryFacts(doc: SchemaDocument): RegistryFacts {
  return {
    structuredContent: propertiesOf(doc, "CallToolResult").has("structuredContent"),
    completionsCapability: propertiesOf(doc, "ServerCapabilities").has("completions"),
  };
}
