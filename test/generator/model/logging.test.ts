/**
 * generator/model/logging.ts: how each published revision's client asks for log messages, read
 * from its schema: logging/setLevel up to 2025-11-25, the request `_meta` LoggingLevel property
 * from 2026-07-28; a schema whose LoggingLevel is not the RFC 5424 set is refused.
 */
import { describe, expect, it } from "vitest";
import { loggingModel } from "../../../generator/model/logging.js";
import { modelRevision } from "../../../generator/model/revision.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";

const load = (revision: string) => modelRevision(revision, { cacheDir: TEST_CACHE_DIR });
const common = { capability: "logging", notification: "notifications/message" };

describe("loggingModel", () => {
  it.each(["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])("%s: the client sets its connection's level with logging/setLevel", async (revision) => {
    const { doc, model, policy } = await load(revision);
    expect(loggingModel(doc, model, policy)).toEqual({ ...common, setLevel: "logging/setLevel", levelMetaKey: null });
  });

  it("2026-07-28: each request's own level, under RequestMetaObject's LoggingLevel key; no setLevel", async () => {
    const { doc, model, policy } = await load("2026-07-28");
    expect(loggingModel(doc, model, policy)).toEqual({ ...common, setLevel: null, levelMetaKey: "io.modelcontextprotocol/logLevel" });
  });

  it("refuses a LoggingLevel that is not the RFC 5424 severities (the runtime ranks those)", async () => {
    const { doc, model, policy } = await load("2025-11-25");
    const defs = new Map(doc.defs);
    defs.set("LoggingLevel", { type: "string", enum: ["debug", "info", "verbose"] });
    expect(() => loggingModel({ ...doc, defs }, model, policy)).toThrow(/expected LoggingLevel to list the RFC 5424 severities/);
  });
});
