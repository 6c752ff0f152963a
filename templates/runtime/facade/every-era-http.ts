// Every era behind one URL, for an EveryEraServer (facade/every-era.ts): the era router
// (http/server/era-router.ts, docs/one-endpoint.md) in front of one handler per era, each over the
// generated McpServer of its revision, all made with the same shared options (HttpServerOptions:
// Host/Origin, authenticate, bounds) and the same `path`:
// - modern: createHttpHandler over the preferred stateless revision (2026-07-28);
// - sessions: createSessionHttpHandler over each session revision with Streamable HTTP
//   (2025-03-26, 2025-06-18, 2025-11-25), keyed by that revision;
// - legacySse: createLegacySseHandler over the session revision without it (2024-11-05).

import { createEraRouter } from "../http/server/era-router.js";
import { createHttpHandler, type HttpHandlerOptions, type HttpServable, type StatelessHttpHandler } from "../http/stateless/handler.js";
import { createSessionHttpHandler, type SessionHttpHandler, type SessionHttpHandlerOptions, type SessionServable } from "../http/sessions/handler.js";
import { createLegacySseHandler, type LegacySseHandler, type LegacySseHandlerOptions } from "../http/legacy-sse/handler.js";
import { drainMsOf, type CloseOptions } from "../http/server/drain.js";
import type { HttpServerOptions } from "../http/server/options.js";
import type { ServedHandler } from "../http/server/web-face.js";
import type { Connection } from "../core/endpoint.js";
import type { Transport } from "../core/protocol.js";
import { preferred, type EraRevision } from "./every-era-revisions.js";

/** What the handlers use of a revision's McpServer (httpBinding where stateless, sessionBinding where it has sessions). */
export interface EveryEraServable {
  openConnection(transport: Transport): Connection;
}

/**
 * Options of EveryEraServer.createHttpHandler: the shared ones go to every handler; `modern`,
 * `sessions` and `legacySse` add the options of one kind of handler only.
 */
export interface EveryEraHttpOptions extends HttpServerOptions {
  /** The path of the MCP endpoint of both Streamable HTTP eras; another path is answered 404 (default: any path). */
  readonly path?: string | undefined;
  readonly modern?: Omit<HttpHandlerOptions, keyof HttpServerOptions> | undefined;
  readonly sessions?: Omit<SessionHttpHandlerOptions, keyof HttpServerOptions> | undefined;
  readonly legacySse?: Omit<LegacySseHandlerOptions, keyof HttpServerOptions> | undefined;
  /** A handler that throws, or a transport error (each handler's and the router's). */
  readonly onError?: ((error: Error) => void) | undefined;
}

/** The router, with the handlers behind it (a session handler's closeStream or notify, say). */
export type EveryEraHttpHandler = ServedHandler & {
  readonly modern: StatelessHttpHandler | undefined;
  /** The session handlers, keyed by the session revision each serves. */
  readonly sessions: { readonly [revision: string]: SessionHttpHandler };
  readonly legacySse: LegacySseHandler | undefined;
  /** Whether close() has begun (toNodeListener then closes each connection after its response). */
  readonly draining: boolean;
  /**
   * Closes the stateless and the session handlers together (their close: new requests refused
   * with 503 and Retry-After, listen and GET streams ended with a `retry` hint, what is in flight
   * given `drainMs` to finish, then every session here ends; with a sessionRegistry they live on
   * there). HTTP+SSE sessions are left to end with the process. drainMs: as the handlers' own.
   */
  close(options?: CloseOptions): Promise<void>;
};

/** The router over one handler per era, each over `serverOf(revision)`. */
export function createEveryEraRouter(revisions: readonly EraRevision[], serverOf: (revision: EraRevision) => EveryEraServable, options: EveryEraHttpOptions): EveryEraHttpHandler {
  const { modern: modernOptions, sessions: sessionOptions, legacySse: legacyOptions, path, ...shared } = options;
  const stateless = preferred(revisions, true);
  const modern = stateless === undefined ? undefined : createHttpHandler(serverOf(stateless) as HttpServable, { ...shared, path, ...modernOptions });
  const sessions: Record<string, SessionHttpHandler> = {};
  for (const revision of revisions) {
    if (revision.stateless || !revision.sessionVersions.includes(revision.revision)) continue;
    sessions[revision.revision] = createSessionHttpHandler(serverOf(revision) as SessionServable, { ...shared, path, ...sessionOptions });
  }
  // HTTP+SSE: the session revision whose own version has no Streamable HTTP (2024-11-05); where it
  // is not generated, the newest session revision's server answers that transport too.
  const legacy = revisions.find((r) => !r.stateless && !r.sessionVersions.includes(r.revision)) ?? preferred(revisions, false);
  const legacySse = legacy === undefined ? undefined : createLegacySseHandler(serverOf(legacy), { ...shared, ...legacyOptions });
  const router = createEraRouter({
    ...(modern === undefined ? {} : { modern }),
    ...(Object.keys(sessions).length === 0 ? {} : { sessions }),
    ...(legacySse === undefined ? {} : { legacySse }),
    onError: options.onError,
  });
  let draining = false;
  const close = async (closeOptions?: CloseOptions): Promise<void> => {
    drainMsOf(closeOptions); // validated before anything closes
    draining = true;
    const handlers: { close(options?: CloseOptions): Promise<void> }[] = [...(modern === undefined ? [] : [modern]), ...Object.values(sessions)];
    await Promise.all(handlers.map((handler) => handler.close(closeOptions)));
  };
  const handler = Object.assign(router, { modern, sessions, legacySse, close });
  Object.defineProperty(handler, "draining", { get: () => draining, enumerable: true });
  return handler as EveryEraHttpHandler;
}
