// The edge rows: what unauthenticated requests with large bodies cost our servers
// (edge-servers.ts, each in its own process, child.ts), for two targets of "One HTTP core at
// Node's own floor": 200 unauthenticated 4 MiB bodies grow the server by < 20 MiB, and an
// unauthenticated nested body is refused in < 50 ms whatever its depth. The requests go over raw
// node:net sockets from the bench process, so that the whole body is really written (a client
// library would stop at the first answer, or buffer) and the first bytes are timed, not a
// client's parsing. Every request must be answered 401: any other status is an error, not a figure.
import { connect, type Socket } from "node:net";
import { EDGE_ROWS, type EdgeServerKey } from "./edge-servers.js";
import { requestHead } from "./keep-alive.js";
import { RemoteServer } from "./remote.js";

export const MiB: number = 1024 * 1024;
/** The size of every body of the memory measure, and the deepest nesting: the handlers' default maxBodyBytes. */
export const BODY_BYTES: number = 4 * MiB;
/** Depths of the nested bodies (`[` repeated, sent in full); the last is a whole 4 MiB of it. */
export const NESTED_DEPTHS: readonly number[] = [1_000, 100_000, BODY_BYTES];
/** Timed tries per depth whose status line the client read (the best is kept: the machine is shared), after WARM_TRIES untimed ones. */
export const NESTED_TRIES: number = 3;
export const WARM_TRIES: number = 2;
/** At most this many tries per depth to get NESTED_TRIES read status lines (see exchange: some answers go unread). */
const MAX_TRIES = NESTED_TRIES * 5;
/** Small unauthenticated requests before the first memory reading, so that it is of a server that has run its 401 path. */
export const WARM_REQUESTS: number = 10;
/** The body goes out in writes of this size, a turn of the event loop between them (writeBody). */
const CHUNK_BYTES = 64 * 1024;
/** Longest a single exchange may take before it counts as a failure. */
const EXCHANGE_TIMEOUT_MS = 60_000;
/** A pause before reading the server (its memory, its statuses) after the last connection closed: its close callbacks run. */
const SETTLE_MS = 200;

export interface EdgeSizes {
  /** Unauthenticated 4 MiB bodies sent at once (200 in the target). */
  readonly bodies: number;
}

export interface Memory {
  readonly rssBytes: number;
  readonly heapBytes: number;
}

export interface EdgeRow {
  readonly key: EdgeServerKey;
  /** The server's memory after full collections, before and after the bodies. */
  readonly before: Memory;
  readonly after: Memory;
  /** Of the bodies, those whose 401 the client read (the server's tally says all were answered 401). */
  readonly read401: number;
  /** Of the bodies, those the server ended the connection on before the whole body was written (EPIPE, ECONNRESET): bodies it did not read. */
  readonly cutShort: number;
  /** The best of NESTED_TRIES per depth, in NESTED_DEPTHS order: ms from the first byte written to the status line read. */
  readonly nestedMs: readonly number[];
  /** Tries of the nested bodies (all depths) the server answered 401 but whose status line the client could not read, and so were not timed. */
  readonly nestedUnread: number;
}

export interface EdgeResults {
  readonly sizes: EdgeSizes;
  readonly rows: readonly EdgeRow[];
}

interface Exchange {
  /** The response's status (0: the connection ended before the client read a status line). */
  readonly status: number;
  /** From the first byte written to the status line read (ms; NaN without one). */
  readonly statusMs: number;
  /** Why the body was not all written, when the server ended the connection first ("EPIPE", "ECONNRESET"); else undefined. */
  readonly cutShort: string | undefined;
}

const errorCode = (error: Error): string => (error as NodeJS.ErrnoException).code ?? error.message;
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

/**
 * Runs `then` once the event loop has polled for I/O: two setImmediates, since one queued from an
 * I/O callback (a connect, a drain) runs in the same turn's check phase, before the next poll.
 */
const afterPoll = (then: () => void): void => void setImmediate(() => setImmediate(then));

/**
 * Writes `body` in CHUNK_BYTES writes, each after a poll for I/O (and a drain when the socket's
 * buffer is full), then calls `written`; nothing more once the socket is gone (see exchange).
 */
function writeBody(socket: Socket, body: Uint8Array, written: () => void): void {
  let offset = 0;
  const next = (): void => {
    if (socket.destroyed) return;
    if (offset >= body.byteLength) return written();
    const part = body.subarray(offset, (offset += CHUNK_BYTES));
    if (socket.write(part)) afterPoll(next);
    else socket.once("drain", () => afterPoll(next));
  };
  afterPoll(next);
}

/**
 * One unauthenticated POST of `body` (Content-Length its size) on a fresh connection, written in
 * full unless the server ends the connection first. Resolves once the connection has closed: we
 * end our side after the status line and the last byte written, and the server ends its own.
 *
 * A server that answers while the body is still being written and then closes (the native face
 * does, rather than read a body it refused) resets the connection; the client's next write then
 * fails, and net.Socket destroys itself on a failed write, dropping the 401 that had arrived but
 * was not read yet (a blocking client reads it after the EPIPE; Node's cannot). One write of the
 * whole body loses most of them (libuv retries the rest at once, before it polls); writeBody's
 * chunks, with a poll for I/O before each, lose few, but it stays a race: answers that go unread
 * count by the server's own tally (edgeStatuses), and only tries whose status line was read are timed.
 */
function exchange(url: URL, body: Uint8Array): Promise<Exchange> {
  const head = `${requestHead("POST", url, { "content-type": "application/json", accept: "application/json, text/event-stream" })}content-length: ${body.byteLength}\r\n\r\n`;
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let started = 0;
    let received = "";
    let status = 0;
    let statusMs = Number.NaN;
    let written = false;
    let cutShort: string | undefined;
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${EXCHANGE_TIMEOUT_MS} ms`)), EXCHANGE_TIMEOUT_MS);
    // A kept-alive connection (the web face drains the body) is ours to end; a closed one is ended already.
    const endOnceDone = (): void => void (status !== 0 && written && !socket.destroyed && socket.end());
    socket.on("connect", () => {
      started = performance.now();
      socket.write(head);
      writeBody(socket, body, () => {
        written = true;
        endOnceDone();
      });
    });
    socket.on("data", (chunk: Buffer) => {
      if (status !== 0) return;
      received += chunk.toString("latin1");
      const lineEnd = received.indexOf("\r\n");
      if (lineEnd < 0) return;
      statusMs = performance.now() - started;
      // "HTTP/1.1 401 Unauthorized"
      status = Number(received.slice(9, 12)) || -1;
      endOnceDone();
    });
    // The server refusing the rest of the body (it closed after its 401) is expected: EPIPE, ECONNRESET.
    socket.on("error", (error) => void (cutShort ??= errorCode(error)));
    socket.on("close", () => {
      clearTimeout(timer);
      // Closed with the body not all written, and no error said why: cut short all the same.
      resolve({ status, statusMs, cutShort: written ? cutShort : (cutShort ?? "closed") });
    });
  });
}

/** The server's tally after `run`, less the one before: what it answered to `run`'s requests. */
async function answeredTo<T>(server: RemoteServer, run: () => Promise<T>): Promise<[T, Readonly<Record<string, number>>]> {
  const before = await server.statuses();
  const result = await run();
  await settle();
  const after = await server.statuses();
  const delta: Record<string, number> = {};
  for (const [status, count] of Object.entries(after)) if (count !== (before[status] ?? 0)) delta[status] = count - (before[status] ?? 0);
  return [result, delta];
}

/**
 * Throws unless every exchange was answered 401: a wrong status (or none) is a broken server, not
 * a figure. The server's tally must be one 401 per exchange and nothing else; a status line the
 * client read must be 401; one it did not read must be of a connection the server cut short.
 */
function all401(label: string, what: string, exchanges: readonly Exchange[], served: Readonly<Record<string, number>>): void {
  const problems: string[] = [];
  const wrong = exchanges.filter((e) => e.status !== 0 && e.status !== 401);
  if (wrong.length > 0) problems.push(`the client read ${wrong.map((e) => e.status).join(", ")}`);
  const silent = exchanges.filter((e) => e.status === 0 && e.cutShort === undefined);
  if (silent.length > 0) problems.push(`${silent.length} closed with no status line and no error`);
  const others = Object.entries(served).filter(([status]) => status !== "401");
  if (others.length > 0 || served["401"] !== exchanges.length) {
    problems.push(`the server answered ${JSON.stringify(served)} to ${exchanges.length} requests`);
  }
  if (problems.length > 0) throw new Error(`edge, ${label}: ${what} not all answered 401: ${problems.join("; ")}`);
}

/** A tools/call whose one argument pads it to exactly `bytes`: a plausible body, never parsed (nothing is, unauthenticated). */
function paddedCall(bytes: number): Buffer {
  const open = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"pad":"';
  const close = '"}}}';
  return Buffer.from(`${open}${"x".repeat(bytes - open.length - close.length)}${close}`);
}

/** Exchanges one after another until `enough` says stop (or `max` of them). */
async function sequentially(max: number, run: () => Promise<Exchange>, enough: (done: readonly Exchange[]) => boolean = () => false): Promise<Exchange[]> {
  const done: Exchange[] = [];
  while (done.length < max && !enough(done)) done.push(await run());
  return done;
}

/** Memory before and after `bodies` unauthenticated 4 MiB POSTs at once (one shared buffer: the bench process holds 4 MiB, not 800). */
async function bodiesAtOnce(server: RemoteServer, bodies: number): Promise<Pick<EdgeRow, "before" | "after" | "read401" | "cutShort">> {
  const url = new URL(server.url);
  const warm = paddedCall(1024);
  all401(server.side, "small warm-up bodies", ...(await answeredTo(server, () => sequentially(WARM_REQUESTS, () => exchange(url, warm)))));
  const before = await server.memory();
  const body = paddedCall(BODY_BYTES);
  const [exchanges, served] = await answeredTo(server, () => Promise.all(Array.from({ length: bodies }, () => exchange(url, body))));
  all401(server.side, "4 MiB bodies", exchanges, served);
  // answeredTo waited SETTLE_MS after the last connection closed: the server has run its close callbacks.
  const after = await server.memory();
  return { before, after, read401: exchanges.filter((e) => e.status === 401).length, cutShort: exchanges.filter((e) => e.cutShort !== undefined).length };
}

/** The best of NESTED_TRIES read status lines per depth, after WARM_TRIES untimed tries; and how many answers went unread. */
async function nestedRefusals(server: RemoteServer): Promise<Pick<EdgeRow, "nestedMs" | "nestedUnread">> {
  const url = new URL(server.url);
  const nestedMs: number[] = [];
  let nestedUnread = 0;
  for (const depth of NESTED_DEPTHS) {
    const body = Buffer.alloc(depth, "[");
    all401(server.side, `warm-up bodies nested ${depth} deep`, ...(await answeredTo(server, () => sequentially(WARM_TRIES, () => exchange(url, body)))));
    const timedEnough = (done: readonly Exchange[]): boolean => done.filter((e) => e.status !== 0).length >= NESTED_TRIES;
    const [tries, served] = await answeredTo(server, () => sequentially(MAX_TRIES, () => exchange(url, body), timedEnough));
    all401(server.side, `bodies nested ${depth} deep`, tries, served);
    const timed = tries.filter((e) => e.status === 401);
    if (timed.length < NESTED_TRIES) throw new Error(`edge, ${server.side}: ${MAX_TRIES} tries at depth ${depth}, only ${timed.length} status lines read`);
    nestedUnread += tries.length - timed.length;
    nestedMs.push(Math.min(...timed.map((e) => e.statusMs)));
  }
  return { nestedMs, nestedUnread };
}

/** Each row's server in turn, alone on the machine (its own process, started for it and stopped after). */
export async function runEdge(sizes: EdgeSizes, log: (line: string) => void): Promise<EdgeResults> {
  const rows: EdgeRow[] = [];
  for (const key of EDGE_ROWS) {
    const server = await RemoteServer.start(key);
    try {
      log(`edge, ${key}: ${sizes.bodies} unauthenticated 4 MiB bodies at once…`);
      const memory = await bodiesAtOnce(server, sizes.bodies);
      log(`edge, ${key}: unauthenticated nested bodies…`);
      rows.push({ key, ...memory, ...(await nestedRefusals(server)) });
    } finally {
      await server.stop();
    }
  }
  return { sizes, rows };
}
