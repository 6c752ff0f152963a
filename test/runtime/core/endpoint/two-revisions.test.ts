/**
 * Two revisions in one program (test/generated/ holds them with the shared runtime, the default):
 * one runtime, so one `McpError`, one `RequestCancelledError` and one `Transport`. A transport
 * pair made by either revision connects a 2025-11-25 client to a 2026-07-28 server and a
 * 2026-07-28 client to a 2025-11-25 server, and errors of both are caught with one `instanceof`.
 * The type assertions below are checked by `npm run typecheck`.
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import * as S from "../../../generated/2026-07-28/index.js";
import { aborted, deferred } from "../../../helpers/harness.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

// One Transport type, one error class: assignable both ways, the very same declarations.
export const sameTransport: Equal<R.Transport, S.Transport> = true;
export const sameError: Equal<R.McpError, S.McpError> = true;
const [fromR, fromS] = R.createInMemoryTransportPair();
export const asS: S.Transport = fromR;
export const asR: R.Transport = fromS;

describe("two revisions in one program, one shared runtime", () => {
  it("export the very same runtime classes and functions", () => {
    expect(S.McpError).toBe(R.McpError);
    expect(S.RequestCancelledError).toBe(R.RequestCancelledError);
    expect(S.RequestTimeoutError).toBe(R.RequestTimeoutError);
    expect(S.ConnectionClosedError).toBe(R.ConnectionClosedError);
    expect(S.createInMemoryTransportPair).toBe(R.createInMemoryTransportPair);
    expect(S.createMcpxGateway).toBe(R.createMcpxGateway);
  });

  it("one in-memory pair carries a 2025-11-25 client and a 2026-07-28 server; their errors are caught with one instanceof", async () => {
    const [clientEnd, serverEnd]: [R.Transport, S.Transport] = R.createInMemoryTransportPair();
    const started = deferred<void>();
    const server = new S.McpServer({
      logger: null,
      // The 2025-11-25 client's requests carry no 2026-07-28 request _meta: not this server's schema.
      validate: { params: false },
      handlers: {
        "tools/call": async (params, ctx) => {
          if (params.name === "fail") throw new S.McpError(-32602, "no such tool");
          started.resolve();
          await aborted(ctx.signal);
          return { resultType: "complete", content: [] };
        },
      },
    });
    const client = new R.McpClient({ logger: null });
    await server.connect(serverEnd);
    await client.connect(clientEnd, { initialize: false });

    // 2026-07-28 has no ping: the 2025-11-25 client's ping is an unknown method there.
    await expect(client.ping()).rejects.toMatchObject({ code: -32601, message: "Method not found: ping" });
    const failed = await client.callTool({ name: "fail" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(S.McpError);
    expect(failed).toBeInstanceOf(R.McpError);
    expect((failed as R.McpError).code).toBe(-32602);

    const ac = new AbortController();
    const slow = client.callTool({ name: "slow" }, { signal: ac.signal }).catch((e: unknown) => e);
    await started.promise;
    ac.abort("stop");
    const cancelled = await slow;
    expect(cancelled).toBeInstanceOf(S.RequestCancelledError);
    expect(cancelled).toBeInstanceOf(R.RequestCancelledError);
    await client.close();
  });

  it("a pair made by 2026-07-28 carries a 2026-07-28 client and a 2025-11-25 server the same way", async () => {
    const [clientEnd, serverEnd]: [S.Transport, R.Transport] = S.createInMemoryTransportPair();
    const server = new R.McpServer({
      logger: null,
      handlers: {
        "tools/call": (params) => {
          throw new R.McpError(-32000, `tool ${params.name} failed`);
        },
      },
    });
    const client = new S.McpClient({ logger: null });
    await server.connect(serverEnd);
    await client.connect(clientEnd, { initialize: false });
    const errors = [await client.callTool({ name: "x" }).catch((e: unknown) => e), new R.McpError(1, "local"), new S.McpError(2, "local")];
    // One check for errors of either revision.
    expect(errors.map((e) => e instanceof R.McpError && e instanceof S.McpError)).toEqual([true, true, true]);
    expect((errors[0] as S.McpError).message).toBe("tool x failed");
    await client.close();
  });
});
