/**
 * templates/runtime/facade/server.ts on its own, driven by hand-written descriptors (what a
 * generated server.ts renders as SERVER): the capabilities derived from handlers, the default
 * initialize and server/discover handlers, the Tasks extension and subscriptions wiring, the
 * result `_meta` identity and the HTTP binding. The wire-level checks of the same behaviour
 * through generated servers are in test/runtime/core/endpoint/lifecycle-defaults.test.ts and test/runtime/features/subscriptions.
 */
import { describe, expect, it } from "vitest";
import type { AnyRequestHandler, HandlerContext } from "../../../templates/runtime/core/endpoint.js";
import type { JsonObject } from "../../../templates/runtime/core/protocol.js";
import {
  advertisedCapabilities,
  declaredCapabilities,
  defaultHandlers,
  DEFAULT_SERVER_INFO,
  deriveCapabilities,
  serverEndpointOptions,
  serverHttpBinding,
  type CapabilityDeclaringHub,
  type CapabilityRule,
  type ServerDescriptor,
} from "../../../templates/runtime/facade/server.js";
import type { HttpBinding } from "../../../templates/runtime/http/stateless/binding.js";
import { createInputRequired } from "../../../templates/runtime/features/mrtr-server.js";
import { TaskManager } from "../../../templates/runtime/features/task-manager.js";
import { TASKS_EXTENSION } from "../../../templates/runtime/features/task-protocol.js";

const RULES: readonly CapabilityRule[] = [
  { capability: "tools", methods: ["tools/list", "tools/call"], when: [] },
  { capability: "resources", methods: ["resources/read", "resources/subscribe"], when: [{ method: "resources/subscribe", set: { subscribe: true } }] },
  { capability: "tasks", methods: ["tasks/list", "tasks/cancel"], when: [{ method: "tasks/list", set: { list: {} } }, { method: "tasks/cancel", set: { cancel: {} } }] },
];

const INITIALIZE: ServerDescriptor = {
  revision: "2025-11-25",
  lifecycle: { kind: "initialize", method: "initialize", serverInfoKey: null },
  capabilities: RULES,
  serverInfoMetaKey: null,
  http: null,
  sessions: { "2025-11-25": { versionHeader: true, priming: true, batches: false } },
  batches: false,
  subscriptions: null,
  tasks: null,
  validators: { requests: {}, notifications: {}, results: {}, inputs: {} },
  inputRequired: null,
  resultDefaults: null,
  logging: null,
};

const DISCOVER: ServerDescriptor<Omit<HttpBinding, "revision" | "supportedVersions">> = {
  revision: "2026-07-28",
  lifecycle: { kind: "discover", method: "server/discover", serverInfoKey: "io.modelcontextprotocol/serverInfo" },
  capabilities: RULES,
  serverInfoMetaKey: "io.modelcontextprotocol/serverInfo",
  http: {
    meta: { protocolVersion: "pv", clientCapabilities: "cc", clientInfo: "ci", required: ["cc", "pv"] },
    nameSources: { "tools/call": "name" },
    toolHeaders: null,
    errors: { headerMismatch: -32020, unsupportedProtocolVersion: -32022, missingRequiredClientCapability: -32021 },
  },
  sessions: null,
  batches: false,
  subscriptions: { listen: "subscriptions/listen" },
  tasks: { extension: TASKS_EXTENSION, cancelRequest: "tasks/cancel", missingCapabilityCode: -32021 },
  inputRequired: null,
  resultDefaults: { complete: ["server/discover", "tools/call", "tools/list"], cacheable: ["server/discover", "tools/list"] },
  logging: null,
  validators: { requests: {}, notifications: {}, results: {}, inputs: {} },
};

const handler = (): object => ({});
const ctx = {} as HandlerContext;

/** The handler registered for `method` in endpoint options, called with `params`. */
function answer(options: { readonly handlers?: Readonly<Record<string, AnyRequestHandler | undefined>> | undefined }, method: string, params?: JsonObject): unknown {
  const registered = options.handlers?.[method];
  if (registered === undefined) throw new Error(`no handler of ${method}`);
  return registered(params, ctx);
}

/** A stand-in subscriptions hub: declares listChanged on tools, records what its handler was given. */
function fakeHub(): CapabilityDeclaringHub & { given: unknown[] } {
  const given: unknown[] = [];
  return {
    given,
    declare: (capabilities) => ({ ...capabilities, ...(capabilities["tools"] === undefined ? {} : { tools: { listChanged: true } }) }),
    listenHandler: (capabilities) => {
      given.push(capabilities);
      return () => ({ listening: true });
    },
  };
}

describe("deriveCapabilities", () => {
  it("declares a capability for a handler of any of its methods, with the sub-capabilities of the handlers `when` names", () => {
    expect(deriveCapabilities(RULES, undefined)).toEqual({});
    expect(deriveCapabilities(RULES, { "tools/call": handler })).toEqual({ tools: {} });
    expect(deriveCapabilities(RULES, { "resources/subscribe": handler, "tasks/list": handler, "tasks/cancel": handler })).toEqual({
      resources: { subscribe: true },
      tasks: { list: {}, cancel: {} },
    });
  });

  it("counts only own properties that are functions", () => {
    const inherited = Object.create({ "tools/list": handler }) as object;
    expect(deriveCapabilities(RULES, inherited)).toEqual({});
    expect(deriveCapabilities(RULES, { "tools/list": "not a function", toString: handler })).toEqual({});
  });

  it("returns a new object each time, so the rules' `set` objects are never shared with a result", () => {
    const first = deriveCapabilities(RULES, { "resources/subscribe": handler });
    (first["resources"] as JsonObject)["subscribe"] = false;
    expect(deriveCapabilities(RULES, { "resources/subscribe": handler })).toEqual({ resources: { subscribe: true } });
    expect(RULES[1]!.when[0]!.set).toEqual({ subscribe: true });
  });
});

describe("declared and advertised capabilities", () => {
  it("given capabilities replace the derived ones", () => {
    expect(declaredCapabilities(INITIALIZE, { capabilities: { logging: {} }, handlers: { "tools/call": handler } })).toEqual({ logging: {} });
  });

  it("a subscriptions hub declares what it delivers, only where the revision serves subscriptions/listen", () => {
    const options = { handlers: { "tools/call": handler }, subscriptions: fakeHub() };
    expect(declaredCapabilities(DISCOVER, options)).toEqual({ tools: { listChanged: true } });
    expect(declaredCapabilities({ ...DISCOVER, subscriptions: null }, options)).toEqual({ tools: {} });
  });

  it("a task manager adds the Tasks extension to `extensions`, keeping the others, where the extension is merged", () => {
    const tasks = new TaskManager();
    expect(advertisedCapabilities(DISCOVER, { tasks, capabilities: { extensions: { "x.example/other": { a: 1 } } } })).toEqual({
      extensions: { "x.example/other": { a: 1 }, [TASKS_EXTENSION]: {} },
    });
    expect(advertisedCapabilities(DISCOVER, { tasks })).toEqual({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(advertisedCapabilities({ ...DISCOVER, tasks: null }, { tasks })).toEqual({});
    expect(advertisedCapabilities(DISCOVER, {})).toEqual({});
  });

  it("the extension's key is the descriptor's, not the runtime's", () => {
    const tasks = new TaskManager();
    const renamed: ServerDescriptor = { ...DISCOVER, tasks: { extension: "x.example/tasks", cancelRequest: "tasks/cancel", missingCapabilityCode: -32021 } };
    expect(advertisedCapabilities(renamed, { tasks })).toEqual({ extensions: { "x.example/tasks": {} } });
  });
});

describe("the default initialize handler", () => {
  it("answers the requested version when spoken, else the newest; capabilities, serverInfo and instructions from the options", () => {
    const options = serverEndpointOptions(INITIALIZE, { protocolVersions: ["2025-11-25", "2025-06-18"], handlers: { "tools/list": handler }, instructions: "Read first." });
    expect(answer(options, "initialize", { protocolVersion: "2025-06-18" })).toEqual({
      protocolVersion: "2025-06-18",
      capabilities: { tools: {} },
      serverInfo: DEFAULT_SERVER_INFO,
      instructions: "Read first.",
    });
    expect(answer(options, "initialize", { protocolVersion: "1999-01-01" })).toMatchObject({ protocolVersion: "2025-11-25" });
    expect(answer(options, "initialize", { protocolVersion: 7 })).toMatchObject({ protocolVersion: "2025-11-25" });
    expect(answer(options, "initialize", undefined)).toMatchObject({ protocolVersion: "2025-11-25" });
  });

  it("with no versions given speaks the revision; with an empty list, falls back to the revision too", () => {
    expect(answer(serverEndpointOptions(INITIALIZE, {}), "initialize", { protocolVersion: "2025-11-25" })).toEqual({
      protocolVersion: "2025-11-25",
      capabilities: {},
      serverInfo: { name: "mcp-server", version: "0.0.0" },
    });
    expect(answer(serverEndpointOptions(INITIALIZE, { protocolVersions: [] }), "initialize", { protocolVersion: "x" })).toMatchObject({ protocolVersion: "2025-11-25" });
  });

  it("a handler of the user's wins", () => {
    const mine = (): object => ({ mine: true });
    expect(answer(serverEndpointOptions(INITIALIZE, { handlers: { initialize: mine } }), "initialize", {})).toEqual({ mine: true });
  });
});

describe("the default server/discover handler", () => {
  it("answers one result: versions, advertised capabilities, public but stale at once, the server named in `_meta`", () => {
    const options = serverEndpointOptions(DISCOVER, {
      protocolVersions: ["2026-07-28"],
      serverInfo: { name: "files", version: "1.0.0" },
      handlers: { "tools/call": handler },
      tasks: new TaskManager(),
    });
    const result = answer(options, "server/discover");
    expect(result).toEqual({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } },
      cacheScope: "public",
      ttlMs: 0,
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "files", version: "1.0.0" } },
    });
    expect(answer(options, "server/discover")).toBe(result);
  });

  it("has no `_meta` where the revision names no identity key, and instructions when given", () => {
    const descriptor: ServerDescriptor = { ...DISCOVER, lifecycle: { kind: "discover", method: "server/discover", serverInfoKey: null } };
    expect(answer(serverEndpointOptions(descriptor, { instructions: "Hi." }), "server/discover")).toEqual({
      resultType: "complete",
      supportedVersions: ["2026-07-28"],
      capabilities: {},
      cacheScope: "public",
      ttlMs: 0,
      instructions: "Hi.",
    });
  });
});

describe("defaultHandlers", () => {
  it("registers subscriptions/listen from the hub, given the declared capabilities (no Tasks extension in them)", () => {
    const hub = fakeHub();
    const defaults = defaultHandlers(DISCOVER, { subscriptions: hub, handlers: { "tools/list": handler }, tasks: new TaskManager() });
    expect(Object.keys(defaults).sort()).toEqual(["server/discover", "subscriptions/listen", "tasks/cancel", "tasks/get", "tasks/update"]);
    expect(hub.given).toEqual([{ tools: { listChanged: true } }]);
  });

  it("has nothing without a lifecycle request and without the options that bring handlers", () => {
    expect(defaultHandlers({ ...INITIALIZE, lifecycle: null }, {})).toEqual({});
    expect(defaultHandlers({ ...DISCOVER, subscriptions: null, tasks: null }, { subscriptions: fakeHub(), tasks: new TaskManager() })).toHaveProperty("server/discover");
    expect(Object.keys(defaultHandlers({ ...DISCOVER, subscriptions: null, tasks: null }, { subscriptions: fakeHub(), tasks: new TaskManager() }))).toEqual(["server/discover"]);
  });
});

describe("serverEndpointOptions", () => {
  it("passes the user's endpoint options through and names the server in every result's `_meta`, unless told not to", () => {
    const logger = null;
    const options = serverEndpointOptions(DISCOVER, { logger, defaultTimeoutMs: 5, serverInfo: { name: "s", version: "1" } });
    expect(options.logger).toBeNull();
    expect(options.defaultTimeoutMs).toBe(5);
    expect(options.resultMeta).toEqual({ "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } });
    expect(serverEndpointOptions(DISCOVER, {}).resultMeta).toEqual({ "io.modelcontextprotocol/serverInfo": DEFAULT_SERVER_INFO });
    expect(serverEndpointOptions(DISCOVER, { serverInfoInResults: false }).resultMeta).toBeUndefined();
    expect(serverEndpointOptions(INITIALIZE, {}).resultMeta).toBeUndefined();
  });

  it("gives the endpoint the Tasks extension's cancel request, never the task manager", () => {
    const tasks = new TaskManager();
    expect(serverEndpointOptions(DISCOVER, { tasks }).tasks).toEqual({ cancelRequest: "tasks/cancel" });
    expect(serverEndpointOptions({ ...DISCOVER, tasks: null }, { tasks }).tasks).toBeUndefined();
  });

  it("without defaults hands the user's handler table over as it is", () => {
    const handlers = { "tools/call": handler };
    expect(serverEndpointOptions({ ...INITIALIZE, lifecycle: null }, { handlers }).handlers).toBe(handlers);
  });

  it("adds ctx.input only where the revision has multi round-trip requests", () => {
    expect(serverEndpointOptions(DISCOVER, {}).inputRequired).toBeUndefined();
    const rules = { methods: ["tools/call"], capabilitiesMetaKey: null, missingCapabilityCode: null, inputs: {}, schemas: {} };
    const made: unknown[] = [];
    const state = { key: "k".repeat(32) };
    const hook = serverEndpointOptions({ ...DISCOVER, inputRequired: { rules, create: (r, o) => (made.push([r, o]), createInputRequired(r, o)) } }, { requestState: state }).inputRequired;
    expect(hook).toBeDefined();
    expect(made).toEqual([[rules, state]]);
  });
});

describe("serverHttpBinding", () => {
  it("is the revision's HTTP rules with the revision and the versions served (a copy of `protocolVersions`)", () => {
    const versions = ["2026-07-28", "2026-01-01"];
    const binding = serverHttpBinding(DISCOVER, { protocolVersions: versions });
    expect(binding).toEqual({ ...DISCOVER.http, revision: "2026-07-28", supportedVersions: versions, listen: DISCOVER.subscriptions?.listen ?? null });
    expect(binding.supportedVersions).not.toBe(versions);
    expect(serverHttpBinding(DISCOVER, {}).supportedVersions).toEqual(["2026-07-28"]);
  });
});
