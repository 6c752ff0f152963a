/**
 * One URL for every era, as a user builds it from a multi-revision output: each revision's
 * generated McpServer (2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05) behind its own
 * handler, all passed to createEraRouter (imported from the 2025-11-25 index, though any
 * revision's would do) and served on a real node:http server on 127.0.0.1 on either face of the
 * router (test/helpers/faces.ts). Every server has one tool, `era`, that answers with its own
 * revision, so a test sees which server answered. Also the wire helpers of the router's tests
 * (exact headers, the status and body as they came).
 */
import { request as httpRequest, type Server } from "node:http";
import * as R24 from "../../../../generated/2024-11-05/index.js";
import * as R0326 from "../../../../generated/2025-03-26/index.js";
import * as R0618 from "../../../../generated/2025-06-18/index.js";
import * as R25 from "../../../../generated/2025-11-25/index.js";
import * as R26 from "../../../../generated/2026-07-28/index.js";
import { listen, send, type Answer, type Face } from "../../../../helpers/faces.js";

export { send, type Answer };

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

/** The 2026-07-28 server of the router: its `era` tool answers "2026-07-28". */
export function modernServer(onError?: (error: Error) => void): R26.McpServer {
  return new R26.McpServer({
    serverInfo: INFO,
    logger: null,
    ...(onError === undefined ? {} : { onError }),
    handlers: {
      "tools/list": () => ({ resultType: "complete", tools: [ERA_TOOL], ttlMs: 0, cacheScope: "public" }),
      "tools/call": (params) => {
        if (params.name !== "era") throw new R26.McpError(R26.ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
        return { resultType: "complete", content: [{ type: "text", text: "2026-07-28" }] };
      },
    },
  });
}

/** A 2025-11-25 server whose `era` tool answers "2025-11-25". */
export function sessionServer(onError?: (error: Error) => void): R25.McpServer {
  return new R25.McpServer({ serverInfo: INFO, logger: null, ...(onError === undefined ? {} : { onError }), handlers: sessionHandlers("2025-11-25") });
}

export interface OneUrl {
  readonly face: Face;
  /** http://127.0.0.1:port/mcp */
  readonly url: string;
  /** http://127.0.0.1:port (the HTTP+SSE paths are /sse and /messages). */
  readonly origin: string;
  readonly http: Server;
  readonly router: R25.ServedHandler;
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
  /** Options of the 2026-07-28 handler. */
  readonly modernOptions?: R26.HttpHandlerOptions;
}

/** The router over the five servers (or those `options` keep), on `face`, listening on a free loopback port. */
export async function serveOneUrl(face: Face, options: OneUrlOptions = {}): Promise<OneUrl> {
  const errors: Error[] = [];
  const onError = (error: Error): void => void errors.push(error);
  const modern = modernServer(onError);
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
    ...(options.modern === false ? {} : { modern: R26.createHttpHandler(modern, { onError, ...options.modernOptions }) }),
    sessions: Object.fromEntries(served.map((revision) => [revision, sessions[revision]])),
    legacySse: R24.createLegacySseHandler(legacyServer, { onError }),
    onError,
  });
  const listening = await listen(face, router);
  return {
    face,
    url: listening.url,
    origin: listening.origin,
    http: listening.http,
    router,
    sessions,
    errors,
    close: async () => {
      await Promise.all(Object.values(sessions).map((handler) => handler.close()));
      await legacyServer.close().catch(() => undefined);
      await listening.close();
    },
  };
}

/** The text of a tools/call result's first content block (any revision's shape). */
export function firstText(result: unknown): string | undefined {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  return content?.[0]?.text;
}

// ---------------------------------------------------------------------------------------------
// At the wire

export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" } as const;

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** POSTs any body (an object is serialised) with exactly these headers. */
export function post(url: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
  return send(url, { method: "POST", headers, body: typeof body === "string" ? body : body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body) });
}

/** One HTTP/1.1 request through node:http with exactly these headers (beyond Host and Content-Length). */
export function raw(url: string, method: string, headers: Record<string, string>, body?: string | Uint8Array): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const request = httpRequest({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const out = new Headers();
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") out.set(name, value);
        resolve({ status: response.statusCode ?? 0, headers: out, text, json: parsed(text) });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}
