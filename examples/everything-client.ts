// The conformance client: `tsx examples/everything-client.ts <server-url>`, as the official suite
// runs it (`conformance client --command "tsx examples/everything-client.ts" --scenario NAME`).
// The suite appends the URL of the server it started and sets MCP_CONFORMANCE_SCENARIO (the
// scenario), MCP_CONFORMANCE_PROTOCOL_VERSION (2025-11-25 unless `--spec-version` says another)
// and, for some scenarios, MCP_CONFORMANCE_CONTEXT (a JSON object). Exit 0 when the scenario was
// played to its end, 1 otherwise (the reason on stderr).
import { SCENARIOS as SCENARIOS_2025, SCENARIOS_2025_03_26 } from "./everything-client/era-2025.js";
import { EXTENSION_SCENARIOS, SCENARIOS as SCENARIOS_2026 } from "./everything-client/era-2026.js";
import type { ScenarioContext, ScenarioTable } from "./everything-client/scenario.js";

/** The scenario table of each protocol version the suite may ask for. */
const ERAS: Readonly<Record<string, ScenarioTable>> = {
  "2025-03-26": SCENARIOS_2025_03_26,
  "2025-06-18": SCENARIOS_2025, // the same session client, initialize asking for 2025-06-18
  "2025-11-25": SCENARIOS_2025,
  "2026-07-28": SCENARIOS_2026,
};

function context(text: string | undefined): ScenarioContext {
  if (text === undefined || text === "") return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("MCP_CONFORMANCE_CONTEXT is not a JSON object");
  return value as ScenarioContext;
}

async function main(): Promise<void> {
  const url = process.argv.at(-1);
  if (url === undefined || !/^https?:\/\//.test(url)) throw new Error("usage: everything-client.ts <server-url>");
  const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "";
  const version = process.env["MCP_CONFORMANCE_PROTOCOL_VERSION"] ?? "2025-11-25";
  // An extension's scenarios run on the extension's base revision, whatever the version.
  const table = Object.hasOwn(EXTENSION_SCENARIOS, scenario) ? EXTENSION_SCENARIOS : ERAS[version];
  if (table === undefined) throw new Error(`protocol version ${version}: not one of ${Object.keys(ERAS).join(", ")}`);
  const run = Object.hasOwn(table, scenario) ? table[scenario] : undefined;
  if (run === undefined) throw new Error(`scenario "${scenario}" (${version}): not one of ${Object.keys(table).join(", ") || "(none yet)"}`);
  await run(url, context(process.env["MCP_CONFORMANCE_CONTEXT"]));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`everything-client: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
