// The session-era HTTP table: ours, SDK 1.x and SDK 2.x on 2025-11-25 with sessions, behind the
// same node:http bridge, with the no-MCP web floor (the raw node:http floor: floor-report.ts).
import { costVsFloor, fmt, ratio, renderTable } from "../table.js";
import { SESSION_REVISION } from "./session-client.js";
import { STORM_CALLS_PER_SESSION, STREAM_GRACE_MS } from "./session-scenarios.js";
import type { SessionFigure, SessionResults, SessionSizes } from "./session-run.js";

type Better = "higher" | "lower" | "none";

function row(measure: string, f: SessionFigure, format: (x: number) => string, better: Better): string[] {
  const versus = (sdk: number): string => (better === "none" ? "—" : ratio(f.ours, sdk, better));
  const overFloor = better === "none" ? "—" : costVsFloor(f.ours, f.floor, better);
  return [measure, format(f.ours), format(f.sdk1), format(f.sdk2), versus(f.sdk1), versus(f.sdk2), format(f.floor), overFloor];
}

export function sessionReport(names: { readonly ours: string; readonly sdk1: string; readonly sdk2: string }, sizes: SessionSizes, r: SessionResults): string {
  const k = fmt.count;
  const us = (x: number): string => `${x.toFixed(0)} µs`;
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
  const rows = [
    ...sizes.clients.flatMap((clients, i) => {
      const s = clients === 1 ? "" : "s";
      return [
        row(`tools/call, ${clients} client${s}, a session each (${k(sizes.calls)} calls)`, r.throughput[i] as SessionFigure, fmt.rate, "higher"),
        row(`tools/call, ${clients} client${s}: server CPU per call`, r.cpuPerCall[i] as SessionFigure, us, "lower"),
      ];
    }),
    row(`cancel storm, ${k(sizes.storm)} notifications/cancelled: → last handler abort`, r.stormMs, fmt.ms, "lower"),
    row("cancel storm: server CPU per cancelled call", r.stormCpu, us, "lower"),
    row("cancel storm: handlers that saw the abort", r.stormSawAbort, (x) => `${k(x)} / ${k(sizes.storm)}`, "none"),
    row(`cancel storm: streams left open ${STREAM_GRACE_MS / 1000} s after`, r.stormLeftOpen, k, "none"),
    row(`server heap per idle session (${k(sizes.idle)} sessions)`, r.idleBytes, kb, "lower"),
  ];
  const header = [`HTTP sessions (loopback, ${SESSION_REVISION})`, names.ours, names.sdk1, names.sdk2, `vs ${names.sdk1}`, `vs ${names.sdk2}`, "web floor (no MCP)", "cost vs web floor"];
  const notes = [
    `All rows on ${SESSION_REVISION} with sessions (Mcp-Session-Id); each server in its own process behind the same node:http bridge on 127.0.0.1; clients are fetch (undici) in the bench process.`,
    "Ours: createSessionHttpHandler (out/2025-11-25), defaults. SDK 1.x and 2.x: WebStandardStreamableHTTPServerTransport, one transport and McpServer per session, defaults (every request answered on an SSE stream).",
    `Storm: ${STORM_CALLS_PER_SESSION} slow calls per session, each mid-stream, then one notifications/cancelled POST per call, all at once; the clock runs from the first cancel to the last handler's abort listener.`,
    "vs columns: > 1 means mcp-stubgen is better (throughput: ours ÷ SDK; time, CPU and memory: SDK ÷ ours). cost vs web floor: ours ÷ web floor (lib/http/floor-session-http.ts, Request/Response, no MCP) for time, CPU and memory, web floor ÷ ours for throughput; 1.00× is the web floor.",
  ];
  return [renderTable(header, rows), "", ...notes].join("\n");
}
