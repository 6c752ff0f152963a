// The edge tables (edge-run.ts): two targets of "One HTTP core at Node's own floor", one table
// each: the server's growth after 200 unauthenticated 4 MiB bodies at once (< 20 MiB of rss), and
// the time to refuse an unauthenticated nested body (< 50 ms at its worst depth).
import { fmt, renderTable, verdict } from "../table.js";
import { BODY_BYTES, MiB, NESTED_DEPTHS, NESTED_TRIES, WARM_REQUESTS, WARM_TRIES, type EdgeResults, type EdgeRow } from "./edge-run.js";
import { edgeLabel, GOOD_AUTHORIZATION, isEdgeFloor } from "./edge-servers.js";

/** The server's rss growth after the bodies, at most this many MiB (for TARGET_BODIES of them). */
export const TARGET_RSS_GROWTH_MIB: number = 20;
/** How many bodies the target speaks of (a scaled-down run sends fewer, and says so). */
export const TARGET_BODIES: number = 200;
/** The worst depth's refusal, in less than this many ms. */
export const TARGET_NESTED_MS: number = 50;

/** Signed MiB: growth can be negative (a collection freed more than the bodies left). */
const mib = (bytes: number): string => `${bytes < 0 ? "−" : "+"}${(Math.abs(bytes) / MiB).toFixed(1)} MiB`;
const growth = (row: EdgeRow, field: "rssBytes" | "heapBytes"): number => row.after[field] - row.before[field];

function bodiesTable(r: EdgeResults): string {
  const { bodies } = r.sizes;
  const scaled = bodies === TARGET_BODIES ? "" : ` (${fmt.count(TARGET_BODIES)} in the target)`;
  const rows = r.rows.map((row) => [
    edgeLabel(row.key),
    `${fmt.count(bodies)} of ${fmt.count(bodies)}`,
    fmt.count(row.read401),
    fmt.count(row.cutShort),
    `${(row.before.rssBytes / MiB).toFixed(1)} MiB`,
    mib(growth(row, "rssBytes")),
    mib(growth(row, "heapBytes")),
    isEdgeFloor(row.key) ? "" : verdict(`rss < ${TARGET_RSS_GROWTH_MIB} MiB${scaled}`, growth(row, "rssBytes") < TARGET_RSS_GROWTH_MIB * MiB),
  ]);
  const header = [`${fmt.count(bodies)} unauthenticated 4 MiB bodies at once`, "answered 401 (server)", "401 read (client)", "cut short by the server", "rss before", "rss growth", "heapUsed growth", "Target"];
  return renderTable(header, rows);
}

function nestedTable(r: EdgeResults): string {
  const rows = r.rows.map((row) => {
    const worst = Math.max(...row.nestedMs);
    return [edgeLabel(row.key), ...row.nestedMs.map((ms) => fmt.ms(ms, 1)), fmt.ms(worst, 1), fmt.count(row.nestedUnread), isEdgeFloor(row.key) ? "" : verdict(`< ${TARGET_NESTED_MS} ms`, worst < TARGET_NESTED_MS)];
  });
  const depths = NESTED_DEPTHS.map((depth) => `depth ${fmt.count(depth)}${depth === BODY_BYTES ? " (4 MiB)" : ""}`);
  const header = ["An unauthenticated nested body, refused", ...depths, "worst depth", "401s unread, not timed", "Target"];
  return renderTable(header, rows);
}

export function edgeReport(r: EdgeResults): string {
  const notes = [
    `Each server in its own process on 127.0.0.1, one at a time, behind an authenticate that admits only \`Authorization: ${GOOD_AUTHORIZATION}\` and answers anything else 401 before the body is read (lib/http/edge-servers.ts); the bench never sends that header. No SDK rows: the bench can serve SDK 2.x's handler and its auth gate only behind its own bridge, which reads every body whole first (lib/http/edge-servers.ts). The node:http floors (no MCP, no target) write the same 401 at once and then close the connection, as the native face does with a large body it has not read, or let node:http drain the body, as the web face's bridge does.`,
    "Requests over raw node:net sockets from the bench process, each on a fresh connection, a POST to /mcp declaring its whole size in Content-Length and writing all of it unless the server ends the connection first (cut short: EPIPE or ECONNRESET on the client, the rest of the body never read). Every request must be answered 401, else the bench stops with an error: by the server's own count of the statuses it sent, and by every status line the client read.",
    "401 read (client): a server that answers and closes while the body is still being written resets the connection, and net.Socket destroys itself on the failed write before reading the 401 that had arrived (a blocking client still reads it): a race of the client's, not the server's (lib/http/edge-run.ts, exchange).",
    `Bodies at once: a tools/call padded to 4 MiB (${fmt.count(BODY_BYTES)} bytes), all sent together after ${WARM_REQUESTS} small (1 KiB) unauthenticated requests; the server's rss and heapUsed after full collections (global.gc, twice) just before and once every connection has closed. Growth: after − before.`,
    `Nested bodies: \`[\` repeated to the depth (a 4 MiB one at the last), one connection at a time; the time from the first byte written to the status line read, the best of ${NESTED_TRIES} whose status line was read, after ${WARM_TRIES} untimed (tries whose 401 went unread are not timed, and counted); the Target is on the worst depth.`,
  ];
  return [bodiesTable(r), "", nestedTable(r), "", ...notes].join("\n");
}
