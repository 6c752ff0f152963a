/**
 * core/logging.ts: the RFC 5424 order ctx.log ranks levels by, and the log function's own
 * checks: an unknown level is a RangeError naming the levels; nothing is sent without a
 * threshold, below it, or without a hook (a client's ctx); the message is one notification with
 * `logger` only when given.
 */
import { describe, expect, it } from "vitest";
import { LOG_LEVELS, atLeast, isLogLevel, logFunction, type LogHook, type LogLevel } from "../../../templates/runtime/core/logging.js";

const hook = (threshold: LogLevel | null): LogHook => ({ notification: "notifications/message", threshold: () => threshold });

describe("core/logging", () => {
  it("ranks the levels debug < info < notice < warning < error < critical < alert < emergency", () => {
    expect(LOG_LEVELS).toEqual(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]);
    expect(atLeast("warning", "warning")).toBe(true);
    expect(atLeast("error", "warning")).toBe(true);
    expect(atLeast("notice", "warning")).toBe(false);
    expect(atLeast("emergency", "debug")).toBe(true);
    expect(isLogLevel("info")).toBe(true);
    expect(isLogLevel("verbose")).toBe(false);
    expect(isLogLevel("toString")).toBe(false);
  });

  it("sends one notification at or above the threshold, none below it, none without a threshold or a hook", async () => {
    const sent: Array<[string, object]> = [];
    const notify = async (method: string, params: object) => void sent.push([method, params]);
    const log = logFunction(hook("error"), undefined, undefined, notify);
    await log("warning", "quiet");
    await log("critical", { n: 1 }, "db");
    await log("error", "plain");
    expect(sent).toEqual([
      ["notifications/message", { level: "critical", data: { n: 1 }, logger: "db" }],
      ["notifications/message", { level: "error", data: "plain" }],
    ]);
    await logFunction(hook(null), undefined, undefined, notify)("emergency", "x");
    await logFunction(undefined, undefined, undefined, notify)("emergency", "x");
    expect(sent).toHaveLength(2);
  });

  it("rejects an unknown level with a RangeError naming the levels", async () => {
    const log = logFunction(hook("debug"), undefined, undefined, async () => {});
    await expect(log("verbose" as LogLevel, "x")).rejects.toThrow(new RangeError('log level must be one of debug, info, notice, warning, error, critical, alert, emergency, got "verbose"'));
  });
});
