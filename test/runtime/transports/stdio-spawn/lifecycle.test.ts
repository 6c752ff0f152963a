/**
 * The stdio client transport that spawns its server (transports/stdio-spawn.ts), with real child
 * processes: the process's exit closes the transport with its code or signal, a failed spawn
 * rejects start() and closes it, and close() climbs the spec's shutdown ladder (Lifecycle,
 * Shutdown, stdio): stdin closed, then SIGTERM after closeGraceMs, then SIGKILL after killGraceMs.
 */
import { describe, expect, it } from "vitest";
import { StdioClientTransport } from "../../../generated/2025-11-25/stdio-spawn.js";
import { within } from "../../../helpers/async.js";
import { fixture, running } from "./support.js";

describe("StdioClientTransport: start, messages, exit", () => {
  it("spawns the server, exchanges lines, and close() ends it by closing its stdin: exit code 0, requested, onclose once", async () => {
    const f = fixture();
    await f.transport.start();
    const pid = f.transport.pid!;
    expect(running(pid)).toBe(true);
    expect((await f.request(1, "ping")).result.method).toBe("ping");
    expect(f.transport.exit).toBeUndefined();
    await f.transport.close();
    expect(f.transport.exit).toEqual({ code: 0, signal: null, requested: true });
    expect(f.closes()).toBe(1);
    expect(running(pid)).toBe(false);
    expect(f.errors).toEqual([]);
    await f.transport.close(); // again: nothing more happens
    expect(f.closes()).toBe(1);
    await expect(f.transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toThrow("transport closed");
  });

  it("a server that exits on its own closes the transport with its exit code, reported through onerror", async () => {
    const f = fixture(["exit=3"]);
    await f.transport.start();
    await f.transport.send({ jsonrpc: "2.0", id: 1, method: "bye" });
    await within("the transport to close", f.closed);
    expect(f.transport.exit).toEqual({ code: 3, signal: null, requested: false });
    expect(f.errors).toContain("the server process exited with code 3");
    expect(f.closes()).toBe(1);
  });

  it("a command that cannot be spawned: start() rejects naming it, the transport is closed with the error", async () => {
    const f = fixture([], { command: "mcp-stubgen-no-such-command" });
    await expect(f.transport.start()).rejects.toThrow(/^cannot start "mcp-stubgen-no-such-command": spawn mcp-stubgen-no-such-command ENOENT$/);
    expect(f.transport.exit?.code).toBeNull();
    expect(f.transport.exit?.error?.message).toContain("ENOENT");
    expect(f.closes()).toBe(1);
    await expect(f.transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toThrow("transport closed");
    await expect(f.transport.start()).rejects.toThrow("already started");
  });

  it("a cwd that does not exist is a failed spawn too, not a crash", async () => {
    const f = fixture([], { cwd: "/mcp-stubgen/no/such/folder" });
    await expect(f.transport.start()).rejects.toThrow(/^cannot start /);
    expect(f.closes()).toBe(1);
  });

  it("close() before start() closes without spawning", async () => {
    const f = fixture();
    await f.transport.close();
    expect(f.transport.pid).toBeUndefined();
    expect(f.transport.exit).toEqual({ code: null, signal: null, requested: true });
    expect(f.closes()).toBe(1);
  });
});

describe("StdioClientTransport: the shutdown ladder", () => {
  it("a server that keeps running after its stdin ends gets SIGTERM after closeGraceMs", async () => {
    const f = fixture(["stay"], { closeGraceMs: 50, killGraceMs: 10_000 });
    await f.transport.start();
    await f.request(1, "ping"); // its handlers are in place
    await within("close", f.transport.close());
    expect(f.transport.exit).toEqual({ code: null, signal: "SIGTERM", requested: true });
    expect(f.errors).toEqual([]); // an exit close() asked for is not an error
  });

  it("a server that also ignores SIGTERM gets SIGKILL after killGraceMs", async () => {
    const f = fixture(["ignore-term"], { closeGraceMs: 0, killGraceMs: 50 });
    await f.transport.start();
    await f.request(1, "ping"); // SIGTERM is ignored from here on
    await within("close", f.transport.close());
    expect(f.transport.exit).toEqual({ code: null, signal: "SIGKILL", requested: true });
    expect(running(f.transport.pid!)).toBe(false);
  });

  it("a close() during start() waits for the spawn, then shuts the server down", async () => {
    const f = fixture(["stay"], { closeGraceMs: 0 });
    const started = f.transport.start();
    const closing = f.transport.close();
    await started;
    await within("close", closing);
    expect(f.transport.exit?.requested).toBe(true);
    expect(f.closes()).toBe(1);
  });
});

describe("StdioClientTransport: options", () => {
  it("refuses a missing command, an unknown stderr mode and an unknown baseEnv at construction", () => {
    expect(() => new StdioClientTransport({ command: "" })).toThrow(TypeError);
    expect(() => new StdioClientTransport({ command: "node", stderr: "pipe" as never })).toThrow(/stderr must be "inherit", "ignore" or a function, got "pipe"/);
    expect(() => new StdioClientTransport({ command: "node", baseEnv: "all" as never })).toThrow(/baseEnv must be "safe", "inherit" or "none", got "all"/);
  });
});
