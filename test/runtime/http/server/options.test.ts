/**
 * templates/runtime/http/server/options.ts: readServerOptions reads the options every HTTP handler
 * shares once, where the handler is made: the defaults, and each bad value a TypeError or
 * RangeError naming the option and the value (maxBodyBytes at least 128, maxJsonDepth 8..100000,
 * keepAliveMs 0 or at least 1000, maxStreamBufferBytes at least 1024, the guard options);
 * flagOption, choiceOption and pathOption likewise. The handlers' own use of them: their tests.
 */
import { describe, expect, it } from "vitest";
import { defaultLogger } from "../../../../templates/runtime/core/protocol.js";
import { choiceOption, flagOption, pathOption, readServerOptions, type HttpServerOptions } from "../../../../templates/runtime/http/server/options.js";

const read = (options: HttpServerOptions) => readServerOptions(options, { maxStreamBufferBytes: 2048 });

describe("readServerOptions", () => {
  it("the defaults; maxStreamBufferBytes is the handler's own", () => {
    const settings = read({});
    expect({ ...settings, guards: undefined }).toEqual({ authenticate: undefined, guards: undefined, maxBodyBytes: 4 * 1024 * 1024, maxJsonDepth: 128, keepAliveMs: 15_000, maxStreamBufferBytes: 2048, onError: undefined, logger: defaultLogger });
  });

  it("the values given, at their bounds (keepAliveMs 0: off), and the functions and guard options as they are", () => {
    const authenticate = () => ({ id: "a" });
    const onError = () => undefined;
    const options = { authenticate, onError, maxBodyBytes: 128, maxJsonDepth: 8, keepAliveMs: 0, maxStreamBufferBytes: 1024, allowedHosts: ["example.com"] };
    const settings = read(options);
    expect(settings).toMatchObject({ authenticate, onError, maxBodyBytes: 128, maxJsonDepth: 8, keepAliveMs: 0, maxStreamBufferBytes: 1024 });
    expect(settings.guards).toBe(options);
    expect(read({ maxJsonDepth: 100_000, keepAliveMs: 1000 })).toMatchObject({ maxJsonDepth: 100_000, keepAliveMs: 1000 });
    const logger = () => undefined;
    expect([read({ logger }).logger, read({ logger: null }).logger]).toEqual([logger, null]);
  });

  it.each([
    ["options that are no object", null, TypeError, "options must be an object, got null"],
    ["options that are a string", "x", TypeError, 'options must be an object, got "x"'],
    ["an authenticate that is no function", { authenticate: { id: "a" } }, TypeError, "authenticate must be a function, got an object"],
    ["an onError that is no function", { onError: "log" }, TypeError, 'onError must be a function, got "log"'],
    ["a logger that is no function", { logger: "stderr" }, TypeError, 'logger must be a function or null, got "stderr"'],
    ["maxBodyBytes below 128", { maxBodyBytes: 127 }, RangeError, "maxBodyBytes must be an integer ≥ 128, got 127"],
    ["maxBodyBytes not whole", { maxBodyBytes: 1024.5 }, RangeError, "maxBodyBytes must be an integer ≥ 128, got 1024.5"],
    ["maxBodyBytes NaN (an unset environment variable)", { maxBodyBytes: Number(undefined) }, RangeError, "maxBodyBytes must be an integer ≥ 128, got NaN"],
    ["maxBodyBytes Infinity", { maxBodyBytes: Infinity }, RangeError, "maxBodyBytes must be an integer ≥ 128, got Infinity"],
    ["maxBodyBytes a string", { maxBodyBytes: "4096" }, RangeError, 'maxBodyBytes must be an integer ≥ 128, got "4096"'],
    ["maxJsonDepth below 8", { maxJsonDepth: 7 }, RangeError, "maxJsonDepth must be an integer from 8 to 100000, got 7"],
    ["maxJsonDepth above 100000", { maxJsonDepth: 100_001 }, RangeError, "maxJsonDepth must be an integer from 8 to 100000, got 100001"],
    ["keepAliveMs between 0 and 1000", { keepAliveMs: 999 }, RangeError, "keepAliveMs must be an integer ≥ 1000 or 0 (off), got 999"],
    ["keepAliveMs negative", { keepAliveMs: -1 }, RangeError, "keepAliveMs must be an integer ≥ 1000 or 0 (off), got -1"],
    ["maxStreamBufferBytes below 1024", { maxStreamBufferBytes: 1023 }, RangeError, "maxStreamBufferBytes must be an integer ≥ 1024, got 1023"],
    ["dnsRebindingProtection that is no boolean", { dnsRebindingProtection: "false" }, TypeError, 'dnsRebindingProtection must be a boolean, got "false"'],
    ["allowedHosts that is a string", { allowedHosts: "example.com" }, TypeError, 'allowedHosts must be an array of non-empty strings, got "example.com"'],
    ["allowedOrigins with an empty entry", { allowedOrigins: ["https://a.example", ""] }, TypeError, "allowedOrigins must be an array of non-empty strings, got an array"],
  ])("%s: a %s naming it", (_label, options, kind, message) => {
    expect(() => read(options as HttpServerOptions)).toThrow(kind);
    expect(() => read(options as HttpServerOptions)).toThrow(message);
  });
});

describe("flagOption, choiceOption, pathOption", () => {
  it("flagOption: the fallback when unset, a boolean as it is, else a TypeError", () => {
    expect([flagOption("sessions", undefined, true), flagOption("sessions", false, true)]).toEqual([true, false]);
    expect(() => flagOption("sessions", "no", true)).toThrow(new TypeError('sessions must be a boolean, got "no"'));
    expect(() => flagOption("sessions", 0, true)).toThrow(new TypeError("sessions must be a boolean, got 0"));
  });

  it("choiceOption: the fallback when unset, one of the allowed, else a RangeError listing them", () => {
    expect(choiceOption("responses", undefined, ["auto", "sse"], "auto")).toBe("auto");
    expect(choiceOption("responses", "sse", ["auto", "sse"], "auto")).toBe("sse");
    expect(() => choiceOption("responses", "json", ["auto", "sse"], "auto")).toThrow(new RangeError('responses must be one of auto, sse, got "json"'));
  });

  it("pathOption: a string starting with / and without query or fragment", () => {
    expect(pathOption("path", undefined, "/mcp")).toBe("/mcp");
    expect(pathOption("path", undefined, undefined)).toBeUndefined();
    expect(pathOption("path", "/", undefined)).toBe("/");
    expect(pathOption("path", "/a/b", undefined)).toBe("/a/b");
    for (const bad of ["mcp", "", "/mcp?x=1", "/mcp#top", "http://x/mcp", 42]) {
      expect(() => pathOption("ssePath", bad, "/sse"), String(bad)).toThrow(TypeError);
    }
    expect(() => pathOption("ssePath", "sse", "/sse")).toThrow('ssePath must be a path starting with "/" (no query, no fragment), got "sse"');
  });
});
