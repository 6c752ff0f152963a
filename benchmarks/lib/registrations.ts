// tools/call through a registered tool (issue 34): our McpServer.registerTool against SDK 2.x's
// McpServer.registerTool, with the same schema and the same arguments, validation on and off,
// in memory over the benchmark's linked transport (JSON-encoded, as a pipe would carry it), each
// side with its own client on 2025-11-25 (the revision both speak with the initialize handshake).
//
// Rows (calls per second, N calls in flight at once, median of the runs):
//   on, JSON Schema   ours: the plain JSON Schema, checked by the built-in validator;
//   on, zod           ours: the zod schema, checked by zod's own validate (Standard Schema);
//                     SDK: the zod schema (v2 takes Standard Schemas only);
//   off               ours: `registrations: { validate: false }` with the JSON Schema;
//                     SDK: the tool registered without inputSchema (its only way to skip it).
//
// Part of `npm run bench` (benchmarks/sdk-compare.ts), or alone:
//   node --import tsx benchmarks/lib/registrations.ts   (BENCH_RUNS, BENCH_SCALE as there)
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { McpServer as SdkServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";
import * as ours from "../../out/2025-11-25/index.js";
import { packageVersion } from "./machine.js";
import { collect, median } from "./stats.js";
import { fmt, ratio, renderTable } from "./table.js";
import { createLinkedPair } from "./transport.js";

/** The tool's arguments schema, as JSON Schema and as zod: the same constraints. */
const INPUT_JSON = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1, maxLength: 64 },
    days: { type: "integer", minimum: 1, maximum: 7 },
    units: { enum: ["c", "f"] },
    tags: { type: "array", items: { type: "string", maxLength: 16 }, maxItems: 8 },
  },
  required: ["city", "days"],
  additionalProperties: false,
} as const;
const INPUT_ZOD = z
  .object({
    city: z.string().min(1).max(64),
    days: z.number().int().min(1).max(7),
    units: z.enum(["c", "f"]).optional(),
    tags: z.array(z.string().max(16)).max(8).optional(),
  })
  .strict();
const ARGUMENTS = { city: "Oslo", days: 3, units: "c", tags: ["coast", "north"] };
const RESULT = { content: [{ type: "text" as const, text: "ok" }] };

type Call = () => Promise<unknown>;
interface Side {
  readonly call: Call;
  close(): Promise<void>;
}
type Variant = "on, JSON Schema" | "on, zod" | "off";

async function oursSide(variant: Variant): Promise<Side> {
  const [clientSide, serverSide] = createLinkedPair("json");
  const server = new ours.McpServer({ logger: null, registrations: { validate: variant !== "off" } });
  if (variant === "on, zod") server.registerTool("forecast", { inputSchema: INPUT_ZOD }, () => RESULT);
  else server.registerTool("forecast", { inputSchema: INPUT_JSON }, () => RESULT);
  const client = new ours.McpClient({ logger: null });
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { call: () => client.callTool({ name: "forecast", arguments: ARGUMENTS }), close: () => client.close() };
}

async function sdkSide(variant: Variant): Promise<Side | undefined> {
  if (variant === "on, JSON Schema") return undefined; // SDK 2.x registers Standard Schemas only
  const [clientSide, serverSide] = createLinkedPair("json");
  const served = serveStdio(
    () => {
      const server = new SdkServer({ name: "bench-server", version: "1.0.0" });
      if (variant === "off") server.registerTool("forecast", { description: "forecast" }, () => RESULT);
      else server.registerTool("forecast", { description: "forecast", inputSchema: INPUT_ZOD }, () => RESULT);
      return server;
    },
    { transport: serverSide },
  );
  const client = new Client({ name: "bench-client", version: "1.0.0" });
  await client.connect(clientSide);
  return {
    call: () => client.callTool({ name: "forecast", arguments: ARGUMENTS }),
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

const VARIANTS: readonly Variant[] = ["on, JSON Schema", "on, zod", "off"];

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

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const runs = Math.max(1, Number(process.env["BENCH_RUNS"] ?? 5));
  const scale = Number(process.env["BENCH_SCALE"] ?? 1) > 0 ? Number(process.env["BENCH_SCALE"] ?? 1) : 1;
  const figures = await runRegistrations(runs, Math.max(10, Math.round(5_000 * scale)), (line) => process.stderr.write(`${line}\n`));
  console.log(registrationsReport(figures));
}
