// MCP Apps (io.modelcontextprotocol/ui, SEP-1865) on an MCP server of any revision: a UI resource
// (an HTML app served as `text/html;profile=mcp-app`, with the CSP and permissions the host
// applies to its iframe in `_meta.ui`), a tool whose `_meta.ui.resourceUri` names it, and the
// capability both sides declare under `extensions`. Structural over the generated McpServer's
// registerResource and registerTool; no Node modules.

import { isObject, type JsonObject } from "../core/json.js";

/** The extension's identifier, the key under `capabilities.extensions`. */
export const UI_EXTENSION_ID: string = "io.modelcontextprotocol/ui";
/** The MIME type of a UI resource (SEP-1865: HTML with the mcp-app profile). */
export const UI_RESOURCE_MIME_TYPE: string = "text/html;profile=mcp-app";
/** The flat `_meta` key older hosts read a tool's UI resource from (kept beside `_meta.ui.resourceUri`, as ext-apps does). */
export const UI_RESOURCE_URI_META_KEY: string = "ui/resourceUri";

/** A server that registers resources (every generated McpServer). */
export interface ResourceRegistrar {
  registerResource(name: string, uri: string, config: never, read: never): unknown;
}

/** A server that registers tools (every generated McpServer). */
export interface ToolRegistrar {
  registerTool(name: string, config: never, handler: never): unknown;
}

/** A UI resource's config: the revision's Resource fields, with the extension's `_meta.ui` (`M`: McpUiResourceMeta). */
export interface AppResourceConfig<M extends object = object> {
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly _meta?: { readonly ui?: M | undefined; readonly [key: string]: unknown } | undefined;
  readonly [field: string]: unknown;
}

/** A UI tool's config: `_meta.ui` (`M`: McpUiToolMeta) must name the resource. */
export interface AppToolConfig<M extends { resourceUri?: string | undefined } = { resourceUri?: string | undefined }> {
  readonly _meta: { readonly ui: M & { readonly resourceUri: string }; readonly [key: string]: unknown };
  readonly [field: string]: unknown;
}

/** The reader `server.registerResource` takes (the revision's, typed by it). */
export type AppResourceReader<S extends ResourceRegistrar> = Parameters<S["registerResource"]>[3];

/** The tool handler `server.registerTool` takes (the revision's, typed by it). */
export type AppToolHandler<S extends ToolRegistrar> = Parameters<S["registerTool"]>[2];

/**
 * Registers a UI resource: listed with `mimeType: text/html;profile=mcp-app` and the config's
 * `_meta` (its `ui`: csp, permissions, domain, prefersBorder); each content `read` answers gets
 * the same mimeType and `_meta.ui` where it sets none, since hosts read them from the content.
 */
export function registerAppResource<S extends ResourceRegistrar>(server: S, name: string, uri: string, config: AppResourceConfig, read: AppResourceReader<S>): ReturnType<S["registerResource"]> {
  const ui = config._meta?.ui;
  const fill = (result: unknown): unknown => {
    if (!isObject(result) || !Array.isArray(result["contents"])) return result;
    const contents = result["contents"].map((content: unknown) => {
      if (!isObject(content)) return content;
      const meta = isObject(content["_meta"]) ? content["_meta"] : undefined;
      return {
        ...content,
        mimeType: content["mimeType"] ?? UI_RESOURCE_MIME_TYPE,
        ...(ui === undefined || meta?.["ui"] !== undefined ? {} : { _meta: { ...meta, ui } }),
      };
    });
    return { ...result, contents };
  };
  const reader = (...args: unknown[]): unknown => {
    const answer = (read as unknown as (...a: unknown[]) => unknown)(...args);
    return answer instanceof Promise ? answer.then(fill) : fill(answer);
  };
  return server.registerResource(name, uri, { mimeType: UI_RESOURCE_MIME_TYPE, ...config } as never, reader as never) as ReturnType<S["registerResource"]>;
}

/**
 * Registers a tool whose UI is the resource `config._meta.ui.resourceUri` (SEP-1865: hosts render
 * it when the tool is called). The flat key `ui/resourceUri` is set to the same URI for hosts
 * that read the older form. `handler` is the server's tool handler, passed as it is.
 */
export function registerAppTool<S extends ToolRegistrar>(server: S, name: string, config: AppToolConfig, handler: AppToolHandler<S>): ReturnType<S["registerTool"]> {
  return server.registerTool(name, appToolConfig(config) as never, handler as never) as ReturnType<S["registerTool"]>;
}

/** A client's (host's) capabilities for the extension: the MIME types of UI resources it renders. */
export function uiClientCapabilities(mimeTypes: readonly string[] = [UI_RESOURCE_MIME_TYPE]): { extensions: { [id: string]: { mimeTypes: string[] } } } {
  return { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [...mimeTypes] } } };
}

/** A server's capabilities for the extension: it serves UI resources (the extension defines no settings). */
export function uiServerCapabilities(): { extensions: { [id: string]: Record<string, never> } } {
  return { extensions: { [UI_EXTENSION_ID]: {} } };
}

/**
 * A tool config with the extension's `_meta` filled (`ui.resourceUri` and the flat
 * `ui/resourceUri`), for `server.registerTool(name, appToolConfig(config), handler)`: the
 * server's own typing of the handler (arguments from inputSchema, results from outputSchema) stays.
 */
export function appToolConfig<const C extends AppToolConfig>(config: C): C {
  const resourceUri = config._meta.ui.resourceUri;
  if (typeof resourceUri !== "string" || resourceUri === "") throw new TypeError("_meta.ui.resourceUri must name the UI resource");
  return { ...config, _meta: { ...config._meta, [UI_RESOURCE_URI_META_KEY]: resourceUri } } as C;
}

/**
 * What capabilities (a client's: initialize's `capabilities`, or 2026-07-28's per-request
 * client capabilities in `_meta`; or a server's) declare of the extension; undefined: nothing,
 * so a server should offer its tools without UI.
 */
export function getUiCapability(capabilities: unknown): JsonObject | undefined {
  if (!isObject(capabilities) || !isObject(capabilities["extensions"])) return undefined;
  const entry = capabilities["extensions"][UI_EXTENSION_ID];
  return isObject(entry) ? entry : undefined;
}
