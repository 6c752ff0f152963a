import { StubgenError } from "../errors.js";

/**
 * Add-ons: runtime modules that import an npm package (a Redis client, a WebSocket server, OAuth
 * and JOSE primitives, a JSON Schema validator). The default output imports nothing outside Node;
 * an add-on is copied into it only when asked for (`--addon NAME`, config `addons`), to
 * `<runtime>/addons/<name>/`, from `templates/runtime/addons/<name>/`. An add-on may import any
 * runtime module (`../../core/protocol.js`); no runtime module imports an add-on
 * (test/runtime/import-graph.test.ts).
 */
export interface AddonSpec {
  /** Its modules, relative to `templates/runtime/addons/` without `.ts` (e.g. `redis/task-store`). */
  readonly files: readonly string[];
  /** The npm packages its modules import, with the version range it was tested with. */
  readonly packages: Readonly<Record<string, string>>;
  /** One line for `--help` and the output README: what it gives. */
  readonly describe: string;
}

export type AddonTable = Readonly<Record<string, AddonSpec>>;

/** The folder of the runtime add-ons are copied to (and read from, under templates/runtime/). */
export const ADDON_DIR = "addons";

/** Every add-on the generator can copy into an output, by name. */
export const ADDONS: AddonTable = {
  ajv: {
    files: ["ajv/validator"],
    packages: { ajv: "^8.17.0" },
    describe: "createAjvValidator(): registrations and tools' structured results validated by ajv (JSON Schema 2020-12), patterns matched in linear time",
  },
  "mcpx-ws": {
    files: ["mcpx-ws/token", "mcpx-ws/gateway", "mcpx-ws/link"],
    packages: { jose: "^6.2.18", ws: "^8.23.0" },
    describe: "MCPx over WebSocket: the v0.1 gateway (attachMcpxGateway, JWT tokens) and a participant's link (connectMcpxLink)",
  },
  oauth: {
    files: ["oauth/provider", "oauth/discovery", "oauth/auth", "oauth/memory-provider", "oauth/grants", "oauth/private-key-jwt", "oauth/id-jag", "oauth/dpop-client", "oauth/dpop-server"],
    packages: { jose: "^6.2.18", oauth4webapi: "^3.8.8" },
    describe: "the OAuth flow for the HTTP client transports' oauthFlow: discovery (RFC 9728, RFC 8414/OIDC), PKCE, dynamic, pre-registered or URL-based client ids, scopes and step-up, token endpoint auth (private_key_jwt included), iss checks; grants without a user (client credentials, JWT bearer, enterprise-managed ID-JAG); DPoP proofs (client) and their check for bearerAuth (createDpopVerifier); MemoryOAuthClientProvider",
  },
  redis: {
    files: ["redis/connection", "redis/task-store", "redis/bus", "redis/event-store", "redis/session-registry", "redis/replay-guard", "redis/gateway-bus"],
    packages: { redis: "^6.3.1" },
    describe: "state shared by many instances on one Redis (node-redis): tasks, listen fan-out, event store, sessions, single-use requestState, MCPx gateways sharing topics",
  },
};

/** The add-ons a run asked for, checked against the table: unique and sorted (a stable output and stamp). Pure. */
export function checkAddons(names: readonly string[], table: AddonTable = ADDONS): string[] {
  const known = Object.keys(table).sort();
  for (const name of names) {
    if (!Object.hasOwn(table, name)) {
      const choices = known.length === 0 ? "this generator has none" : `known: ${known.join(", ")}`;
      throw new StubgenError(`unknown add-on ${JSON.stringify(name)} (${choices})`);
    }
  }
  return [...new Set(names)].sort();
}

/** The runtime source names (`addons/<file>`) of the given add-ons, in table order of their files. Pure. */
export function addonSourceNames(names: readonly string[], table: AddonTable = ADDONS): string[] {
  return names.flatMap((name) => (table[name]?.files ?? []).map((file) => `${ADDON_DIR}/${file}`));
}

/** The npm packages the given add-ons import (package → range), for the user to install. Pure. */
export function addonPackages(names: readonly string[], table: AddonTable = ADDONS): Record<string, string> {
  const packages: Record<string, string> = {};
  for (const name of names) Object.assign(packages, table[name]?.packages ?? {});
  return Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
