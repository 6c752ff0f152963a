/**
 * Which revisions export the HTTP+SSE transport and the fallback client: 2024-11-05 (whose HTTP
 * transport it is) the server handler, the client transport and the node adapter; the session
 * revisions the fallback client (and the HTTP+SSE client it may hand over to), and the server
 * handler too, to serve old clients on /sse beside their sessions (createEraRouter's legacySse,
 * issue 29); 2026-07-28 neither. Every revision with an HTTP server exports createEraRouter.
 */
import { describe, expect, it } from "vitest";
import { legacySseExports } from "../../../../generator/emit/render.js";
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

describe("the HTTP+SSE and fallback exports", () => {
  it.each([
    { revision: "2024-11-05", legacySse: true, legacyFallback: false, stateless: false },
    { revision: "2025-03-26", legacySse: false, legacyFallback: true, stateless: false },
    { revision: "2025-06-18", legacySse: false, legacyFallback: true, stateless: false },
    { revision: "2025-11-25", legacySse: false, legacyFallback: true, stateless: false },
    { revision: "2026-07-28", legacySse: false, legacyFallback: false, stateless: true },
  ])("$revision: HTTP+SSE server $legacySse, fallback client $legacyFallback", ({ revision, legacySse, legacyFallback, stateless }) => {
    const index = INDEXES[revision]!;
    expect(typeof index["createLegacySseHandler"] === "function").toBe(legacySse || legacyFallback);
    expect(typeof index["createEraRouter"]).toBe("function");
    expect(typeof index["createLegacySseClientTransport"] === "function").toBe(legacySse || legacyFallback);
    expect(typeof index["LegacySseConnectError"] === "function").toBe(legacySse || legacyFallback);
    expect(typeof index["createFallbackHttpClientTransport"] === "function").toBe(legacyFallback);
    if (legacySse) expect(typeof index["toNodeListener"]).toBe("function");
    expect(legacySseExports(stateless ? "stateless" : legacySse ? "sse" : "session")).toEqual({ legacySse, legacyFallback });
  });
});
