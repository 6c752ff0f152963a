/**
 * Type-level guarantees of the HTTP API (checked by `tsc -p tsconfig.json`, not run): the handler
 * is a web-standard `(request: Request) => Promise<Response>` (its web face) that also has
 * `serveCall` (the core its native face serves), the node adapter plugs into node:http's
 * createServer as it is (with a runtime handler or a plain web function), the shared options and
 * `authenticate`'s request head are typed, only a server of a revision with the stateless HTTP
 * binding can be served, and openConnection gives a Connection.
 */
import { createServer } from "node:http";
import * as R from "../../../generated/2026-07-28/index.js";
import * as L from "../../../generated/2025-11-25/index.js";

const server = new R.McpServer({ serverInfo: { name: "s", version: "1" } });
const handler: (request: Request) => Promise<Response> = R.createHttpHandler(server, { maxBodyBytes: 1024, allowedHosts: ["example.com"] });
createServer(R.toNodeListener(R.createHttpHandler(new R.McpServer({}))));
createServer(R.toNodeListener(async (request: Request) => new Response(request.url)));
const served: R.ServedHandler = R.createHttpHandler(server);
const core: (call: R.HttpCall) => Promise<void> = served.serveCall;
const options: R.HttpHandlerOptions = { maxJsonDepth: 64, keepAliveMs: 0, maxStreamBufferBytes: 1024, authenticate: (head: R.HttpRequestHead) => ({ id: head.headers.get("x-user") ?? "anonymous" }) };
void handler;
void core;
void options;

// @ts-expect-error a plain web function has no core to serve natively
void ((async () => new Response()) satisfies R.HttpHandler as R.HttpHandler).serveCall;

// @ts-expect-error a 2025-11-25 server has no stateless HTTP binding to serve
R.createHttpHandler(new L.McpServer({}));

// @ts-expect-error the 2025-11-25 index has no createHttpHandler
void L.createHttpHandler;

// @ts-expect-error the options are checked
R.createHttpHandler(server, { maxBodyBytes: "1 MB" });

const [, end] = R.createInMemoryTransportPair();
const connection: R.Connection = server.openConnection(end);
const closed: Promise<void> = connection.close();
const counts: { readonly sent: number; readonly received: number } = connection.inFlight;
void closed;
void counts;
const legacy: L.Connection = new L.McpServer({}).openConnection(L.createInMemoryTransportPair()[1]);
void legacy;

// @ts-expect-error a client has no openConnection
void new R.McpClient({}).openConnection;

// @ts-expect-error serverInfoInResults is a boolean
new R.McpServer({ serverInfoInResults: "no" });
