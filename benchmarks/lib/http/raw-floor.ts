// The raw node:http floors: the least a server can do for the floor rows' tools/call, on Node's own
// objects. A plain `(req, res) => …` listener reads the body, JSON.parses it, and answers with
// JSON.stringify the same result our servers answer, with Content-Type and Content-Length: no MCP,
// and no Request, Response, Headers or ReadableStream (what the web floors of floor-http.ts and
// floor-session-http.ts pay for). Echo only: the storms keep their web floors.
// - 2026-07-28: every POST is a tools/call; the answer is ours byte for byte (resultType, content,
//   the serverInfo _meta).
// - 2025-11-25 with sessions: initialize answers ours's initialize result with a fresh
//   Mcp-Session-Id; every later request must name a known session (404 otherwise) and its answer
//   carries the session id, as ours's do; a notification is 202, DELETE ends the session.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { ECHO_RESULT, ECHO_RESULT_COMPLETE } from "../probe.js";

/** What our 2026-07-28 server answers to the echo call (ours-http.ts's serverInfo). */
const RESULT_2026 = { ...ECHO_RESULT_COMPLETE, _meta: { "io.modelcontextprotocol/serverInfo": { name: "bench-server", version: "1.0.0" } } };
/** What our 2025-11-25 session server answers to initialize (session-servers.ts's). */
const INITIALIZE_RESULT = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "bench-server", version: "1.0.0" } };

interface Message {
  readonly id?: unknown;
  readonly method?: unknown;
}

/** Reads the whole body and JSON.parses it. */
function readMessage(req: IncomingMessage, then: (message: Message) => void): void {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => then(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Message));
}

function answer(res: ServerResponse, id: unknown, result: object, headers: Readonly<Record<string, string>> = {}): void {
  const body = JSON.stringify({ jsonrpc: "2.0", id, result });
  res.writeHead(200, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export function rawFloorListener(): RequestListener {
  return (req, res) => readMessage(req, (message) => answer(res, message.id, RESULT_2026));
}

export function rawSessionFloorListener(): RequestListener {
  const sessions = new Set<string>();
  return (req, res) => {
    const header = req.headers["mcp-session-id"];
    if (typeof header !== "string") {
      readMessage(req, (message) => {
        if (message.method !== "initialize") {
          res.writeHead(400).end();
          return;
        }
        const sessionId = randomUUID();
        sessions.add(sessionId);
        answer(res, message.id, INITIALIZE_RESULT, { "mcp-session-id": sessionId });
      });
      return;
    }
    if (!sessions.has(header)) {
      req.resume();
      res.writeHead(404).end();
      return;
    }
    if (req.method === "DELETE") {
      sessions.delete(header);
      req.resume();
      res.writeHead(200).end();
      return;
    }
    readMessage(req, (message) => {
      if (message.id === undefined) res.writeHead(202, { "mcp-session-id": header }).end();
      else answer(res, message.id, ECHO_RESULT, { "mcp-session-id": header });
    });
  };
}
