// The HTTP workloads: echo calls from N concurrent clients, and the cancel storm over HTTP.
import { callEcho, openSlow } from "./client.js";
import { epochNow } from "./ipc.js";
import type { RemoteServer } from "./remote.js";

export interface ThroughputResult {
  /** Requests per second. */
  readonly rate: number;
  /** The server process's CPU time per request (µs): its cost, whoever the bottleneck is. */
  readonly cpuUs: number;
}

/**
 * `total` echo calls made by `clients` concurrent clients, each sending its next request once the
 * previous one was answered (all share fetch's connection pool).
 */
export async function echoThroughput(server: RemoteServer, clients: number, total: number): Promise<ThroughputResult> {
  let next = 0;
  const client = async (): Promise<void> => {
    for (let id = next++; id < total; id = next++) await callEcho(server.url, id);
  };
  const cpu0 = await server.cpuUs();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: clients }, client));
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = await server.cpuUs();
  return { rate: total / seconds, cpuUs: (cpu1 - cpu0) / total };
}

export interface HttpStormResult {
  /** From the clients' aborts to the last handler's abort listener (ms). */
  readonly ms: number;
  /** Handlers whose signal fired within 5 s. */
  readonly sawAbort: number;
  /** The server process's CPU time from just before the aborts to the last handler's abort, per stream (µs). */
  readonly cpuUs: number;
}

/**
 * k slow calls at once; once every one of them is mid-stream (its handler's progress event has
 * arrived), every client aborts its fetch (controller.abort(), no reason), which closes its
 * connection. Measures the time until the last handler saw its signal abort.
 */
export async function httpCancelStorm(server: RemoteServer, k: number): Promise<HttpStormResult> {
  await server.reset();
  const controllers = Array.from({ length: k }, () => new AbortController());
  const open = await Promise.all(controllers.map((controller, id) => openSlow(server.url, id, controller.signal)));
  const cpu0 = await server.cpuUs();
  const t0 = epochNow();
  for (const controller of controllers) controller.abort();
  const report = await server.untilAborted(k, 5000);
  await Promise.all(open.map((call) => call.ended));
  return { ms: report.aborted === 0 ? NaN : report.lastAbortAt - t0, sawAbort: report.aborted, cpuUs: (report.cpuUs - cpu0) / k };
}
