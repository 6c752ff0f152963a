// The floor tables: tools/call per era, every side's requests per second and server CPU per call,
// each against the raw node:http floor and against SDK 2.x, and the targets of "Measure against
// Node's floor": ours (native face) within 1.5× the raw floor's CPU per call and at least 6× less
// than SDK 2.x's, at 16 and at 64 connections; the web face no slower than before the native face
// existed (within 1.1× of that run's distance to the raw floor).
import { costVsFloor, fmt, ratio, renderTable, verdict } from "../table.js";
import { HTTP_REVISION } from "./client.js";
import type { FloorFigure, FloorResults, FloorSide, FloorSizes } from "./floor-run.js";
import { SESSION_REVISION } from "./session-client.js";

/** Server CPU per tools/call, ours (native face), at most this many times the raw floor's. */
export const TARGET_VS_RAW_FLOOR = 1.5;
/** Server CPU per tools/call, ours (native face), at least this many times less than SDK 2.x's. */
export const TARGET_VS_SDK2 = 6;
/** The web face's distance to the raw floor, at most this many times what it was before the native face (WEB_BEFORE). */
export const TARGET_WEB_VS_BEFORE = 1.1;
/**
 * Ours ÷ the raw floor (server CPU per call) before the native face existed: this bench at
 * e4a15cc + the bench commits (the runtime's only path then was the web-standard one; both of its
 * rows, "native" and "web", went through it; the lower one is kept), on this VM, idle
 * (docs/benchmarks.md, "Before the native face"). A ratio rather than µs: it travels across
 * machines better than either figure alone.
 */
export const WEB_BEFORE: { readonly [era: string]: { readonly [connections: number]: number } } = {
  "2026": { 16: 8.75, 64: 9.17 },
  session: { 16: 4.9, 64: 5.52 },
};
/** The rows with targets: the server is saturated there (at 1 connection it mostly waits). */
export const TARGET_CONNECTIONS: readonly number[] = [16, 64];

const us = (x: number): string => `${x.toFixed(0)} µs`;

export function sideLabel(side: FloorSide, sdk2: string): string {
  switch (side) {
    case "rawFloor":
      return "raw floor (node:http, no MCP)";
    case "webFloor":
      return "web floor (Request/Response, no MCP)";
    case "oursNative":
      return "mcp-stubgen, native face";
    case "oursWeb":
      return "mcp-stubgen, web face";
    case "sdk2":
      return sdk2;
  }
}

/** The Target cell of a side's row at `connections`. */
function target(era: string, side: FloorSide, connections: number, cpu: FloorFigure): string {
  if (!TARGET_CONNECTIONS.includes(connections)) return "";
  const { rawFloor, oursNative, oursWeb, sdk2 } = cpu;
  if (side === "oursNative") {
    const nearFloor = oursNative !== undefined && rawFloor !== undefined && oursNative <= TARGET_VS_RAW_FLOOR * rawFloor;
    const belowSdk = oursNative !== undefined && sdk2 !== undefined && TARGET_VS_SDK2 * oursNative <= sdk2;
    return `${verdict(`≤ ${TARGET_VS_RAW_FLOOR}× raw floor`, nearFloor)}; ${verdict(`≥ ${TARGET_VS_SDK2}× less than 2.x`, belowSdk)}`;
  }
  if (side === "oursWeb") {
    const before = WEB_BEFORE[era]?.[connections];
    if (before === undefined || oursWeb === undefined || rawFloor === undefined) return "";
    const now = oursWeb / rawFloor;
    return verdict(`≤ ${TARGET_WEB_VS_BEFORE}× before (${(now / before).toFixed(2)}×: ${now.toFixed(2)}× floor, was ${before.toFixed(2)}×)`, now <= TARGET_WEB_VS_BEFORE * before);
  }
  return "";
}

export function floorReport(names: { readonly sdk2: string }, sizes: FloorSizes, r: FloorResults, runs: number): string {
  const revision = r.era === "2026" ? HTTP_REVISION : `${SESSION_REVISION}, a session per connection`;
  const rows = r.rows.flatMap((row) =>
    r.sides.map((side) => {
      const cpu = row.cpuUs[side];
      const rate = row.rate[side];
      return [
        `${row.connections} conn.: ${sideLabel(side, names.sdk2)}`,
        rate === undefined ? "n/a" : fmt.rate(rate),
        cpu === undefined ? "n/a" : us(cpu),
        costVsFloor(cpu, row.cpuUs.rawFloor, "lower"),
        side === "sdk2" || cpu === undefined || row.cpuUs.sdk2 === undefined ? "—" : ratio(cpu, row.cpuUs.sdk2, "lower"),
        target(r.era, side, row.connections, row.cpuUs),
      ];
    }),
  );
  const clientCpu = r.rows.flatMap((row) => Object.values(row.clientCpuUs));
  const header = [`tools/call against Node's floor (${revision})`, "requests/s", "server CPU per call", "÷ raw floor (CPU)", `× less CPU than ${names.sdk2}`, "Target"];
  const notes = [
    `${fmt.count(sizes.calls)} echo calls per run over N kept-alive connections (conn.), each sending its next call once the previous answer was read and checked; medians of ${runs} runs, the sides in rotating order.`,
    `Each server in its own process on 127.0.0.1; the load in a third process (lib/http/load.ts, a minimal HTTP/1.1 client on node:net: ${us(Math.min(...clientCpu))} to ${us(Math.max(...clientCpu))} of its CPU per call); the bench process only starts and reads them.`,
    "Server CPU per call: user + system time of the server process over the run (process.cpuUsage, asked over IPC just before and after) ÷ calls.",
    "raw floor: a plain node:http listener that JSON.parses the body and JSON.stringifies the same answer (lib/http/raw-floor.ts). web floor: the same with Request/Response behind the bench's bridge (lib/http/floor-http.ts, floor-session-http.ts).",
    "native face: toNodeListener(handler); web face: toNodeListener((request, info) => handler(request, info)), forced onto the web-standard path (lib/http/faces.ts). SDK 2.x behind the bench's bridge, as in the tables above.",
    `÷ raw floor: this row's CPU per call ÷ the raw floor's (1.00× is the floor). × less CPU than ${names.sdk2}: its CPU per call ÷ this row's.`,
    `Load average (1 min): ${r.load.before.toFixed(2)} before, ${r.load.after.toFixed(2)} after.`,
  ];
  return [renderTable(header, rows), "", ...notes].join("\n");
}
