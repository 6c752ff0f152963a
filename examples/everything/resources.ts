/**
 * The resources of the everything server: direct resources (resources/list) and one resource
 * template (resources/templates/list), each with what resources/read returns for it.
 */
import type { BlobResourceContents, Resource, ResourceTemplate, TextResourceContents } from "../../out/2025-11-25/index.js";
import { RED_PIXEL_PNG } from "./media.js";

export type ResourceContents = TextResourceContents | BlobResourceContents;

interface DirectResource {
  readonly resource: Resource & { mimeType: string };
  /** Text, or base64 bytes. */
  readonly body: { readonly text: string } | { readonly blob: string };
}

export const RESOURCES: readonly DirectResource[] = [
  {
    resource: { uri: "test://static-text", name: "static-text", description: "A static text resource.", mimeType: "text/plain" },
    body: { text: "This is the content of the static text resource." },
  },
  {
    resource: { uri: "test://static-binary", name: "static-binary", description: "A static binary resource (a 1x1 red PNG).", mimeType: "image/png" },
    body: { blob: RED_PIXEL_PNG },
  },
  {
    resource: { uri: "test://watched-resource", name: "watched-resource", description: "A resource to subscribe to (resources/subscribe).", mimeType: "text/plain" },
    body: { text: "This resource can be watched with resources/subscribe." },
  },
];

interface TemplateEntry {
  readonly template: ResourceTemplate;
  /** Contents of a URI the template matched, from the values of its variables. */
  readonly read: (uri: string, vars: Readonly<Record<string, string>>) => ResourceContents;
  /** Suggestions for completion/complete, by variable. */
  readonly complete: Readonly<Record<string, readonly string[]>>;
}

export const TEMPLATES: readonly TemplateEntry[] = [
  {
    template: {
      uriTemplate: "test://template/{id}/data",
      name: "template-data",
      description: "Data for an id, substituted from the URI.",
      mimeType: "application/json",
    },
    read: (uri, { id = "" }) => ({
      uri,
      mimeType: "application/json",
      text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    }),
    complete: { id: ["1", "2", "3", "42", "123"] },
  },
];

/**
 * Matches a URI against a level-1 URI template (RFC 6570: only `{name}` expressions, each
 * standing for one non-empty path segment); the variables' values, or undefined.
 */
export function matchTemplate(uriTemplate: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = uriTemplate
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const name = /^\{([^}]+)\}$/.exec(part)?.[1];
      if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(name);
      return "([^/]+)";
    })
    .join("");
  const match = new RegExp(`^${pattern}$`).exec(uri);
  if (match === null) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1] ?? "")]));
}

/** What resources/read returns for `uri`, or undefined when no resource or template has it. */
export function readResource(uri: string): ResourceContents[] | undefined {
  const direct = RESOURCES.find((entry) => entry.resource.uri === uri);
  if (direct !== undefined) return [{ uri, mimeType: direct.resource.mimeType, ...direct.body }];
  for (const entry of TEMPLATES) {
    const vars = matchTemplate(entry.template.uriTemplate, uri);
    if (vars !== undefined) return [entry.read(uri, vars)];
  }
  return undefined;
}
