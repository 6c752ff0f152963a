// tools/call through a registered tool (issue 34): our McpServer.registerTool against SDK 2.x's
// McpServer.registerTool, with the same schema and the same arguments (registered-tool.ts),
// validation on and off, each side with its own client:
// - in memory over the benchmark's linked transport (JSON-encoded, as a pipe would carry it), on
//   2025-11-25 (the revision both speak with the initialize handshake);
// - over HTTP on 2026-07-28: each server in its own process behind the node:http bridge (the HTTP
//   part's structure, http/remote.ts, http/registered-servers.ts), the same fetch client against
//   both (http/client.ts callRegistered), HTTP_CLIENTS concurrent clients.
//
// Rows (calls per second, median of the runs):
//   on, JSON Schema   ours: the plain JSON Schema, checked by the built-in validator;
//   on, zod           ours: the zod schema, checked by zod's own validate (Standard Schema);
//                     SDK: the zod schema (v2 takes Standard Schemas only);
//   off               ours: `registrations: { validate: false }` with the JSON Schema;
//                     SDK: the tool registered without inputSchema (its only way to skip it).
//
// Part of `npm run bench` (benchmarks/sdk-compare.ts: in memory with the memory part, over HTTP
// with the http part), or alone:
//   node --expose-gc --import tsx benchmarks/lib/registrations.ts   (BENCH_RUNS, BENCH_SCALE as there)
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { McpServer as SdkServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as ours from "../../out/2025-11-25/index.js";
import { callRegistered } from "./http/client.js";
import type { RegisteredKey } from "./http/registered-servers.js";
import { RemoteServer } from "./http/remote.js";
import { packageVersion } from "./machine.js";
import { MAX_IN_FLIGHT } from "./ours.js";
import { ARGUMENTS, INPUT_JSON, INPUT_ZOD, RESULT, TOOL_NAME, VARIANTS, type Variant } from "./registered-tool.js";
import { collect, median } from "./stats.js";
import { fmt, ratio, renderTable } from "./table.js";
import { createLinkedPair } from "./transport.js";

type Call = () => Promise<unknown>;
interface Side {
  readonly call: Call;
  close(): Promise<void>;
}

async function oursSide(variant: Variant): Promise<Side> {
  const [clientSide, serverSide] = createLinkedPair("json");
  const server = new ours.McpServer({ logger: null, maxRequestsInFlight: MAX_IN_FLIGHT, registrations: { validate: variant !== "off" } });
  if (variant === "on, zod") server.registerTool(TOOL_NAME, { inputSchema: INPUT_ZOD }, () => RESULT);
  else server.registerTool(TOOL_NAME, { inputSchema: INPUT_JSON }, () => RESULT);
  const client = new ours.McpClient({ logger: null });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { call: () => client.callTool({ name: TOOL_NAME, arguments: ARGUMENTS }), close: () => client.close() };
}

async function sdkSide(variant: Variant): Promise<Side | undefined> {
  if (variant === "on, JSON Schema") return undefined; // SDK 2.x registers Standard Schemas only
  const [clientSide, serverSide] = createLinkedPair("json");
  const served = serveStdio(
    () => {
      const server = new SdkServer({ name: "bench-server", version: "1.0.0" });
      if (variant === "off") server.registerTool(TOOL_NAME, { description: "forecast" }, () => RESULT);
      else server.registerTool(TOOL_NAME, { description: "forecast", inputSchema: INPUT_ZOD }, () => RESULT);
      return server;
    },
    { transport: serverSide },
  );
  const client = new Client({ name: "bench-client", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    call: () => client.callTool({ name: TOOL_NAME, arguments: ARGUMENTS }),
    close: async () => {
      await client.close();
      await served.close();
    },
  };
}

/** `n` calls in flight at once; calls per second. */
async function rate(call: Call, n: number): Promise<number> {
  const t0 = performance.now();
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) calls.push(call());
  await Promise.all(calls);
  return n / ((performance.now() - t0) / 1000);
}

/** The median rate of `runs` fresh connections; undefined where the side has no such variant. */
async function measure(open: (variant: Variant) => Promise<Side | undefined>, variant: Variant, runs: number, n: number): Promise<number | undefined> {
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) {
    const side = await open(variant);
    if (side === undefined) return undefined;
    collect();
    // Every call is checked: a side that answers an error is no figure.
    const first = (await side.call()) as { isError?: boolean };
    if (first.isError === true) throw new Error(`${variant}: the call failed: ${JSON.stringify(first)}`);
    rates.push(await rate(side.call, n));
    await side.close();
  }
  return median(rates);
}

export interface RegistrationFigures {
  readonly calls: number;
  readonly runs: number;
  readonly rows: ReadonlyArray<{ readonly variant: Variant; readonly ours: number; readonly sdk: number | undefined }>;
}

export async function runRegistrations(runs: number, calls: number, log: (line: string) => void = () => {}): Promise<RegistrationFigures> {
  // Warm-up: every variant once, smaller, on both sides.
  for (const variant of VARIANTS) {
    await measure(oursSide, variant, 1, Math.max(10, Math.round(calls / 5)));
    await measure(sdkSide, variant, 1, Math.max(10, Math.round(calls / 5)));
  }
  const rows = [];
  for (const variant of VARIANTS) {
    log(`registered tools/call, validation ${variant}…`);
    rows.push({ variant, ours: (await measure(oursSide, variant, runs, calls)) as number, sdk: await measure(sdkSide, variant, runs, calls) });
  }
  return { calls, runs, rows };
}

export function registrationsReport(figures: RegistrationFigures): string {
  const sdk = `SDK ${packageVersion("@modelcontextprotocol/server")}`;
  const table = renderTable(
    ["tools/call through a registered tool (in memory, JSON pipe, 2025-11-25)", "ours", sdk, "ours ÷ SDK"],
    figures.rows.map(({ variant, ours: o, sdk: s }) => [
      `validation ${variant}`,
      fmt.rate(o),
      s === undefined ? "—" : fmt.rate(s),
      s === undefined ? "—" : ratio(o, s, "higher"),
    ]),
  );
  return `${table}\n\n${fmt.count(figures.calls)} calls in flight at once, medians of ${figures.runs} runs. SDK "on, zod" is its registerTool with the same zod schema; "off" is its tool without inputSchema; ours "on, zod" validates with zod's own validate.`;
}

// --- over HTTP (2026-07-28) -------------------------------------------------------------------

/** Concurrent clients of the HTTP rows (each sends its next call once the last was answered). */
export const HTTP_CLIENTS = 16;

/** The server process of each variant and side (http/registered-servers.ts); none: the side has no such variant. */
const HTTP_KEYS: Readonly<Record<Variant, { readonly ours: RegisteredKey; readonly sdk: RegisteredKey | undefined }>> = {
  "on, JSON Schema": { ours: "registered-ours-json", sdk: undefined },
  "on, zod": { ours: "registered-ours-zod", sdk: "registered-sdk2-zod" },
  off: { ours: "registered-ours-off", sdk: "registered-sdk2-off" },
};

/** `total` calls from HTTP_CLIENTS concurrent clients against `server`; calls per second. */
async function httpRate(server: RemoteServer, total: number): Promise<number> {
  let next = 0;
  const client = async (): Promise<void> => {
    for (let id = next++; id < total; id = next++) await callRegistered(server.url, id, TOOL_NAME, ARGUMENTS);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: HTTP_CLIENTS }, client));
  return total / ((performance.now() - t0) / 1000);
}

/**
 * The HTTP rows: per variant, ours and the SDK's server processes started together, a warm-up,
 * then `runs` runs taking turns between them (ours first on even runs, the SDK first on odd),
 * medians; the processes stop before the next variant starts (a shared machine runs two at a time).
 */
export async function runRegistrationsHttp(runs: number, calls: number, log: (line: string) => void = () => {}): Promise<RegistrationFigures> {
  const rows = [];
  for (const variant of VARIANTS) {
    log(`HTTP: registered tools/call, validation ${variant}…`);
    const keys = HTTP_KEYS[variant];
    const oursServer = await RemoteServer.start(keys.ours);
    const sdkServer = keys.sdk === undefined ? undefined : await RemoteServer.start(keys.sdk);
    try {
      const sides = sdkServer === undefined ? [oursServer] : [oursServer, sdkServer];
      for (const server of sides) await httpRate(server, Math.max(HTTP_CLIENTS, Math.round(calls / 5)));
      const rates = new Map<RemoteServer, number[]>(sides.map((server) => [server, []]));
      for (let run = 0; run < runs; run++) {
        for (const server of run % 2 === 0 ? sides : [...sides].reverse()) {
          collect();
          rates.get(server)?.push(await httpRate(server, calls));
        }
      }
      rows.push({ variant, ours: median(rates.get(oursServer) ?? []), sdk: sdkServer === undefined ? undefined : median(rates.get(sdkServer) ?? []) });
    } finally {
      await Promise.all([oursServer.stop(), sdkServer?.stop()]);
    }
  }
  return { calls, runs, rows };
}

export function registrationsHttpReport(figures: RegistrationFigures): string {
  const sdk = `SDK ${packageVersion("@modelcontextprotocol/server")}`;
  const table = renderTable(
    ["tools/call through a registered tool (HTTP, node:http on loopback, 2026-07-28)", "ours", sdk, "ours ÷ SDK"],
    figures.rows.map(({ variant, ours: o, sdk: s }) => [`validation ${variant}`, fmt.rate(o), s === undefined ? "—" : fmt.rate(s), s === undefined ? "—" : ratio(o, s, "higher")]),
  );
  return `${table}\n\n${fmt.count(figures.calls)} calls from ${HTTP_CLIENTS} concurrent fetch clients, each server in its own process (ours: createHttpHandler; SDK: createMcpHandler, a server per request), medians of ${figures.runs} runs; variants as in memory.`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5));
  const scale = Number(process.env["BENCH_SCALE"] ?? 1) > 0 ? Number(process.env["BENCH_SCALE"] ?? 1) : 1;
  const log = (line: string): void => void process.stderr.write(`${line}\n`);
  const figures = await runRegistrations(runs, Math.max(10, Math.round(5_000 * scale)), log);
  const http = await runRegistrationsHttp(runs, Math.max(HTTP_CLIENTS, Math.round(2_000 * scale)), log);
  console.log(registrationsReport(figures));
  console.log(`\n${registrationsHttpReport(http)}`);
}
