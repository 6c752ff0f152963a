// The cancel storm's platform floor: the AbortSignal and event work that the scenario itself
// implies, done with no protocol at all. Per call: the caller's AbortController and signal with
// one abort listener (the runtime's), the handler's AbortController and signal with the two
// listeners of the benchmark's slow tool, the caller's abort() (no reason: Node makes a
// DOMException), the handler side's abort(reason), and the rejection of the call's promise.
// No implementation can run the storm faster than this on the same machine.

export async function stormFloor(n: number): Promise<number> {
  const t0 = performance.now();
  const callers: AbortController[] = [];
  const calls: Promise<unknown>[] = [];
  let sawAbort = 0;
  for (let i = 0; i < n; i++) {
    const caller = new AbortController();
    const handler = new AbortController();
    callers.push(caller);
    const call = new Promise((_, reject) => {
      caller.signal.addEventListener("abort", () => handler.abort("Cancelled by the peer"), { once: true });
      handler.signal.addEventListener("abort", () => sawAbort++, { once: true });
      handler.signal.addEventListener("abort", () => reject(handler.signal.reason), { once: true });
    });
    calls.push(call.catch(() => {}));
  }
  for (const caller of callers) caller.abort();
  await Promise.all(calls);
  if (sawAbort !== n) throw new Error(`floor: ${sawAbort} of ${n} aborts seen`);
  return performance.now() - t0;
}
