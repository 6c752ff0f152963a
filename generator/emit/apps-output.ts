/**
 * `generate --extension apps`: the MCP Apps protocol into `<out>/apps/` (model/apps.ts,
 * emit/apps-render.ts). It needs the shared runtime (it imports `../runtime/`) and its base
 * revision in the same run (its proxied messages import `../<base>/types.js`).
 */
import { StubgenError } from "../errors.js";
import { extensionInfo, readExtension, type CacheOptions, type Manifest } from "../load/schema-source.js";
import { readSchemaDocument, sha256Hex } from "../load/schema-document.js";
import { applyTypeRules, appsCatalog, hoistNestedDefs } from "../model/apps.js";
import type { MethodRecord } from "../model/model.js";
import { renderApps } from "./apps-render.js";
import { RUNTIME_DIR, type RuntimeLayout } from "./output-options.js";
import type { FileSet } from "./render.js";


/** Renders `<out>/apps/` from the cached apps schema and the base revision's methods. */
export async function renderAppsOutput(id: string, base: string, baseMethods: readonly MethodRecord[] | undefined, layout: RuntimeLayout, options: CacheOptions & { readonly manifest: Manifest }): Promise<FileSet> {
  if (layout !== "shared") throw new StubgenError(`--extension ${id} needs the shared runtime layout (it imports <out>/${RUNTIME_DIR}/); drop --runtime inline`);
  if (baseMethods === undefined) throw new StubgenError(`--extension ${id} types its proxied MCP messages from revision ${base}: generate ${base} in the same run (-r ${base})`);
  const info = extensionInfo(options.manifest, id);
  const { text, path } = readExtension(id, options);
  const hoisted = hoistNestedDefs(JSON.parse(text));
  const typed = { ...hoisted, $defs: applyTypeRules(hoisted["$defs"] as Record<string, unknown>) };
  const doc = readSchemaDocument(JSON.stringify(typed, null, 2), path);
  const defs = Object.fromEntries(doc.defs);
  return renderApps({
    doc,
    sha256: sha256Hex(text),
    extensionId: info.identifier,
    extensionVersion: info.version,
    baseRevision: base,
    methods: appsCatalog(defs, baseMethods),
    runtimeDir: `../${RUNTIME_DIR}/`,
  });
}
