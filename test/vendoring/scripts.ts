/**
 * The consumer scripts the vendoring tests run in a child Node: import the generated index,
 * connect a client and a server over createInMemoryTransportPair(), ping, start a tools/call
 * the server handles slowly, abort it, and print one JSON line with what happened and every
 * message each side sent (the wire).
 */

/** What a consumer script prints. */
export interface ScriptReport {
  readonly node: string;
  readonly pong: unknown;
  readonly error: { readonly name: string; readonly isRequestCancelledError: boolean };
  readonly serverSawAbort: string;
  readonly wire: ReadonlyArray<{ readonly from: "client" | "server"; readonly message: Record<string, unknown> }>;
}

/**
 * The script's source. `typed` adds TypeScript annotations (for Node's type stripping);
 * without it the script is plain JavaScript.
 */
export function pingAndCancelScript(indexSpecifier: string, typed: boolean): string {
  const t = (annotation: string) => (typed ? annotation : "");
  return [
    `import { McpClient, McpServer, RequestCancelledError, createInMemoryTransportPair${typed ? ", type Transport" : ""} } from ${JSON.stringify(indexSpecifier)};`,
    "",
    `const wire${t(": Array<{ from: string; message: unknown }>")} = [];`,
    `const tap = (transport${t(": Transport")}, from${t(": string")}) => {`,
    "  const send = transport.send.bind(transport);",
    "  transport.send = (message, options) => {",
    "    wire.push({ from, message: structuredClone(message) });",
    "    return send(message, options);",
    "  };",
    "};",
    "const [clientEnd, serverEnd] = createInMemoryTransportPair();",
    'tap(clientEnd, "client");',
    'tap(serverEnd, "server");',
    "",
    `let started${t(": () => void")} = () => {};`,
    `const handlerStarted = new Promise${t("<void>")}((resolve) => (started = resolve));`,
    `let sawAbort${t(": (reason: string) => void")} = () => {};`,
    `const serverSawAbort = new Promise${t("<string>")}((resolve) => (sawAbort = resolve));`,
    "const server = new McpServer({",
    "  logger: null,",
    "  handlers: {",
    '    "tools/call": (_params, ctx) =>',
    "      new Promise((_resolve, reject) => {",
    "        started();",
    '        ctx.signal.addEventListener("abort", () => {',
    "          sawAbort(String(ctx.signal.reason));",
    "          reject(ctx.signal.reason);",
    "        });",
    "      }),",
    "  },",
    "});",
    "const client = new McpClient({ logger: null });",
    "await server.connect(serverEnd);",
    "await client.connect(clientEnd, { initialize: false });",
    "",
    "const pong = await client.ping();",
    "const controller = new AbortController();",
    'const call = client.callTool({ name: "slow", arguments: {} }, { signal: controller.signal });',
    "await handlerStarted;",
    'controller.abort("user gave up");',
    `let error${t(": unknown")};`,
    "try {",
    "  await call;",
    "} catch (caught) {",
    "  error = caught;",
    "}",
    "const reason = await serverSawAbort;",
    "await new Promise((resolve) => setTimeout(resolve, 20)); // anything late would show on the wire",
    "await client.close();",
    "console.log(",
    "  JSON.stringify({",
    "    node: process.version,",
    "    pong,",
    `    error: { name: (error${t(" as Error")}).name, isRequestCancelledError: error instanceof RequestCancelledError },`,
    "    serverSawAbort: reason,",
    "    wire,",
    "  }),",
    ");",
    "",
  ].join("\n");
}

/** The wire every consumer script must produce: ping and its result, the call, one cancel, no response to the call. */
export const EXPECTED_WIRE: ScriptReport["wire"] = [
  { from: "client", message: { jsonrpc: "2.0", id: 1, method: "ping" } },
  { from: "server", message: { jsonrpc: "2.0", id: 1, result: {} } },
  { from: "client", message: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: {} } } },
  { from: "client", message: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "user gave up" } } },
];
