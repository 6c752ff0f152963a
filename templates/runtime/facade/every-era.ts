// One server for every generated revision (issue 42): tools, prompts, resources and handlers are
// registered once, on an EveryEraServer, and served to a client of any revision the output has:
// - over stdio and in memory (connect), by the revision the conversation's first message picks
//   (every-era-revisions.ts revisionFor: initialize's protocolVersion, or a 2026-07-28 request's
//   `_meta` protocol version or server/discover);
// - over HTTP behind one URL (createHttpHandler): the era router (http/server/era-router.ts) in
//   front of the stateless handler of the newest stateless revision, a session handler per
//   session revision with Streamable HTTP, and HTTP+SSE (2024-11-05).
// Behind it, one generated McpServer per revision, made when a conversation first needs it; every
// registration is made on each (now, or when it is made), so each revision keeps its own rules.
//
// A registration that needs what a revision lacks (EraFeature: `requires`, or an outputSchema on a
// revision without structuredContent) is made on the revisions that have it only, and the others
// are named once, when it is registered (the `logger`); with none that has it, registering throws.

import type { AnyRequestHandler } from "../core/endpoint.js";
import { defaultLogger, describeValue, type JsonRpcMessage, type Logger, type Transport } from "../core/protocol.js";
import type { Connection } from "../core/endpoint.js";
import type { Registered } from "../features/registration-types.js";
import { ERA_FEATURES, hasFeature, lacking, preferred, readRevisions, revisionFor, serveByFirstMessage, type EraFeature, type EraModule, type EraRevision } from "./every-era-revisions.js";
import { createEveryEraRouter, type EveryEraHttpHandler, type EveryEraHttpOptions, type EveryEraServable } from "./every-era-http.js";

/** What a registration may add to its config: the features it needs (EraFeature). Not listed to clients. */
export interface EraRequirement {
  readonly requires?: readonly EraFeature[] | undefined;
}

/** Options of an EveryEraServer; each revision's McpServer gets them (the shared ones) and its own (`revisions`). */
export interface EveryEraServerOptions {
  /** Who this server is (initialize's serverInfo, server/discover's `_meta`). */
  readonly serverInfo?: { readonly name: string; readonly version: string; readonly [field: string]: unknown } | undefined;
  readonly instructions?: string | undefined;
  /** Handlers by method, given to each revision whose catalog has the method (a registration's handler loses to it). */
  readonly handlers?: Readonly<Record<string, AnyRequestHandler>> | undefined;
  readonly notificationHandlers?: Readonly<Record<string, (params: never, ...rest: never[]) => unknown>> | undefined;
  /**
   * Options of one revision's McpServer only (`subscriptions`, `tasks`, `resultDefaults`,
   * `capabilities`, its own `handlers`, …): by revision, or a function of the revision and its era
   * (called once, when that revision's server is made).
   */
  readonly revisions?: { readonly [revision: string]: object } | ((revision: string, era: { readonly stateless: boolean }) => object | undefined) | undefined;
  /** The registrations a revision cannot have are named here, one line each (default: stderr; null: silent). */
  readonly logger?: Logger | null | undefined;
  readonly onError?: ((error: Error) => void) | undefined;
}

/** The methods of a generated McpServer an EveryEraServer calls (every revision's has them; registerResourceTemplate where it has templates). */
interface EraServer extends EveryEraServable {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
  readonly [register: `register${string}`]: ((...args: unknown[]) => Registered<object>) | undefined;
  resourceUpdated?(uri: string): void;
}

/** A registration as made once: replayed on each revision's server when it is made. */
interface Registration {
  readonly kind: `register${string}`;
  readonly args: readonly unknown[];
  readonly revisions: ReadonlySet<string>;
  readonly updates: object[];
  enabled: boolean;
  removed: boolean;
  readonly made: Registered<object>[];
}

/** The feature a registration needs by its config alone, whatever it `requires`. */
const IMPLIED: ReadonlyArray<{ readonly kind: string; readonly field: string; readonly feature: EraFeature }> = [
  { kind: "registerTool", field: "outputSchema", feature: "structuredContent" },
];

/** The features a registration needs: those it `requires` (checked) and those its config implies. */
function neededFeatures(kind: string, config: unknown): EraFeature[] {
  const given = (config as EraRequirement | undefined)?.requires;
  if (given !== undefined && (!Array.isArray(given) || given.some((f) => !ERA_FEATURES.includes(f)))) {
    throw new RangeError(`requires must be an array of ${ERA_FEATURES.map((f) => JSON.stringify(f)).join(", ")}, got ${describeValue(given)}`);
  }
  const implied = IMPLIED.filter((rule) => rule.kind === kind && (config as Record<string, unknown>)[rule.field] !== undefined).map((rule) => rule.feature);
  return [...new Set([...(given ?? []), ...implied])];
}

/** `config` without `requires` (a registration's own field, never listed). */
function withoutRequires(config: unknown): unknown {
  if (config === null || typeof config !== "object" || !("requires" in config)) return config;
  const { requires: _requires, ...rest } = config as EraRequirement & Record<string, unknown>;
  return rest;
}

/**
 * Serves every revision of `revisions` (the generated modules, out/<revision>/index.ts) from one
 * set of registrations. The generated cross-revision entry (out/every-era/index.ts) makes one
 * with its revisions and types its registration methods.
 */
export class EveryEraServer {
  readonly #revisions: readonly EraRevision[];
  readonly #options: EveryEraServerOptions;
  readonly #servers = new Map<string, EraServer>();
  readonly #registrations: Registration[] = [];
  readonly #log: Logger | null;

  constructor(revisions: readonly EraModule[], options: EveryEraServerOptions = {}) {
    this.#revisions = readRevisions(revisions);
    this.#options = options;
    this.#log = options.logger === undefined ? defaultLogger : options.logger;
    const given = options.revisions;
    if (given !== undefined && typeof given !== "function" && (given === null || typeof given !== "object")) throw new TypeError(`revisions must be an object or a function, got ${describeValue(given)}`);
    for (const revision of typeof given === "function" ? [] : Object.keys(given ?? {})) {
      if (!this.#revisions.some((r) => r.revision === revision)) throw new RangeError(`revisions: ${JSON.stringify(revision)} is not a served revision (${this.served.join(", ")})`);
    }
  }

  /** The revisions served, newest first. */
  get served(): readonly string[] {
    return this.#revisions.map((r) => r.revision);
  }

  /** The McpServer of `revision`, made (with every registration) the first time it is asked for. */
  serverOf(revision: string): object {
    return this.#server(this.#revision(revision));
  }

  #revision(label: string): EraRevision {
    const found = this.#revisions.find((r) => r.revision === label);
    if (found === undefined) throw new RangeError(`${JSON.stringify(label)} is not a served revision (${this.served.join(", ")})`);
    return found;
  }

  #server(revision: EraRevision): EraServer {
    const made = this.#servers.get(revision.revision);
    if (made !== undefined) return made;
    const { handlers, notificationHandlers } = this.#options;
    const methods = new Set(((revision.module as { METHODS?: ReadonlyArray<{ method: string }> }).METHODS ?? []).map((m) => m.method));
    const given = this.#options.revisions;
    const revisionOwn = (typeof given === "function" ? given(revision.revision, { stateless: revision.stateless }) : given?.[revision.revision]) ?? {};
    const own = (table: object | undefined) => (table === undefined ? undefined : Object.fromEntries(Object.entries(table).filter(([method]) => methods.has(method))));
    const options = {
      ...(this.#options.serverInfo === undefined ? {} : { serverInfo: this.#options.serverInfo }),
      ...(this.#options.instructions === undefined ? {} : { instructions: this.#options.instructions }),
      onError: this.#options.onError,
      protocolVersions: this.protocolVersions(revision.revision),
      ...revisionOwn,
      // The revision's own handlers win over the shared ones.
      handlers: { ...own(handlers), ...(revisionOwn as { handlers?: object }).handlers },
      notificationHandlers: { ...own(notificationHandlers), ...(revisionOwn as { notificationHandlers?: object }).notificationHandlers },
    };
    const server = new revision.module.McpServer(options as never) as EraServer;
    this.#servers.set(revision.revision, server);
    for (const registration of this.#registrations) if (registration.revisions.has(revision.revision)) this.#make(registration, server);
    return server;
  }

  /**
   * The protocol versions the server of `revision` negotiates, newest first: its own, and
   * - a session revision: the older session versions its catalog's ERA says its sessions may
   *   negotiate that no served revision of their own answers (2025-11-25 answers a 2025-06-18
   *   initialize when 2025-06-18 is not generated);
   * - the preferred stateless revision: the other stateless revisions' too, since the router has
   *   one stateless route (a `draft` client reaches 2026-07-28's server over HTTP; over stdio and
   *   in memory each has its own).
   */
  protocolVersions(label: string): readonly string[] {
    const revision = this.#revision(label);
    const own = new Set(this.served);
    if (revision.stateless) {
      if (preferred(this.#revisions, true) !== revision) return [revision.revision];
      return [revision.revision, ...this.#revisions.filter((r) => r.stateless && r !== revision).map((r) => r.revision)];
    }
    const older = revision.sessionVersions.filter((version) => version < revision.revision && !own.has(version)).sort().reverse();
    return [revision.revision, ...older];
  }

  /** Makes `registration` on `server`, brought up to date (its updates, disabled, removed). */
  #make(registration: Registration, server: EraServer): void {
    if (registration.removed) return;
    const register = server[registration.kind] as (...args: unknown[]) => Registered<object>;
    const made = register.apply(server, [...registration.args]);
    for (const update of registration.updates) made.update(update);
    if (!registration.enabled) made.disable();
    registration.made.push(made);
  }

  /**
   * One registration for every revision that can have it: made at once on each revision's server
   * made already, later on the others. Revisions that cannot have it are named (logger); none:
   * throws. `args` are those of the McpServer method `kind`: the name first, the config at `configAt`.
   */
  protected register(kind: `register${string}`, args: readonly [name: string, ...rest: unknown[]], configAt: number): Registered<object> {
    const name = args[0];
    const config = args[configAt];
    const needs = neededFeatures(kind, config);
    const refusals: string[] = [];
    const revisions = new Set<string>();
    for (const revision of this.#revisions) {
      const missing = needs.find((feature) => !hasFeature(revision.module, feature));
      if (missing === undefined) revisions.add(revision.revision);
      else refusals.push(`${revision.revision} (${lacking(missing)})`);
    }
    const what = `${kind}(${JSON.stringify(name)})`;
    if (revisions.size === 0) throw new RangeError(`${what}: no served revision can have it: ${refusals.join("; ")}`);
    if (refusals.length > 0) this.#log?.(`mcp: ${what} is not served on ${refusals.join("; ")}`);
    const registration: Registration = { kind, args: args.map((arg, i) => (i === configAt ? withoutRequires(arg) : arg)), revisions, updates: [], enabled: true, removed: false, made: [] };
    this.#registrations.push(registration);
    for (const revision of revisions) {
      const server = this.#servers.get(revision);
      if (server !== undefined) this.#make(registration, server);
    }
    return fannedOut(name, registration);
  }

  /** A registered resource's content changed: each revision's server tells its subscribers. */
  resourceUpdated(uri: string): void {
    for (const server of this.#servers.values()) server.resourceUpdated?.(uri);
  }

  /** Serves one conversation over `transport` (stdio, in memory), by the revision its first message picks. */
  connect(transport: Transport): Promise<void> {
    return serveByFirstMessage(transport, (first: JsonRpcMessage) => {
      const server = this.#server(revisionFor(this.#revisions, first));
      return (view: Transport) => void server.openConnection(view);
    });
  }

  /** Opens one conversation on the revision `revision` (for a transport whose revision is known). */
  openConnection(revision: string, transport: Transport): Connection {
    return this.#server(this.#revision(revision)).openConnection(transport);
  }

  /**
   * Every era behind one URL: the era router over the stateless handler (the preferred stateless
   * revision), one session handler per session revision with Streamable HTTP, and HTTP+SSE (the
   * revision without Streamable HTTP, 2024-11-05), each made with the shared options.
   */
  createHttpHandler(options: EveryEraHttpOptions = {}): EveryEraHttpHandler {
    return createEveryEraRouter(this.#revisions, (revision) => this.#server(revision), options);
  }

  /** Closes every revision's server (their connections end, handlers abort). */
  async close(): Promise<void> {
    await Promise.all([...this.#servers.values()].map((server) => server.close()));
  }
}

/** The one Registered handle of a registration: what it does reaches every revision's. */
function fannedOut(name: string, registration: Registration): Registered<object> {
  return {
    name,
    get enabled() {
      return registration.enabled && !registration.removed;
    },
    update(config) {
      registration.updates.push(config);
      for (const made of registration.made) made.update(config);
    },
    enable() {
      registration.enabled = true;
      for (const made of registration.made) made.enable();
    },
    disable() {
      registration.enabled = false;
      for (const made of registration.made) made.disable();
    },
    remove() {
      registration.removed = true;
      for (const made of registration.made.splice(0)) made.remove();
    },
  };
}
