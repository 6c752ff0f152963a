// The HTTP result table: ours and SDK 2.x on 2026-07-28 behind the same node:http bridge.
import { fmt, ratio, renderTable } from "../table.js";
import type { HttpFigure, HttpResults, HttpSizes } from "./run.js";
import { HTTP_REVISION } from "./client.js";

const MISSING = "n/a";

function cell(value: number | undefined, format: (x: number) => string): string {
  return value === undefined ? MISSING : format(value);
}

function row(measure: string, figure: HttpFigure, format: (x: number) => string, better: "higher" | "lower" | "none"): string[] {
  const { ours, sdk2, floor } = figure;
  const versus = better === "none" || ours === undefined || sdk2 === undefined ? "—" : ratio(ours, sdk2, better);
  return [measure, cell(ours, format), cell(sdk2, format), versus, cell(floor, format)];
}

export function httpReport(names: { readonly ours: string; readonly sdk2: string }, sizes: HttpSizes, r: HttpResults): string {
  const k = fmt.count;
  const us = (x: number): string => `${x.toFixed(0)} µs`;
  const rows = [
    ...sizes.clients.flatMap((clients, i) => [
      row(`tools/call, ${clients} concurrent client${clients === 1 ? "" : "s"} (${k(sizes.calls)} calls)`, r.throughput[i] ?? {}, fmt.rate, "higher"),
      row(`tools/call, ${clients} client${clients === 1 ? "" : "s"}: server CPU per call`, r.cpuPerCall[i] ?? {}, us, "lower"),
    ]),
    row(`cancel storm, ${k(sizes.storm)} streams: abort → last handler abort`, r.stormMs, fmt.ms, "lower"),
    row("cancel storm: server CPU per aborted stream", r.stormCpu, us, "lower"),
    row("cancel storm: handlers that saw the abort", r.stormSawAbort, (x) => `${k(x)} / ${k(sizes.storm)}`, "none"),
  ];
  const notes = [
    `All rows on ${HTTP_REVISION}; each server in its own process behind the same node:http bridge (lib/http/node-bridge.ts) on 127.0.0.1; clients are fetch (undici) in the bench process.`,
    `vs column: > 1 means mcp-stubgen is better (throughput: ours ÷ SDK; time and CPU: SDK ÷ ours).`,
    "Server CPU per call: user + system time of the server process over the run ÷ calls; the server's own cost even where the fetch clients are the bottleneck.",
    "floor: the same requests and streams answered with no MCP at all (lib/http/floor-http.ts): what fetch, node:http and the bridge cost. No server on this bridge beats it by more than the noise; the storm's wall time is mostly connection teardown, so there the noise can reorder the three.",
  ];
  if (!r.sides.includes("ours")) notes.push(`${MISSING}: out/2026-07-28 has no createHttpHandler (regenerate with the HTTP server templates).`);
  return [renderTable(["HTTP (loopback)", names.ours, names.sdk2, `vs ${names.sdk2}`, "floor (no MCP)"], rows), "", ...notes].join("\n");
}
