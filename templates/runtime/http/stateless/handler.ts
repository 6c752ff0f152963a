// The Streamable HTTP server of the stateless revisions (2026-07-28 and later), bound to a generated
// McpServer: every POST is its own connection of the server (request ids are unique per client
// only, and there is no session), answered with one JSON object or an SSE stream scoped to that
// request; closing that stream is the request's cancel (exchange.ts).
//
// Spec pages (2026-07-28): basic/transports/streamable-http (abbreviated "HTTP" below),
// basic/index (per-request `_meta`, error codes), basic/versioning, basic/patterns/cancellation.
// Revision facts (supported versions, `_meta` keys, error codes, `Mcp-Name` sources, tool methods)
// come from the server's generated `httpBinding`; the runtime knows none of them.

import { numberOption } from "../../core/options.js";
import { ErrorCode } from "../../core/protocol.js";
import { readServerOptions, pathOption, type HttpServerOptions } from "../server/options.js";
import { authenticateStage, envelopeStage, hostOriginStage, runPipeline, type Pipeline, type Stage } from "../server/pipeline.js";
import { Drain, drainMsOf, type CloseOptions } from "../server/drain.js";
import { InFlightQuota, inFlightLimit, Slot } from "../server/quota.js";
import { pathStage } from "../server/routes.js";
import { withFaces, type ServedHandler } from "../server/web-face.js";
import type { HttpBinding, HttpServable } from "./binding.js";
import { RequestChecks } from "./checks.js";
import type { ExchangeSettings, PostExchange } from "./exchange.js";
import { StatelessRoutes, StatelessState } from "./routes.js";
import { ToolHeaders } from "./tool-headers.js";

export type { HttpBinding, HttpServable } from "./binding.js";
export { StatelessState } from "./routes.js";

/** Options of createHttpHandler (the shared ones: HttpServerOptions). */
export interface HttpHandlerOptions extends HttpServerOptions {
  /** The path of the MCP endpoint; another path is answered 404. Default: any path. */
  readonly path?: string | undefined;
  /**
   * How long (ms) the `x-mcp-header` annotations read from a tools/list handler of your own are
   * reused (an integer ≥ 0). Default: the `ttlMs` that handler's result gives (0: read again for
   * every tools/call). Registrations (registerTool) are read again when they change instead
   * (McpServer.listChanges), whatever this says.
   */
  readonly toolHeadersTtlMs?: number | undefined;
  /**
   * Requests in flight at most, over every client (default 4096). A request counts from the
   * moment it is authenticated, before its body is read, until its response ends (an SSE
   * response: until the stream closes, so open listen streams count). One more is refused with
   * 429 Too Many Requests and a JSON-RPC error naming this option.
   */
  readonly maxInFlight?: number | undefined;
  /**
   * Requests in flight at most of one principal (`authenticate`'s `id`), so that one client
   * cannot take every slot (default 256); one more is refused like maxInFlight's, naming this
   * option, and no other principal notices. Requests without a principal have this quota per
   * connection (`ctx.http.peer`; a web handler not told the client's address: one shared quota).
   */
  readonly maxInFlightPerPrincipal?: number | undefined;
}

/**
 * createHttpHandler's answer: the web face (a function), the core every face serves
 * (`serveCall`, which toNodeListener takes), the binding and the pipeline the era router reads.
 */
export type StatelessHttpHandler = ServedHandler & {
  readonly httpBinding: HttpBinding;
  /** Whether close() has begun: every new request is refused (503, Retry-After). */
  readonly draining: boolean;
  /**
   * Closes the handler: from now on every request is refused (503 with Retry-After and
   * `Connection: close`: a load balancer or the client sends it again, to another instance);
   * listen streams end at once with a `retry` hint (their clients open them again elsewhere);
   * the other requests in flight get up to `drainMs` to finish, then what is left ends (an
   * unanswered request gets 503, a stream ends with the hint; their handlers abort).
   * A drainMs that is not an integer from 0 to 2 147 483 647 is a RangeError.
   */
  close(options?: CloseOptions): Promise<void>;
  readonly httpPipeline: Pipeline<StatelessState>;
  /** The path it serves; undefined: any. */
  readonly path: string | undefined;
};


const DEFAULT_MAX_IN_FLIGHT = 4096;
const DEFAULT_MAX_IN_FLIGHT_PER_PRINCIPAL = 256;
const DEFAULT_MAX_STREAM_BUFFER_BYTES = 1024 * 1024;

/** One POST of JSON accepting both answers (HTTP, Sending Messages 1-2); GET and DELETE are 405 (no session, no stream of its own). */
const METHODS = { POST: { contentType: "application/json", accept: "both", body: true } } as const;

/**
 * HTTP status of an error response (basic/index, Error Codes; HTTP, Protocol Version Header and
 * Server Validation): 404 for an unknown method, 400 for the transport's own errors and malformed
 * messages (the binding's codes included); any other error stays in-band on 200.
 */
function statusTable(binding: HttpBinding): (code: number) => number {
  const statuses = new Map<number, number>([
    [ErrorCode.MethodNotFound, 404],
    [ErrorCode.ParseError, 400],
    [ErrorCode.InvalidRequest, 400],
    [binding.errors.headerMismatch, 400],
    [binding.errors.unsupportedProtocolVersion, 400],
  ]);
  if (binding.errors.missingRequiredClientCapability !== null) statuses.set(binding.errors.missingRequiredClientCapability, 400);
  return (code) => statuses.get(code) ?? 200;
}

/**
 * The in-flight quota, counted before the body is read; the exchange that answers releases the
 * slot. A request without a principal counts against its connection's (`call.peer`), so that one
 * anonymous client cannot take every other's slots.
 */
function quotaStage(quota: InFlightQuota): Stage<StatelessState> {
  return {
    name: "in-flight quota",
    run(call, state) {
      const slot = quota.acquire(state.principal?.id ?? call.peer);
      if (!(slot instanceof Slot)) return slot;
      state.slot = slot;
      state.held = slot;
      return undefined;
    },
  };
}

/**
 * The Streamable HTTP handler of a generated McpServer (a revision with the stateless HTTP
 * binding): POST only; one JSON-RPC request or notification per body; the request `_meta` and
 * the `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers checked
 * against each other; each request served on its own connection of the server. Serve it with
 * any fetch-style runtime, or with node:http through toNodeListener (its native face).
 */
export function createHttpHandler(server: HttpServable, options: HttpHandlerOptions = {}): StatelessHttpHandler {
  const binding = server.httpBinding;
  const settings = readServerOptions(options, { maxStreamBufferBytes: DEFAULT_MAX_STREAM_BUFFER_BYTES });
  const path = pathOption("path", options.path, undefined);
  const toolHeadersTtlMs = numberOption("toolHeadersTtlMs", options.toolHeadersTtlMs, undefined, { min: 0 });
  const quota = new InFlightQuota(
    inFlightLimit("maxInFlight", options.maxInFlight, DEFAULT_MAX_IN_FLIGHT),
    inFlightLimit("maxInFlightPerPrincipal", options.maxInFlightPerPrincipal, DEFAULT_MAX_IN_FLIGHT_PER_PRINCIPAL),
  );
  const annotations = binding.toolHeaders === null ? null : new ToolHeaders(server, binding, binding.toolHeaders.list, toolHeadersTtlMs, settings.onError);
  const checks = new RequestChecks(binding, annotations);
  const drain = new Drain();
  const exchange: ExchangeSettings = {
    statusOf: statusTable(binding),
    limits: { keepAliveMs: settings.keepAliveMs, maxBuffered: settings.maxStreamBufferBytes },
    live: new Set(),
    draining: () => drain.draining,
    listen: typeof binding.listen === "string" ? binding.listen : null,
  };

  const pipeline: Pipeline<StatelessState> = {
    admission: [
      drain.stage(),
      ...(path === undefined ? [] : [pathStage([path])]),
      hostOriginStage(settings.guards),
      authenticateStage(settings.authenticate, settings.logger),
      envelopeStage(METHODS, "the MCP endpoint"),
      quotaStage(quota),
    ],
    settings,
    state: () => new StatelessState(),
    serve: new StatelessRoutes(server, checks, exchange).serve,
  };
  const close = (closeOptions?: CloseOptions): Promise<void> => drainExchanges(drain, exchange.live, drainMsOf(closeOptions));
  const handler = withFaces({ serveCall: (call) => runPipeline(pipeline, call) }, { httpBinding: binding, httpPipeline: pipeline, path, close });
  Object.defineProperty(handler, "draining", { get: () => drain.draining, enumerable: true });
  return handler as StatelessHttpHandler;
}

/** close({ drainMs }): refuse new requests, end the listen streams, wait for the rest, then end what is left. */
async function drainExchanges(drain: Drain, live: Set<PostExchange>, drainMs: number): Promise<void> {
  if (drain.start()) for (const exchange of [...live]) if (exchange.listening) exchange.drop();
  await drain.settle(() => live.size === 0, drainMs);
  for (const exchange of [...live]) exchange.drop();
}
