// Which requests a server takes by their path: the first stage of a server that serves named
// paths (a Streamable HTTP endpoint's `path`, HTTP+SSE's two), so that another path is 404 before
// anything else is looked at.

import type { HttpCall } from "./call.js";
import type { CallState, Stage } from "./pipeline.js";

const NOT_FOUND = Object.freeze({ status: 404, message: "Not Found" });

/** 404 for a path not in `paths`. */
export function pathStage(paths: readonly string[]): Stage<CallState> {
  const served: ReadonlySet<string> = new Set(paths);
  return {
    name: "path",
    run(call: HttpCall) {
      return served.has(call.path) ? undefined : NOT_FOUND;
    },
  };
}
