/**
 * What the spawned server is given: its environment (a safe base without this process's secrets,
 * `env` over it), its working folder, and where its stderr goes (each line to a callback, bounded;
 * a throwing callback is reported, not fatal).
 */
import { tmpdir } from "node:os";
import { realpathSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { safeEnvironment } from "../../../generated/2025-11-25/stdio-spawn.js";
import { waitFor } from "../../../helpers/async.js";
import { fixture } from "./support.js";

const SECRET = "MCP_STUBGEN_TEST_SECRET_TOKEN";

describe("StdioClientTransport: environment and working folder", () => {
  beforeEach(() => {
    process.env[SECRET] = "do-not-leak";
  });
  afterEach(() => {
    delete process.env[SECRET];
  });

  it('"safe" (the default): PATH and HOME pass, a secret of this process does not; env is laid over it and undefined removes', async () => {
    const f = fixture([], { env: { EXTRA: "1", HOME: undefined } });
    await f.transport.start();
    const { env } = (await f.request(1, "env")).result;
    await f.transport.close();
    expect(env["PATH"]).toBe(process.env["PATH"]);
    expect(env["EXTRA"]).toBe("1");
    expect(env).not.toHaveProperty(SECRET);
    expect(env).not.toHaveProperty("HOME");
  });

  it('"inherit" passes this process\'s environment; "none" passes only env', async () => {
    const inherit = fixture([], { baseEnv: "inherit" });
    await inherit.transport.start();
    expect((await inherit.request(1, "env")).result.env[SECRET]).toBe("do-not-leak");
    await inherit.transport.close();
    const none = fixture([], { baseEnv: "none", env: { ONLY: "this" } });
    await none.transport.start();
    const { env } = (await none.request(1, "env")).result;
    await none.transport.close();
    expect(env["ONLY"]).toBe("this");
    expect(env).not.toHaveProperty("PATH");
  });

  it("safeEnvironment keeps only the named variables and drops exported shell functions", () => {
    expect(safeEnvironment({ PATH: "/bin", HOME: "() { :; }", [SECRET]: "x" })).toEqual(process.platform === "win32" ? { PATH: "/bin" } : { PATH: "/bin" });
  });

  it("runs in cwd", async () => {
    const dir = realpathSync(tmpdir());
    const f = fixture([], { cwd: dir });
    await f.transport.start();
    expect((await f.request(1, "cwd")).result.cwd).toBe(dir);
    await f.transport.close();
  });
});

describe("StdioClientTransport: stderr", () => {
  it("a callback gets each line without its line end (LF or CRLF); an unfinished line waits for its newline", async () => {
    const lines: string[] = [];
    const f = fixture(["stderr=one\\r\\ntwo\\nthree"], { stderr: (line) => lines.push(line) });
    await f.transport.start();
    await waitFor("ready on stderr", () => lines.find((l) => l.endsWith("ready")));
    await f.transport.close();
    // "three" has no newline of its own: the fixture's "ready\n" ends it
    expect(lines).toEqual(["one", "two", "threeready"]);
  });

  it("a line longer than maxStderrLineBytes is cut there and the rest of it dropped; the next line arrives whole", async () => {
    const lines: string[] = [];
    const f = fixture(["long-stderr=100000"], { stderr: (line) => lines.push(line), maxStderrLineBytes: 1000 });
    await f.transport.start();
    await waitFor("ready on stderr", () => lines.find((l) => l === "ready"));
    await f.transport.close();
    expect(lines).toEqual(["x".repeat(1000), "after", "ready"]);
  });

  it("a callback that throws is reported through onerror and the transport goes on", async () => {
    const f = fixture([], {
      stderr: () => {
        throw new Error("callback broke");
      },
    });
    await f.transport.start();
    await waitFor("the error", () => f.errors.find((e) => e === "callback broke"));
    expect((await f.request(1, "ping")).result.method).toBe("ping");
    await f.transport.close();
    expect(f.transport.exit?.code).toBe(0);
  });
});
