// The session-era HTTP workloads (2025-11-25 Streamable HTTP with sessions): echo calls from N
// concurrent clients with a session each, a cancel storm by notifications/cancelled, and the
// server's memory per idle session.
import { within } from "../stats.js";
import { epochNow } from "./ipc.js";
import type { RemoteServer } from "./remote.js";
import type { ThroughputResult } from "./scenarios.js";
import { callEchoInSession, cancelInSession, closeSession, openSession, openSlowInSession } from "./session-client.js";

/**
 * Slow calls per session in the storm: under our default maxInFlightPerSession (64), so the
 * storm spreads over several sessions as many clients would.
 */
export const STORM_CALLS_PER_SESSION = 50;
/** How long after the last handler's abort a stream may take to end before it counts as left open (ms). */
export const STREAM_GRACE_MS = 1000;
/** Sessions opened at once while filling the server for the memory row. */
const OPENING_CONCURRENCY = 16;

/** n sessions, opened `concurrency` at a time (not timed). */
async function openSessions(server: RemoteServer, n: number, concurrency = OPENING_CONCURRENCY): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const opener = async (): Promise<void> => {
    for (let i = next++; i < n; i = next++) ids[i] = await openSession(server.url);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, opener));
  return ids;
}

async function closeSessions(server: RemoteServer, ids: readonly string[]): Promise<void> {
  let next = 0;
  const closer = async (): Promise<void> => {
    for (let i = next++; i < ids.length; i = next++) await closeSession(server.url, ids[i] as string);
  };
  await Promise.all(Array.from({ length: Math.min(OPENING_CONCURRENCY, ids.length) }, closer));
}

/**
 * `total` echo calls made by `clients` concurrent clients, each on its own session (opened before
 * the clock starts, ended after it stops), each sending its next request once the previous one
 * was answered.
 */
export async function sessionEchoThroughput(server: RemoteServer, clients: number, total: number): Promise<ThroughputResult> {
  const sessions = await openSessions(server, clients);
  let next = 0;
  const client = async (sessionId: string): Promise<void> => {
    for (let id = next++; id < total; id = next++) await callEchoInSession(server.url, sessionId, id + 1);
  };
  const cpu0 = await server.cpuUs();
  const t0 = performance.now();
  await Promise.all(sessions.map(client));
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = await server.cpuUs();
  await closeSessions(server, sessions);
  return { rate: total / seconds, cpuUs: (cpu1 - cpu0) / total };
}

export interface SessionStormResult {
  /** From the first cancel sent to the last handler's abort listener (ms). */
  readonly ms: number;
  /** Handlers whose signal fired within 5 s. */
  readonly sawAbort: number;
  /** The server process's CPU time from just before the cancels to the last handler's abort, per cancelled call (µs). */
  readonly cpuUs: number;
  /** Response streams of cancelled calls the server had not ended STREAM_GRACE_MS after the last abort. */
  readonly leftOpen: number;
}

/**
 * k slow calls (each with a progressToken, so its answer is an event stream), spread over
 * sessions of STORM_CALLS_PER_SESSION; once every one is mid-stream, a notifications/cancelled
 * POST for each, all at once, on its session. Measures the time until the last handler saw its
 * signal abort, and counts the streams left open after (2025-11-25 cancellation: the server
 * sends no response to a cancelled request; whether it ends the request's stream is up to it).
 * Streams left open are then aborted by the client and the sessions ended.
 */
export async function sessionCancelStorm(server: RemoteServer, k: number): Promise<SessionStormResult> {
  await server.reset();
  const sessions = await openSessions(server, Math.ceil(k / STORM_CALLS_PER_SESSION));
  const sessionOf = (i: number): string => sessions[i % sessions.length] as string;
  const controllers = Array.from({ length: k }, () => new AbortController());
  const streams = await Promise.all(controllers.map((controller, i) => openSlowInSession(server.url, sessionOf(i), i + 1, controller.signal)));
  const cpu0 = await server.cpuUs();
  const t0 = epochNow();
  await Promise.all(controllers.map((_, i) => cancelInSession(server.url, sessionOf(i), i + 1)));
  const report = await server.untilAborted(k, 5000);
  await within(Promise.all(streams.map((s) => s.ended)).then(() => {}), STREAM_GRACE_MS);
  const leftOpen = streams.filter((s) => !s.endedByServer()).length;
  for (const controller of controllers) controller.abort();
  await Promise.all(streams.map((s) => s.ended));
  await closeSessions(server, sessions);
  return { ms: report.aborted === 0 ? NaN : report.lastAbortAt - t0, sawAbort: report.aborted, cpuUs: (report.cpuUs - cpu0) / k, leftOpen };
}

/** The server's heap growth per idle session (bytes): n sessions opened and left alone, then ended. */
export async function idleSessionMemory(server: RemoteServer, n: number): Promise<number> {
  const before = await server.heapBytes();
  const sessions = await openSessions(server, n);
  const after = await server.heapBytes();
  await closeSessions(server, sessions);
  return (after - before) / n;
}
