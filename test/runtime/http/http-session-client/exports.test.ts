/**
 * Which revisions export the session HTTP client: those with Streamable HTTP and sessions
 * (2025-03-26, 2025-06-18, 2025-11-25), not 2024-11-05 (HTTP+SSE) and not the stateless ones
 * (2026-07-28, which export createHttpClientTransport instead).
 */
import { describe, expect, it } from "vitest";
import { httpExports } from "../../../../generator/emit/render.js";
import * as R20241105 from "../../../generated/2024-11-05/index.js";
import * as R20250326 from "../../../generated/2025-03-26/index.js";
import * as R20250618 from "../../../generated/2025-06-18/index.js";
import * as R20251125 from "../../../generated/2025-11-25/index.js";
import * as R20260728 from "../../../generated/2026-07-28/index.js";

const INDEXES: Readonly<Record<string, Record<string, unknown>>> = {
  "2024-11-05": R20241105,
  "2025-03-26": R20250326,
  "2025-06-18": R20250618,
  "2025-11-25": R20251125,
  "2026-07-28": R20260728,
};

describe("the session HTTP client's exports", () => {
  it.each([
    { revision: "2024-11-05", session: false, stateless: false },
    { revision: "2025-03-26", session: true, stateless: false },
    { revision: "2025-06-18", session: true, stateless: false },
    { revision: "2025-11-25", session: true, stateless: false },
    { revision: "2026-07-28", session: false, stateless: true },
  ])("$revision: session client $session, stateless client $stateless", async ({ revision, session, stateless }) => {
    const index = INDEXES[revision]!;
    expect(typeof index["createSessionHttpClientTransport"] === "function").toBe(session);
    expect(typeof index["SessionExpiredError"] === "function").toBe(session);
    expect(typeof index["createHttpClientTransport"] === "function").toBe(stateless);
  });

  it("follows the revision's HTTP transport (the era facts of the model)", () => {
    expect(httpExports("stateless")).toEqual({ http: true, sessionHttp: false });
    expect(httpExports("session")).toEqual({ http: false, sessionHttp: true });
    expect(httpExports("sse")).toEqual({ http: false, sessionHttp: false });
    expect(httpExports(null)).toEqual({ http: false, sessionHttp: false });
  });
});
