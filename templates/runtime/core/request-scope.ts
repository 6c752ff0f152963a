// The principal of the request whose handler is running now: set around the synchronous part of
// a handler's call (the server facade does it when it has a task manager; the registry around a
// registered tool's handler), read by what such a handler calls without passing its ctx, such as
// TaskManager.start(work) without `{ principal }`, so that the task is its creator's.
//
// Only the synchronous part: JavaScript runs one call stack at a time, so whatever runs inside
// `asPrincipal(p, call)` before `call` returns is that request's; after the handler's first
// `await` its continuation runs from the microtask queue, outside any scope (runningPrincipal()
// is undefined there), never inside another request's. Scopes nest (a handler that calls another
// synchronously) and are restored on a throw.

import type { Principal } from "./protocol.js";

let running: Principal | undefined;

/** Calls `call` as the handler of a request of `principal` (undefined: the anonymous one), and returns what it returns. */
export function asPrincipal<T>(principal: Principal | undefined, call: () => T): T {
  const outer = running;
  running = principal;
  try {
    return call();
  } finally {
    running = outer;
  }
}

/** The principal of the request whose handler is running now (its synchronous part); undefined: none, or an anonymous one. */
export function runningPrincipal(): Principal | undefined {
  return running;
}
