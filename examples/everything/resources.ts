/**
 * The resources of the everything server: direct resources (resources/list) and one resource
 * template (resources/templates/list), each with what resources/read returns for it, registered
 * with registerResources (McpServer.registerResource and registerResourceTemplate: the
 * registrations list them, match a URI against the template, answer an unknown URI with the
 * revision's error and serve resources/subscribe where the revision has it).
 */
import type { BlobResourceContents, McpServer, Resource, ResourceTemplate, TextResourceContents } from "../../out/2025-11-25/index.js";
import { suggest } from "./completion.js";
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

/** The contents of a direct resource. */
export const contentsOf = ({ resource, body }: DirectResource): ResourceContents[] => [{ uri: resource.uri, mimeType: resource.mimeType, ...body }];

/** What registerResource and registerResourceTemplate take of each entry, the same in both eras. */
export const resourceRegistrations = () => ({
  resources: RESOURCES.map((entry) => {
    const { name, uri, ...config } = entry.resource;
    return { name, uri, config, contents: contentsOf(entry) };
  }),
  templates: TEMPLATES.map((entry) => {
    const { name, uriTemplate, ...config } = entry.template;
    return { name, uriTemplate, config: { ...config, complete: suggest(entry.complete) }, read: entry.read };
  }),
});

/** Registers every resource and template on `server` (the 2025-11-25 one). */
export function registerResources(server: McpServer): void {
  const { resources, templates } = resourceRegistrations();
  for (const { name, uri, config, contents } of resources) server.registerResource(name, uri, config, () => ({ contents }));
  for (const { name, uriTemplate, config, read } of templates) server.registerResourceTemplate(name, uriTemplate, config, (uri, vars) => ({ contents: [read(uri, vars)] }));
}
