// Type-level tests of the generated 2025-06-18 (draft-07) API, compiled by `npm test`.
import type * as T from "../../../generated/2025-06-18/index.js";
import type { McpClient } from "../../../generated/2025-06-18/index.js";

declare const client: McpClient;
declare const signal: AbortSignal;
declare const initParams: T.InitializeRequest["params"];

export async function draft07() {
  await client.initialize(initParams);
  // @ts-expect-error initialize takes no signal
  await client.initialize(initParams, { signal });
  await client.callTool({ name: "x" }, { signal });
  // @ts-expect-error no tasks in 2025-06-18
  await client.cancelTask({ taskId: "t" });
  // @ts-expect-error a misspelt param of an inline params type
  await client.callTool({ name: "x", argumnets: {} });
}
