/**
 * Every numeric option of the runtime is validated where it is read (issue 28, defect 6;
 * core/options.ts numberOption). The numeric fields of every `*Options` interface in
 * templates/runtime/ are found with the TypeScript compiler (ts-morph), and each must have a row
 * in OPTIONS below, so a new numeric option without validation fails this test. For each row:
 * NaN, a negative value, a fraction and a value below the sane minimum are each a RangeError
 * naming the option, thrown (or rejected with) where the option is read: at construction for
 * constructors and factories, at the call for per-call options; and a sane value is accepted.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import * as R from "../../generated/2026-07-28/index.js";
import * as Session from "../../generated/2025-11-25/index.js";
import * as Legacy from "../../generated/2024-11-05/index.js";
import { numberOption } from "../../../templates/runtime/core/options.js";
import { createAnswerInput } from "../../../templates/runtime/features/mrtr-client.js";
import { ClientTask, type TaskRequester } from "../../../templates/runtime/features/client-task.js";
import { InMemoryTaskStore } from "../../../templates/runtime/features/memory-task-store.js";
import { TaskManager } from "../../../templates/runtime/features/task-manager.js";
import { SkillCatalog } from "../../../templates/runtime/features/skill-catalog.js";
import { readSkillDirectory } from "../../../templates/runtime/features/skill-files.js";
import { SkillsClient, type SkillsRequester } from "../../../templates/runtime/features/skills-client.js";
import { StdioTransport } from "../../../templates/runtime/transports/stdio.js";
import { StdioClientTransport } from "../../../templates/runtime/transports/stdio-spawn.js";
import { createAjvValidator } from "../../../templates/runtime/addons/ajv/validator.js";
import { PostMessageTransport } from "../../../templates/runtime/apps/post-message.js";
import * as Apps from "../../generated/apps/index.js";
import { createMcpxGateway, createMcpxTransport } from "../../../templates/runtime/transports/mcpx.js";
import { createMcpxHub } from "../../../templates/runtime/transports/mcpx-hub.js";
import { attachMcpxGateway } from "../../../templates/runtime/addons/mcpx-ws/gateway.js";
import { connectMcpxLink } from "../../../templates/runtime/addons/mcpx-ws/link.js";
import { createMcpxTokenVerifier, signMcpxToken } from "../../../templates/runtime/addons/mcpx-ws/token.js";
import { createDpopVerifier } from "../../../templates/runtime/addons/oauth/dpop-server.js";
import { privateKeyJwt } from "../../../templates/runtime/addons/oauth/private-key-jwt.js";
import { PACKAGE_ROOT } from "../../../generator/project.js";
import { KEY, RawClient } from "../features/mrtr/support.js";
import { connectRedis, type RedisConnection } from "../../../templates/runtime/addons/redis/connection.js";
import { RedisTaskStore } from "../../../templates/runtime/addons/redis/task-store.js";
import { RedisSubscriptionBus } from "../../../templates/runtime/addons/redis/bus.js";
import { RedisEventStore } from "../../../templates/runtime/addons/redis/event-store.js";
import { RedisSessionRegistry } from "../../../templates/runtime/addons/redis/session-registry.js";

const RUNTIME = join(PACKAGE_ROOT, "templates", "runtime");

/** `Interface.field` of every field typed `number` (alone or in a union; not a function) of every interface named `*Options`. */
function numericOptions(): string[] {
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  const files = readdirSync(RUNTIME, { recursive: true }).map(String).filter((f) => f.endsWith(".ts"));
  for (const file of files) project.addSourceFileAtPath(join(RUNTIME, file));
  const found: string[] = [];
  for (const source of project.getSourceFiles()) {
    for (const declared of source.getInterfaces()) {
      if (!declared.getName().endsWith("Options")) continue;
      for (const property of declared.getProperties()) {
        const type = property.getTypeNode()?.getText() ?? "";
        // A number, not a function returning one (a clock: `now?: () => number`).
        if (/\bnumber\b/.test(type) && !type.includes("=>")) found.push(`${declared.getName()}.${property.getName()}`);
      }
    }
  }
  return found.sort();
}

/** Where an option is read, given a value: throws, or returns a promise that rejects, when the value is refused. */
type Reader = (value: number) => unknown;

interface Row {
  readonly read: Reader;
  /** A value accepted (the reader neither throws nor rejects). */
  readonly ok: number;
  /** A value below the sane minimum (and not a fraction, NaN or negative when the minimum allows it). */
  readonly tooSmall: number;
  /** Fractions are refused (every option counts whole things: ms, bytes, items). */
  readonly fraction: number;
}

/** A postMessage transport's required options: a window that drops what is posted, an event source that delivers nothing. */
const postMessageBase = () => ({ target: { postMessage: () => undefined }, peerOrigin: "https://peer.test", listen: { addEventListener: () => undefined, removeEventListener: () => undefined } });
const never = (): Promise<never> => new Promise<never>(() => undefined);
/**
 * The Redis add-on's stores read their options in their constructors, before any command: a
 * connection that is never opened stands in (only its key naming is used there).
 */
const unopened = { prefix: "x:", key: (...parts: string[]) => `x:${parts.join(":")}` } as unknown as RedisConnection;
const server = (options: R.McpServerOptions = {}) => new R.McpServer({ logger: null, ...options });
const legacyServer = () => new Legacy.McpServer({ logger: null });
const sessionServer = () => new Session.McpServer({ logger: null });
const spawned = (options: Partial<ConstructorParameters<typeof StdioClientTransport>[0]>) => new StdioClientTransport({ command: "node", ...options });
const stdio = (options: Partial<ConstructorParameters<typeof StdioTransport>[0]>) => new StdioTransport({ input: new PassThrough(), output: new PassThrough(), ...options });
const quietFetch: R.FetchLike = () => Promise.resolve(new Response(null, { status: 202 }));
const HANDLE = { resultType: "task", taskId: "t-1", status: "working", createdAt: "2026-01-01T00:00:00.000Z", lastUpdatedAt: "2026-01-01T00:00:00.000Z", ttlMs: null };
/** A task requester whose tasks/get says `completed` (so an accepted value's result() resolves). */
const requester: TaskRequester = { request: () => Promise.resolve({ ...HANDLE, status: "completed", result: {} }) };

/**
 * A shared option of the HTTP handlers (HttpServerOptions) given to each of them: accepted when
 * every handler takes it, else the first refusal, and an Error (not the RangeError the test wants)
 * when only some refuse it.
 */
function everyHandler(options: (value: number) => R.HttpServerOptions): Reader {
  return (value) => {
    const refusals = [
      () => R.createHttpHandler(server(), options(value)),
      () => Session.createSessionHttpHandler(sessionServer(), options(value)),
      () => Legacy.createLegacySseHandler(legacyServer(), options(value)),
    ].map((read) => {
      try {
        read();
        return undefined;
      } catch (error) {
        return error;
      }
    });
    if (refusals.every((refusal) => refusal === undefined)) return;
    if (refusals.some((refusal) => refusal === undefined)) throw new Error("only some handlers refused it");
    throw refusals[0];
  };
}

/** A connected client of the 2026-07-28 revision (the server answers tools/call with an empty result). */
async function client(): Promise<R.McpClient> {
  const [a, b] = R.createInMemoryTransportPair();
  await server({ handlers: { "tools/call": () => ({ resultType: "complete", content: [] }) } }).connect(b);
  const c = new R.McpClient({ logger: null });
  await c.connect(a);
  return c;
}

/** What ctx.input.required(…, { state, ttlMs }) threw (or undefined) inside a tools/call handler. */
async function requiredTtl(ttlMs: number): Promise<void> {
  let thrown: unknown;
  const s = server({
    requestState: { key: KEY },
    handlers: {
      "tools/call": async (_params, ctx) => {
        try {
          return await ctx.input.required({}, { state: 1, ttlMs });
        } catch (error) {
          thrown = error;
          throw error;
        }
      },
    },
  });
  const raw = await RawClient.connect(s);
  await raw.call("tools/call", { name: "x", arguments: {} });
  await raw.close();
  if (thrown !== undefined) throw thrown;
}

const MCPX_SECRET = "options-test-secret-0123456789abcdef";
const mcpxVerify = createMcpxTokenVerifier({ secret: MCPX_SECRET });
let mcpxUrl: Promise<string> | undefined;
/** A real MCPx WebSocket gateway on loopback (started on first use; the process exit ends it). */
function mcpxGateway(): Promise<string> {
  mcpxUrl ??= new Promise((resolve) => {
    const http = createServer();
    attachMcpxGateway(http, { verify: mcpxVerify });
    http.unref();
    http.listen(0, "127.0.0.1", () => resolve(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/ws`));
  });
  return mcpxUrl;
}
/** Joins the gateway with a link whose options include `options`, then leaves. */
async function mcpxLink(options: Partial<Parameters<typeof connectMcpxLink>[0]>): Promise<void> {
  const link = await connectMcpxLink({ url: await mcpxGateway(), topic: "t", token: () => signMcpxToken(MCPX_SECRET, { participantId: "p", topic: "t", capabilities: [] }), ...options });
  link.close();
}

const OPTIONS: Readonly<Record<string, Row>> = {
  // core/endpoint.ts (read by the endpoint's constructor, through either facade)
  "EndpointOptions.defaultTimeoutMs": { read: (v) => server({ defaultTimeoutMs: v }), ok: 1, tooSmall: -1, fraction: 1.5 },
  "EndpointOptions.defaultMaxTotalTimeoutMs": { read: (v) => server({ defaultMaxTotalTimeoutMs: v }), ok: 1, tooSmall: -1, fraction: 1.5 },
  "EndpointOptions.maxRequestsInFlight": { read: (v) => server({ maxRequestsInFlight: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RequiredOptions.ttlMs": { read: requiredTtl, ok: 1, tooSmall: 0, fraction: 1.5 },
  // core/protocol.ts: per call, read when the call is made
  "RequestOptions.timeoutMs": { read: async (v) => (await client()).callTool({ name: "t" }, { timeoutMs: v }), ok: 10_000, tooSmall: -1, fraction: 1.5 },
  "RequestOptions.maxTotalTimeoutMs": { read: async (v) => (await client()).callTool({ name: "t" }, { maxTotalTimeoutMs: v }), ok: 10_000, tooSmall: -1, fraction: 1.5 },
  "RequestOptions.maxInputRounds": { read: async (v) => (await client()).callTool({ name: "t" }, { maxInputRounds: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // facade/ (FacadeOptions: both facades read them)
  "FacadeOptions.defaultTimeoutMs": { read: (v) => [new R.McpClient({ logger: null, defaultTimeoutMs: v }), server({ defaultTimeoutMs: v })], ok: 1, tooSmall: -1, fraction: 1.5 },
  "FacadeOptions.defaultMaxTotalTimeoutMs": { read: (v) => [new R.McpClient({ logger: null, defaultMaxTotalTimeoutMs: v }), server({ defaultMaxTotalTimeoutMs: v })], ok: 1, tooSmall: -1, fraction: 1.5 },
  "FacadeOptions.maxRequestsInFlight": { read: (v) => [new R.McpClient({ logger: null, maxRequestsInFlight: v }), server({ maxRequestsInFlight: v })], ok: 1, tooSmall: 0, fraction: 1.5 },
  "ClientFacadeOptions.maxInputRounds": { read: (v) => new R.McpClient({ logger: null, maxInputRounds: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "ResultDefaultsOptions.ttlMs": { read: (v) => server({ resultDefaults: { ttlMs: v } }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // features/mrtr.ts
  "RequestStateOptions.ttlMs": { read: (v) => server({ requestState: { key: KEY, ttlMs: v } }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RequestStateOptions.maxLength": { read: (v) => server({ requestState: { key: KEY, maxLength: v } }), ok: 64, tooSmall: 63, fraction: 100.5 },
  "MemoryReplayGuardOptions.maxEntries": { read: (v) => new R.MemoryReplayGuard({ maxEntries: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "AnswerInputOptions.maxRounds": { read: (v) => createAnswerInput({ methods: new Set(), inputs: new Set(), maxRounds: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // features/subscriptions.ts
  "SubscriptionHubOptions.maxStreams": { read: (v) => new R.Subscriptions({ maxStreams: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SubscriptionHubOptions.maxResourceSubscriptions": { read: (v) => new R.Subscriptions({ maxResourceSubscriptions: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SubscriptionHubOptions.maxUriLength": { read: (v) => new R.Subscriptions({ maxUriLength: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SubscriptionHubOptions.maxStreamsPerPrincipal": { read: (v) => new R.Subscriptions({ maxStreamsPerPrincipal: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SubscriptionHubOptions.maxPending": { read: (v) => new R.Subscriptions({ maxPending: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // features/tasks.ts
  "InMemoryTaskStoreOptions.maxTasks": { read: (v) => new InMemoryTaskStore({ maxTasks: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "InMemoryTaskStoreOptions.maxActiveTasksPerPrincipal": { read: (v) => new InMemoryTaskStore({ maxActiveTasksPerPrincipal: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "InMemoryTaskStoreOptions.maxFinishedTasksPerPrincipal": { read: (v) => new InMemoryTaskStore({ maxFinishedTasksPerPrincipal: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "TaskManagerOptions.ttlMs": { read: (v) => new TaskManager({ ttlMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "TaskManagerOptions.pollIntervalMs": { read: (v) => new TaskManager({ pollIntervalMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // features/skill-catalog.ts, skills-client.ts, skill-files.ts (the Skills extension)
  "SkillCatalogOptions.pageSize": { read: (v) => SkillCatalog.create({ files: {}, pageSize: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SkillCatalogOptions.ttlMs": { read: (v) => SkillCatalog.create({ files: {}, ttlMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SkillsClientOptions.maxPages": { read: (v) => new SkillsClient({} as SkillsRequester, { maxPages: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SkillsClientOptions.maxDynamicBytes": { read: (v) => new SkillsClient({} as SkillsRequester, { maxDynamicBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SkillDirectoryOptions.maxFileBytes": { read: (v) => readSkillDirectory(PACKAGE_ROOT + "/examples/everything/skills", { maxFileBytes: v }), ok: 1024, tooSmall: 0, fraction: 1.5 },
  "SkillDirectoryOptions.maxFiles": { read: (v) => readSkillDirectory(PACKAGE_ROOT + "/examples/everything/skills", { maxFiles: v }), ok: 100, tooSmall: 0, fraction: 1.5 },
  "SkillDirectoryOptions.maxDepth": { read: (v) => readSkillDirectory(PACKAGE_ROOT + "/examples/everything/skills", { maxDepth: v }), ok: 8, tooSmall: 0, fraction: 1.5 },
  "TaskOptions.ttlMs": { read: (v) => new TaskManager().start(never, { ttlMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "TaskOptions.pollIntervalMs": { read: (v) => new TaskManager().start(never, { pollIntervalMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "TaskResultOptions.pollIntervalMs": { read: (v) => new ClientTask(requester, HANDLE).result({ pollIntervalMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "TaskResultOptions.maxInputRounds": { read: (v) => new ClientTask(requester, HANDLE).result({ maxInputRounds: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // http/auth.ts and http/bearer.ts
  "HttpClientAuthOptions.maxStepUpRetries": {
    read: (v) => {
      R.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, authProvider: { token: async () => "t" }, maxStepUpRetries: v });
      Legacy.createLegacySseClientTransport({ url: "http://mcp.test/sse", fetch: quietFetch, maxStepUpRetries: v });
      return Session.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, maxStepUpRetries: v });
    },
    ok: 0,
    tooSmall: -1,
    fraction: 1.5,
  },
  "BearerAuthOptions.maxTokenLength": {
    read: (v) => R.bearerAuth({ resource: "https://mcp.test/mcp", authorizationServers: ["https://as.test"], verify: () => undefined, maxTokenLength: v }),
    ok: 1,
    tooSmall: 0,
    fraction: 1.5,
  },
  // http/
  "HttpClientBaseOptions.maxJsonDepth": {
    read: (v) => {
      R.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, maxJsonDepth: v });
      Legacy.createLegacySseClientTransport({ url: "http://mcp.test/sse", fetch: quietFetch, maxJsonDepth: v });
      return Session.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, maxJsonDepth: v });
    },
    ok: 8,
    tooSmall: 7,
    fraction: 8.5,
  },
  "HttpClientBaseOptions.maxMessageBytes": {
    read: (v) => {
      R.createHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, maxMessageBytes: v });
      return Session.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, maxMessageBytes: v });
    },
    ok: 1,
    tooSmall: 0,
    fraction: 1.5,
  },
  "HttpHandlerOptions.maxInFlight": { read: (v) => R.createHttpHandler(server(), { maxInFlight: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "HttpHandlerOptions.maxInFlightPerPrincipal": { read: (v) => R.createHttpHandler(server(), { maxInFlightPerPrincipal: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  // http/legacy-sse/handler.ts, legacy-sse-client.ts, fallback-client.ts (2024-11-05 HTTP+SSE)
  "LegacySseHandlerOptions.maxSessions": { read: (v) => Legacy.createLegacySseHandler(legacyServer(), { maxSessions: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "LegacySseHandlerOptions.maxSessionsPerPrincipal": { read: (v) => Legacy.createLegacySseHandler(legacyServer(), { maxSessionsPerPrincipal: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "LegacySseHandlerOptions.sessionIdleMs": { read: (v) => Legacy.createLegacySseHandler(legacyServer(), { sessionIdleMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "LegacySseHandlerOptions.maxInFlightPerSession": { read: (v) => Legacy.createLegacySseHandler(legacyServer(), { maxInFlightPerSession: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "LegacySseHandlerOptions.maxEarlyCancels": { read: (v) => Legacy.createLegacySseHandler(legacyServer(), { maxEarlyCancels: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "LegacySseHandlerOptions.earlyCancelWindowMs": { read: (v) => Legacy.createLegacySseHandler(legacyServer(), { earlyCancelWindowMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "LegacySseClientTransportOptions.endpointTimeoutMs": { read: (v) => Legacy.createLegacySseClientTransport({ url: "http://mcp.test/sse", fetch: quietFetch, endpointTimeoutMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "FallbackHttpClientTransportOptions.endpointTimeoutMs": { read: (v) => Session.createFallbackHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, endpointTimeoutMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "FallbackHttpClientTransportOptions.fallbackStatuses": { read: (v) => Session.createFallbackHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, fallbackStatuses: [404, v] }), ok: 405, tooSmall: 399, fraction: 404.5 },
  // http/server/options.ts: read by every handler (each must refuse the value)
  "HttpServerOptions.maxBodyBytes": { read: everyHandler((v) => ({ maxBodyBytes: v })), ok: 128, tooSmall: 127, fraction: 1024.5 },
  "HttpServerOptions.maxJsonDepth": { read: everyHandler((v) => ({ maxJsonDepth: v })), ok: 8, tooSmall: 7, fraction: 8.5 },
  "HttpServerOptions.keepAliveMs": { read: everyHandler((v) => ({ keepAliveMs: v })), ok: 1000, tooSmall: 999, fraction: 1000.5 },
  "HttpServerOptions.maxStreamBufferBytes": { read: everyHandler((v) => ({ maxStreamBufferBytes: v })), ok: 1024, tooSmall: 1023, fraction: 2048.5 },
  "HttpHandlerOptions.toolHeadersTtlMs": { read: (v) => R.createHttpHandler(server(), { toolHeadersTtlMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // http/server/drain.ts: read by every handler's close() (a fresh handler each: close ends it)
  "CloseOptions.drainMs": { read: (v) => Promise.all([R.createHttpHandler(server()).close({ drainMs: v }), Session.createSessionHttpHandler(sessionServer()).close({ drainMs: v })]), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SessionHttpHandlerOptions.maxSessions": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { maxSessions: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionHttpHandlerOptions.maxSessionsPerPrincipal": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { maxSessionsPerPrincipal: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionHttpHandlerOptions.sessionIdleMs": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { sessionIdleMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionHttpHandlerOptions.maxInFlightPerSession": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { maxInFlightPerSession: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionHttpHandlerOptions.maxStoredEvents": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { maxStoredEvents: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionHttpHandlerOptions.retryMs": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { retryMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SessionHttpHandlerOptions.maxEarlyCancels": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { maxEarlyCancels: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionHttpHandlerOptions.earlyCancelWindowMs": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { earlyCancelWindowMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionHttpHandlerOptions.maxEventStoreBytes": { read: (v) => Session.createSessionHttpHandler(sessionServer(), { maxEventStoreBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "EventStoreBudgetOptions.maxBytes": { read: (v) => new Session.EventStoreBudget({ maxBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "InMemoryEventStoreOptions.maxEvents": { read: (v) => new Session.InMemoryEventStore({ maxEvents: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "InMemoryEventStoreOptions.maxBytes": { read: (v) => new Session.InMemoryEventStore({ maxBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "SessionReconnectOptions.maxAttempts": { read: (v) => Session.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, reconnect: { maxAttempts: v } }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SessionReconnectOptions.defaultRetryMs": { read: (v) => Session.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, reconnect: { defaultRetryMs: v } }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SessionHttpClientTransportOptions.cancelGraceMs": { read: (v) => Session.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, cancelGraceMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "SessionReconnectOptions.maxRetryMs": { read: (v) => Session.createSessionHttpClientTransport({ url: "http://mcp.test/mcp", fetch: quietFetch, reconnect: { maxRetryMs: v } }), ok: 0, tooSmall: -1, fraction: 1.5 },
  // transports/
  "StdioTransportOptions.maxMessageBytes": { read: (v) => stdio({ maxMessageBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "McpxGatewayOptions.maxQueuedEnvelopes": { read: (v) => createMcpxGateway({ maxQueuedEnvelopes: v }), ok: 16, tooSmall: 15, fraction: 16.5 },
  "McpxTransportOptions.maxBacklog": { read: (v) => createMcpxTransport({ participantId: "a", peerId: "b", link: createMcpxGateway().join("a"), maxBacklog: v }), ok: 16, tooSmall: 15, fraction: 16.5 },
  "StdioTransportOptions.maxQueuedBytes": { read: (v) => stdio({ maxQueuedBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "StdioTransportOptions.maxJsonDepth": { read: (v) => stdio({ maxJsonDepth: v }), ok: 8, tooSmall: 7, fraction: 8.5 },
  "McpxHubOptions.maxParticipantsPerTopic": { read: (v) => createMcpxHub({ maxParticipantsPerTopic: v }).close(), ok: 1, tooSmall: 0, fraction: 1.5 },
  // addons/oauth/: read where the verifier or the assertion signer is made
  "DpopVerifierOptions.maxAgeSeconds": { read: (v) => createDpopVerifier({ maxAgeSeconds: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "DpopVerifierOptions.clockSkewSeconds": { read: (v) => createDpopVerifier({ clockSkewSeconds: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "DpopVerifierOptions.maxReplayEntries": { read: (v) => createDpopVerifier({ maxReplayEntries: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "DpopVerifierOptions.maxProofLength": { read: (v) => createDpopVerifier({ maxProofLength: v }), ok: 256, tooSmall: 255, fraction: 256.5 },
  "DpopVerifierOptions.nonceLifetimeSeconds": { read: (v) => createDpopVerifier({ nonceLifetimeSeconds: v }), ok: 10, tooSmall: 9, fraction: 10.5 },
  "PrivateKeyJwtOptions.lifetimeSeconds": { read: (v) => privateKeyJwt("client", { privateKey: "-----BEGIN PRIVATE KEY-----", lifetimeSeconds: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "McpxHubOptions.maxFrameBytes": { read: (v) => createMcpxHub({ maxFrameBytes: v }).close(), ok: 1024, tooSmall: 1023, fraction: 1024.5 },
  "McpxHubOptions.maxEnvelopesPerSecond": { read: (v) => createMcpxHub({ maxEnvelopesPerSecond: v }).close(), ok: 1, tooSmall: 0, fraction: 1.5 },
  "McpxHubOptions.maxQueuedBytes": { read: (v) => createMcpxHub({ maxQueuedBytes: v }).close(), ok: 65_536, tooSmall: 65_535, fraction: 65_536.5 },
  "McpxHubOptions.heartbeatMs": { read: (v) => createMcpxHub({ heartbeatMs: v }).close(), ok: 50, tooSmall: 49, fraction: 50.5 },
  // addons/mcpx-ws/
  "McpxTokenOptions.maxLifetimeMs": { read: (v) => createMcpxTokenVerifier({ secret: MCPX_SECRET }, { maxLifetimeMs: v }), ok: 1000, tooSmall: 999, fraction: 1000.5 },
  "McpxHubOptions.maxJsonDepth": { read: (v) => createMcpxHub({ maxJsonDepth: v }).close(), ok: 8, tooSmall: 7, fraction: 8.5 },
  "McpxWsGatewayOptions.closeGraceMs": { read: (v) => attachMcpxGateway(createServer(), { verify: mcpxVerify, closeGraceMs: v }).close(), ok: 10, tooSmall: 9, fraction: 10.5 },
  "McpxWsLinkOptions.initialBackoffMs": { read: (v) => mcpxLink({ initialBackoffMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "McpxWsLinkOptions.maxBackoffMs": { read: (v) => mcpxLink({ maxBackoffMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "McpxWsLinkOptions.maxFrameBytes": { read: (v) => mcpxLink({ maxFrameBytes: v }), ok: 1024, tooSmall: 1023, fraction: 1024.5 },
  "McpxWsLinkOptions.maxJsonDepth": { read: (v) => mcpxLink({ maxJsonDepth: v }), ok: 8, tooSmall: 7, fraction: 8.5 },
  "McpxWsLinkOptions.connectTimeoutMs": { read: (v) => mcpxLink({ connectTimeoutMs: v }), ok: 5_000, tooSmall: 0, fraction: 1.5 },
  // http/session-registry.ts
  "InMemorySessionRegistryOptions.maxSessions": { read: (v) => new Session.InMemorySessionRegistry({ maxSessions: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  // addons/redis/: connectRedis checks its numbers before it connects; with an accepted value it
  // tries port 1 and fails to connect (RedisUnavailableError), which counts as accepted here.
  "RedisConnectionOptions.commandTimeoutMs": { read: (v) => connectRedis({ commandTimeoutMs: v, connectTimeoutMs: 1, url: "redis://127.0.0.1:1" }).then((c) => c.close(), (e: unknown) => (e instanceof RangeError ? Promise.reject(e) : undefined)), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RedisConnectionOptions.commandClients": { read: (v) => connectRedis({ commandClients: v, connectTimeoutMs: 1, url: "redis://127.0.0.1:1" }).then((c) => c.close(), (e: unknown) => (e instanceof RangeError ? Promise.reject(e) : undefined)), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RedisConnectionOptions.connectTimeoutMs": { read: (v) => connectRedis({ connectTimeoutMs: v, url: "redis://127.0.0.1:1" }).then((c) => c.close(), (e: unknown) => (e instanceof RangeError ? Promise.reject(e) : undefined)), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RedisTaskStoreOptions.maxTaskBytes": { read: (v) => new RedisTaskStore(unopened, { maxTaskBytes: v }), ok: 1024, tooSmall: 1023, fraction: 1024.5 },
  "RedisSubscriptionBusOptions.maxMessageBytes": { read: (v) => new RedisSubscriptionBus(unopened, { maxMessageBytes: v }), ok: 64, tooSmall: 63, fraction: 64.5 },
  "RedisEventStoreOptions.maxEventsPerStream": { read: (v) => new RedisEventStore(unopened, { maxEventsPerStream: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RedisEventStoreOptions.ttlMs": { read: (v) => new RedisEventStore(unopened, { ttlMs: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RedisEventStoreOptions.maxEventBytes": { read: (v) => new RedisEventStore(unopened, { maxEventBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "RedisSessionRegistryOptions.maxRecordBytes": { read: (v) => new RedisSessionRegistry(unopened, { maxRecordBytes: v }), ok: 256, tooSmall: 255, fraction: 256.5 },
  // read at construction: nothing is spawned
  "StdioClientTransportOptions.closeGraceMs": { read: (v) => spawned({ closeGraceMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "StdioClientTransportOptions.killGraceMs": { read: (v) => spawned({ killGraceMs: v }), ok: 0, tooSmall: -1, fraction: 1.5 },
  "StdioClientTransportOptions.maxStderrLineBytes": { read: (v) => spawned({ maxStderrLineBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "StdioClientTransportOptions.maxMessageBytes": { read: (v) => spawned({ maxMessageBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "StdioClientTransportOptions.maxQueuedBytes": { read: (v) => spawned({ maxQueuedBytes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "StdioClientTransportOptions.maxJsonDepth": { read: (v) => spawned({ maxJsonDepth: v }), ok: 8, tooSmall: 7, fraction: 8.5 },
  "RegistryOptions.pageSize": { read: (v) => new Session.McpServer({ registrations: { pageSize: v } }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "JsonSchemaValidatorOptions.maxDepth": { read: (v) => Session.createJsonSchemaValidator({ maxDepth: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "JsonSchemaValidatorOptions.maxNodes": { read: (v) => Session.createJsonSchemaValidator({ maxNodes: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "JsonSchemaValidatorOptions.maxPatternLength": { read: (v) => Session.createJsonSchemaValidator({ maxPatternLength: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "ListCacheOptions.maxEntries": { read: (v) => new Session.McpClient({ listCache: { maxEntries: v } }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "ToolOutputOptions.maxTools": { read: (v) => new Session.McpClient({ toolOutput: { maxTools: v } }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "AjvValidatorOptions.maxPatternLength": { read: (v) => createAjvValidator({ maxPatternLength: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "AjvValidatorOptions.maxWork": { read: (v) => createAjvValidator({ maxWork: v }), ok: 1000, tooSmall: 999, fraction: 1000.5 },
  "JsonSchemaValidatorOptions.maxSteps": { read: (v) => Session.createJsonSchemaValidator({ maxSteps: v }), ok: 1, tooSmall: 0, fraction: 1.5 },
  "JsonSchemaValidatorOptions.maxWork": { read: (v) => Session.createJsonSchemaValidator({ maxWork: v }), ok: 1000, tooSmall: 999, fraction: 1000.5 },
  // apps/ (MCP Apps): the postMessage transport, and both sides' endpoints
  "PostMessageTransportOptions.maxMessageBytes": { read: (v) => void new PostMessageTransport({ ...postMessageBase(), maxMessageBytes: v }).close(), ok: 64, tooSmall: 63, fraction: 64.5 },
  "PostMessageTransportOptions.maxQueue": { read: (v) => void new PostMessageTransport({ ...postMessageBase(), maxQueue: v }).close(), ok: 1, tooSmall: 0, fraction: 1.5 },
  "UiSideOptions.defaultTimeoutMs": { read: (v) => [new Apps.McpUiApp({ appInfo: { name: "a", version: "1" }, logger: null, defaultTimeoutMs: v }), new Apps.McpUiHost({ hostInfo: { name: "h", version: "1" }, logger: null, defaultTimeoutMs: v })], ok: 1, tooSmall: -1, fraction: 1.5 },
  "UiSideOptions.defaultMaxTotalTimeoutMs": { read: (v) => [new Apps.McpUiApp({ appInfo: { name: "a", version: "1" }, logger: null, defaultMaxTotalTimeoutMs: v }), new Apps.McpUiHost({ hostInfo: { name: "h", version: "1" }, logger: null, defaultMaxTotalTimeoutMs: v })], ok: 1, tooSmall: -1, fraction: 1.5 },
  "UiSideOptions.maxRequestsInFlight": { read: (v) => [new Apps.McpUiApp({ appInfo: { name: "a", version: "1" }, logger: null, maxRequestsInFlight: v }), new Apps.McpUiHost({ hostInfo: { name: "h", version: "1" }, logger: null, maxRequestsInFlight: v })], ok: 1, tooSmall: 0, fraction: 1.5 },
};

/** The error `read(value)` throws or rejects with; undefined when it accepts the value. */
async function refusal(read: Reader, value: number): Promise<unknown> {
  try {
    await read(value);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe("numeric options", () => {
  it("every numeric field of every *Options interface of the runtime has a row here (a new one must be validated and listed)", () => {
    const found = numericOptions();
    expect(found.length).toBeGreaterThan(30);
    expect(found).toEqual(Object.keys(OPTIONS).sort());
  });

  for (const [name, row] of Object.entries(OPTIONS)) {
    const field = name.slice(name.indexOf(".") + 1);
    it(`${name}: NaN, a negative value, a fraction and a value below the minimum are a RangeError naming it; ${row.ok} is accepted`, async () => {
      for (const bad of [Number.NaN, -1, row.fraction, row.tooSmall, Number.NEGATIVE_INFINITY]) {
        const error = await refusal(row.read, bad);
        expect(error, `${name} = ${bad}`).toBeInstanceOf(RangeError);
        expect((error as Error).message, `${name} = ${bad}`).toContain(field);
        expect((error as Error).message, `${name} = ${bad}`).toContain(`got ${bad}`);
      }
      expect(await refusal(row.read, row.ok), `${name} = ${row.ok}`).toBeUndefined();
    });
  }
});

describe("numberOption", () => {
  it("names the option, what it accepts and the value; returns the fallback for undefined", () => {
    expect(numberOption("maxBodyBytes", undefined, 7, { min: 128 })).toBe(7);
    expect(() => numberOption("maxBodyBytes", Number.NaN, 7, { min: 128 })).toThrow(new RangeError("maxBodyBytes must be an integer ≥ 128, got NaN"));
    expect(() => numberOption("keepAliveMs", 0.5, 7, { min: 1000, zeroIsOff: true })).toThrow(new RangeError("keepAliveMs must be an integer ≥ 1000 or 0 (off), got 0.5"));
    expect(() => numberOption("x", "5", 7, { min: 0, max: 9, infinity: true })).toThrow(new RangeError('x must be an integer from 0 to 9 or Infinity (no bound), got "5"'));
    expect(numberOption("x", Number.POSITIVE_INFINITY, 7, { min: 0, infinity: true })).toBe(Number.POSITIVE_INFINITY);
    expect(() => numberOption("x", Number.POSITIVE_INFINITY, 7, { min: 0 })).toThrow(RangeError);
    expect(() => numberOption("x", 10, 7, { min: 0, max: 9 })).toThrow(RangeError);
    expect(numberOption("x", 0.25, 7, { min: 0, integer: false })).toBe(0.25);
  });

  it("turns the issue's examples into errors at construction: maxBodyBytes NaN (an unset environment variable) and keepAliveMs 0.5", () => {
    expect(() => R.createHttpHandler(server(), { maxBodyBytes: Number(process.env["MCP_STUBGEN_UNSET_VARIABLE"]) })).toThrow(/^maxBodyBytes must be an integer ≥ 128, got NaN$/);
    expect(() => R.createHttpHandler(server(), { keepAliveMs: 0.5 })).toThrow(/^keepAliveMs must be an integer ≥ 1000 or 0 \(off\), got 0\.5$/);
  });
});
