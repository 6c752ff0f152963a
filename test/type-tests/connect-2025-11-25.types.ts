// Type-level tests of connect() and what it keeps (issue 42, item 2), on the generated 2025-11-25
// McpClient. The test run (test/integration/typecheck-published.test.ts) copies this file into the
// generated out/2025-11-25/ folder and compiles it: every `@ts-expect-error` must still be an
// error, and every other line must compile.
import type * as G from "./index.js";
import { McpClient, connectBest, type Transport } from "./index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T | undefined => undefined;
declare const transport: Transport;

export async function connected(): Promise<void> {
  const client = new McpClient({ clientInfo: { name: "me", version: "1" }, capabilities: { roots: { listChanged: true } }, listCache: { maxEntries: 10 } });
  await client.connect(transport);
  await client.connect(transport, { initialize: false });
  assert<Equal<typeof client.serverCapabilities, G.ServerCapabilities | undefined>>();
  assert<Equal<typeof client.serverVersion, G.Implementation | undefined>>();
  assert<Equal<typeof client.instructions, string | undefined>>();
  assert<Equal<typeof client.protocolVersion, string | undefined>>();
  // @ts-expect-error initialize is a boolean
  await client.connect(transport, { initialize: "no" });
  // @ts-expect-error clientInfo needs a version
  new McpClient({ clientInfo: { name: "me" } });
  // @ts-expect-error listCache is options or false
  new McpClient({ listCache: true });
  // @ts-expect-error the getters are read-only
  client.serverVersion = { name: "x", version: "1" };
  const best = await connectBest([{ revision: "2025-11-25", create: () => new McpClient() }], () => transport);
  assert<Equal<typeof best.client, McpClient>>();
}
