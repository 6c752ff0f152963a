/**
 * Memory the tests can assert a bound on: bytes retained after a full collection (heap and array
 * buffers), not garbage that has yet to be collected. vitest does not start workers with
 * --expose-gc, so the flag is set at run time and `gc` taken from a fresh context.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/** Heap and array buffers still reachable, after a full collection. */
export function retained(): number {
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

export const MiB = 1024 * 1024;
