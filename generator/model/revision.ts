/**
 * The model stage's entry points. `modelRevision` loads one revision (with the selected
 * extensions merged in) and builds its method catalog; `finishModel` adds everything else the
 * emitters need from the schema (the runtime's rules, the lifecycle handler, the HTTP binding,
 * subscriptions/listen, the multi round-trip inputs). Every check of the schema against the
 * generator's tables runs here, so emit renders a finished model and reads no schema node,
 * the type emitter's definitions aside.
 */
import { StubgenError } from "../errors.js";
import type { DefinitionTable, SchemaDocument } from "../load/schema-document.js";
import { extensionInfo, loadExtension, loadSchema, readManifest, type Manifest } from "../load/schema-source.js";
import { EXTENSION_POLICIES, type ExtensionPolicy } from "./extensions.js";
import { httpBinding, type HttpBinding } from "./http-binding.js";
import { inputRequestsModel, type InputRequestsModel } from "./input-requests.js";
import { lifecycleModel, type LifecycleModel } from "./lifecycle.js";
import { loggingModel, type LoggingModel } from "./logging.js";
import { mergeExtension } from "./merge-extension.js";
import { resultDefaultsModel, type ResultDefaultsRecord } from "./result-defaults.js";
import { buildModel, unionMethods, type ModelExtension, type SchemaModel } from "./model.js";
import { checkPolicy, KNOWN_REVISIONS, resolvePolicy, schemaBatches, schemaEra, sessionVersions, type RevisionPolicy } from "./policy.js";
import { revisionRules, type RevisionRules } from "./rules.js";
import { subscriptionTable, type SubscriptionTable } from "./subscriptions.js";
import { specConstants, type SpecConstant } from "./spec-constants.js";
import { registryFacts, type RegistryFacts } from "./registry-facts.js";
import { validationModel, type ValidationModel } from "./validation.js";

/** Where a revision's schema and its extensions come from, and what the catalog takes from the caller. */
export interface ModelRevisionOptions {
  /** A schema path or URL that bypasses the cache (the revision is then its label). */
  readonly schema?: string | undefined;
  /** Schema cache folder (default: `.mcp-stubgen/schema` in the working folder). */
  readonly cacheDir?: string | undefined;
  readonly manifest?: Manifest | undefined;
  /**
   * The lockfile whose pins the cache is checked against before the manifest's: a path, or false
   * for none. Default: `mcp-stubgen.lock.json` in the working folder, when it exists.
   */
  readonly lockfile?: string | false | undefined;
  readonly fetchImpl?: typeof fetch | undefined;
  /**
   * Known extensions (schema/revisions.json `extensions[].id`, e.g. `tasks`) merged into the
   * revision when they extend it: their messages join the catalog, their types are emitted once,
   * their table's rules apply (generator/model/extensions.ts).
   */
  readonly extensions?: readonly string[] | undefined;
  /** The per-extension tables (default: EXTENSION_POLICIES); an extension of one's own brings its table here. */
  readonly extensionPolicies?: Readonly<Record<string, ExtensionPolicy>> | undefined;
  /** method → result type name, for what the derivation rules get wrong. */
  readonly resultOverrides?: Readonly<Record<string, string>> | undefined;
  /**
   * Revision label → the known revision whose prose rules it follows (policy.ts resolvePolicy),
   * for a label the default choice gets wrong; the config's `rulesOf`.
   */
  readonly rulesOf?: Readonly<Record<string, string>> | undefined;
}

/** A loaded revision: its (merged) document, its method catalog and its policy. What `diff` compares. */
export interface LoadedRevision {
  readonly doc: SchemaDocument;
  readonly model: SchemaModel;
  readonly policy: RevisionPolicy;
  /**
   * The known revision whose line of the policy table `policy` is (policy.ts resolvePolicy), and
   * whether that is another revision than this one (an unknown label: `generate` says so).
   * Absent: the label's own line.
   */
  readonly basis?: { readonly revision: string; readonly inherited: boolean } | undefined;
}

/** The era facts of a finished revision: what the runtime's transports read from the catalog (ERA). */
export interface EraModel {
  readonly era: RevisionPolicy["era"];
  /** The known revision whose prose rules apply (this revision's own, or the one it inherits). */
  readonly basis: string;
  readonly inherited: boolean;
  /** The schema admits JSON-RPC batches. */
  readonly batches: boolean;
  /** The HTTP transport: the stateless binding, Streamable HTTP with sessions, HTTP+SSE, or none. */
  readonly httpTransport: "stateless" | "session" | "sse" | null;
  /** The session-era protocol versions the server may negotiate, with their transport rules (policy.ts sessionVersions). */
  readonly sessionVersions: ReturnType<typeof sessionVersions>;
}

/**
 * A revision as the emitters take it: the method catalog and, computed from the schema and
 * checked against the generator's tables, everything else the generated files say.
 */
export interface RevisionModel extends SchemaModel {
  readonly policy: RevisionPolicy;
  /** The era facts (ERA of catalog.ts): schema facts and the table's, resolved for this revision. */
  readonly era: EraModel;
  /** The RULES constant of catalog.ts. */
  readonly rules: RevisionRules;
  /** The server's default initialize / server/discover handler; null: none. */
  readonly lifecycle: LifecycleModel | null;
  /** The stateless Streamable HTTP binding (`SERVER.http` of server.ts); null: the revision has none. */
  readonly http: HttpBinding | null;
  /** How a client asks for log messages (SERVER.logging of server.ts); null: the server sends none. */
  readonly logging: LoggingModel | null;
  /** subscriptions/listen (SUBSCRIPTIONS of server.ts); null: the revision has none. */
  readonly subscriptions: SubscriptionTable | null;
  /** Multi round-trip requests (INPUT_REQUIRED of catalog.ts); null: no InputRequest union. */
  readonly inputRequests: InputRequestsModel | null;
  /** The client requests whose handler results the server completes (result-defaults.ts); empty: none. */
  readonly resultDefaults: readonly ResultDefaultsRecord[];
  /** What the registrations read of the schema (registry-facts.ts). */
  readonly registry: RegistryFacts;
  /** The wire validators (validators.ts), compiled from the schema (validation.ts). */
  readonly validation: ValidationModel;
  /**
   * The schema's named definitions, for the type emitter (emit/emit-types.ts) alone: it is the
   * one emitter that reads schema nodes. The document itself (its root, file, bytes) stays here.
   */
  readonly typeSource: DefinitionTable;
  /** The value constants of the spec's schema.ts (LATEST_PROTOCOL_VERSION, error codes…), for types.ts. */
  readonly constants: readonly SpecConstant[];
}

/** Refuses an extension that extends none of the selected revisions (it would be dropped silently). Pure. */
export function checkExtensions(extensions: readonly string[], revisions: readonly string[], manifest: Manifest): void {
  for (const id of new Set(extensions)) {
    const info = extensionInfo(manifest, id);
    if (!revisions.some((revision) => info.revisions.includes(revision))) {
      throw new StubgenError(
        `extension ${id} (${info.identifier}) extends the revisions ${info.revisions.join(", ")}; none of them is selected (${revisions.join(", ")})`,
      );
    }
  }
}

/** Loads and models one revision, with the selected extensions merged in: its method catalog. */
export async function modelRevision(revision: string, options: ModelRevisionOptions): Promise<LoadedRevision> {
  let doc = await loadSchema(revision, {
    cacheDir: options.cacheDir,
    manifest: options.manifest,
    lockfile: options.lockfile,
    schema: options.schema,
    fetchImpl: options.fetchImpl,
  });
  const manifest = options.manifest ?? readManifest();
  const extensions: ModelExtension[] = [];
  for (const id of new Set(options.extensions ?? [])) {
    // An extension joins the revisions it extends (checkExtensions refused one that extends none).
    if (!extensionInfo(manifest, id).revisions.includes(revision)) continue;
    // A protocol of its own (apps) is generated beside the revisions, not merged (generate.ts).
    if (extensionInfo(manifest, id).output !== undefined) continue;
    const ext = loadExtension(id, { cacheDir: options.cacheDir, manifest, lockfile: options.lockfile });
    const table = (options.extensionPolicies ?? EXTENSION_POLICIES)[id];
    const merged = mergeExtension(doc, id, ext, table);
    doc = merged.doc;
    extensions.push({ ...merged.doc.extensions!.at(-1)!, methods: merged.methods.map((m) => m.method).sort(), policy: table! });
  }
  const era = schemaEra(unionMethods(doc, "ClientRequest"));
  const resolved = resolvePolicy(revision, era, options.rulesOf?.[revision]);
  const policy = resolved.policy;
  const model: SchemaModel = buildModel(doc, {
    revision,
    policy,
    resultOverrides: options.resultOverrides ?? {},
    extensions,
  });
  return { doc, model, policy, basis: { revision: resolved.basis, inherited: resolved.inherited } };
}

/**
 * The finished model of a loaded revision. Each step checks the schema against its table and
 * throws a StubgenError naming the schema file where they disagree; they run in this order
 * (the order the first error is found in). Pure.
 */
export function finishModel({ doc, model, policy, basis }: LoadedRevision): RevisionModel {
  const resolved = { policy, basis: basis?.revision ?? model.revision, inherited: basis?.inherited ?? false };
  const batches = schemaBatches(doc);
  checkPolicy(doc, model.revision, resolved, batches);
  const subscriptions = subscriptionTable(doc, model);
  const rules = revisionRules(doc, model, policy);
  // MRTR is the core's pattern: an extension's request that carries inputResponses (Tasks'
  // tasks/update answers a task's input_required status) is not an MRTR retry.
  const clientRequests = model.methods.filter((m) => m.kind === "request" && m.from.includes("client") && m.extension === undefined);
  const inputRequests = inputRequestsModel(doc, clientRequests);
  const http = httpBinding(doc, model, policy);
  return {
    ...model,
    policy,
    era: {
      era: policy.era,
      basis: resolved.basis,
      inherited: resolved.inherited,
      batches,
      httpTransport: http !== null ? "stateless" : policy.sessionHttp === "streamable" ? "session" : policy.sessionHttp === "sse" ? "sse" : null,
      sessionVersions: http !== null ? [] : sessionVersions(model.revision, resolved, batches),
    },
    rules,
    lifecycle: lifecycleModel(doc, model),
    http,
    logging: loggingModel(doc, model, policy),
    subscriptions,
    inputRequests,
    resultDefaults: resultDefaultsModel(doc, model, inputRequests?.methods),
    registry: registryFacts(doc),
    validation: validationModel(doc, model, inputRequests, policy.taskResultType),
    constants: specConstants(doc, model.revision, KNOWN_REVISIONS),
    typeSource: { defsKey: doc.defsKey, defs: doc.defs, ...(doc.extensions !== undefined ? { extensions: doc.extensions } : {}) },
  };
}
