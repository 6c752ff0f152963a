/**
 * One URL for every era, as a user builds it from a multi-revision output: each revision's
 * generated McpServer (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05) behind its own
 * handler, all passed to createEraRouter (imported from the 2025-11-25 index, though any
 * revision's would do) and served by toNodeListener on a real node:http server on 127.0.0.1.
 * Every server has one tool, `era`, that answers with its own revision, so a test sees which
 * server answered.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as R24 from "../../../generated/2024-11-05/index.js";
import * as R0326 from "../../../generated/2025-03-26/index.js";
import * as R0618 from "../../../generated/2025-06-18/index.js";
import * as R25 from "../../../generated/2025-11-25/index.js";
import * as R26 from "../../../generated/2026-07-28/index.js";

export { R24, R0326, R0618, R25, R26 };

export const SESSION_REVISIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;
export type SessionRevision = (typeof SESSION_REVISIONS)[number];

const INFO = { name: "one-url", version: "1.0.0" };
const ERA_TOOL = { name: "era", description: "Names the revision of the server that answers", inputSchema: { type: "object" as const } };

/** The tool pair of a session-era revision (the 2024-11-05 … 2025-11-25 result shapes agree). */
function sessionHandlers(revision: string) {
  return {
    "tools/list": () => ({ tools: [ERA_TOOL] }),
    "tools/call": (params: { name: string }) => {
      if (params.name !== "era") throw new R25.McpError(R25.ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
      return { content: [{ type: "text" as const, text: revision }] };
    },
  };
}

export interface OneUrl {
  /** http://127.0.0.1:port/mcp */
  readonly url: string;
  /** http://127.0.0.1:port (the HTTP+SSE paths are /sse and /messages). */
  readonly origin: string;
  readonly http: Server;
  readonly sessions: { readonly [R in SessionRevision]: R25.SessionHttpHandler };
  readonly errors: Error[];
  close(): Promise<void>;
}

export interface OneUrlOptions {
  /** Leave out the 2026-07-28 handler (a session-era-only router). */
  readonly modern?: boolean;
  /** The session revisions served (default all three). */
  readonly sessions?: readonly SessionRevision[];
  /** Options of every session handler. */
  readonly sessionOptions?: R25.SessionHttpHandlerOptions;
}

/** The router over the five servers (or those `options` keep), listening on a free loopback port. */
export async function serveOneUrl(options: OneUrlOptions = {}): Promise<OneUrl> {
  const errors: Error[] = [];
  const onError = (error: Error): void => void errors.push(error);
  const modern = new R26.McpServer({
    serverInfo: INFO,
    logger: null,
    onError,
    handlers: {
      "tools/list": () => ({ resultType: "complete", tools: [ERA_TOOL], ttlMs: 0, cacheScope: "public" }),
      "tools/call": (params) => {
        if (params.name !== "era") throw new R26.McpError(R26.ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
        return { resultType: "complete", content: [{ type: "text", text: "2026-07-28" }] };
      },
    },
  });
  const servers = {
    "2025-11-25": new R25.McpServer({ serverInfo: INFO, logger: null, onError, handlers: sessionHandlers("2025-11-25") }),
    "2025-06-18": new R0618.McpServer({ serverInfo: INFO, logger: null, onError, handlers: sessionHandlers("2025-06-18") }),
    "2025-03-26": new R0326.McpServer({ serverInfo: INFO, logger: null, onError, handlers: sessionHandlers("2025-03-26") }),
  };
  const sessionOptions = { onError, ...options.sessionOptions };
  const sessions = {
    "2025-11-25": R25.createSessionHttpHandler(servers["2025-11-25"], sessionOptions),
    "2025-06-18": R0618.createSessionHttpHandler(servers["2025-06-18"], sessionOptions),
    "2025-03-26": R0326.createSessionHttpHandler(servers["2025-03-26"], sessionOptions),
  };
  const served = options.sessions ?? SESSION_REVISIONS;
  const legacyServer = new R24.McpServer({ serverInfo: INFO, logger: null, onError, handlers: sessionHandlers("2024-11-05") });
  const router = R25.createEraRouter({
    ...(options.modern === false ? {} : { modern: R26.createHttpHandler(modern, { onError }) }),
    sessions: Object.fromEntries(served.map((revision) => [revision, sessions[revision]])),
    legacySse: R24.createLegacySseHandler(legacyServer, { onError }),
    onError,
  });
  const http = createServer(R25.toNodeListener(router));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: `${origin}/mcp`,
    origin,
    http,
    sessions,
    errors,
    close: async () => {
      await Promise.all(Object.values(sessions).map((handler) => handler.close()));
      await legacyServer.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The text of a tools/call result's first content block (any revision's shape). */
export function firstText(result: unknown): string | undefined {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  return content?.[0]?.text;
}
