/** Programmatic API of mcp-stubgen (for build scripts). */
export { generate, catalog, type GenerateOptions, type GenerateResult } from "./generate.js";
export { listSchemas, listExtensions, loadExtension, loadSchema, readManifest, type Manifest, type RevisionInfo, type ExtensionInfo, type CacheOptions, type LoadOptions } from "./load/schema-source.js";
export { pullSchemas, type PullOptions, type PullResult, type PinChange } from "./load/schema-pull.js";
export { readLockfile, parseLockfile, formatLockfile, LOCKFILE_NAME, type Lockfile, type Pin } from "./load/lockfile.js";
export { extensionMessages, type ExtensionMessage } from "./load/extension-messages.js";
export { readSchemaDocument, type SchemaDocument } from "./load/schema-document.js";
export { buildModel, type SchemaModel, type MethodRecord } from "./model/model.js";
export { formatResult } from "./model/vocabulary.js";
export { catalogJson, type CatalogJson, type CatalogEntry } from "./model/catalog-data.js";
export { policyFor, DEFAULT_POLICY, REVISION_POLICIES, type RevisionPolicy } from "./model/policy.js";
export { diff, type DiffOptions } from "./diff/load.js";
export { diffRevisions, hasBreakingChanges } from "./diff/diff.js";
export { formatDiffMarkdown, formatDiffJson, formatDiffSummary } from "./diff/format.js";
export type {
  RevisionDiff,
  RevisionInput,
  DiffSummary,
  Direction,
  MethodPresence,
  MethodChange,
  DefinitionPresence,
  DefinitionChange,
  PolicyChange,
  CancellableChange,
  JsonValue,
} from "./diff/types.js";
export { StubgenError } from "./errors.js";
