/**
 * A schema without any MCP direction union (ClientRequest, ServerRequest, ClientNotification,
 * ServerNotification) would give an empty client and server: an error naming the file and what
 * was expected, unless the user says it is a fragment (--fragment, or "fragment": true).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliFixture, expectOneErrorLine, fileList, runCli, tempDirs, wroteLines } from "./support.js";

const tmp = tempDirs();
const FRAGMENT = cliFixture("no-direction-unions.json");
const EXPECTED =
  `mcp-stubgen: error: ${FRAGMENT}#/$defs: expected at least one of the MCP direction unions ClientRequest, ServerRequest, ` +
  `ClientNotification, ServerNotification under "$defs"; found none, so the client and server would have no methods ` +
  `(for a schema fragment, pass --fragment or set "fragment": true in the config)`;

describe("a schema without direction unions", () => {
  it("generate: exit 1, one line naming the file and what was expected, nothing written", async () => {
    const cwd = tmp();
    expect(expectOneErrorLine(await runCli(["generate", "--schema", FRAGMENT, "--out", "OUT"], cwd))).toBe(EXPECTED);
    expect(fileList(cwd)).toEqual([]);
  });

  it("catalog: the same error", async () => {
    expect(expectOneErrorLine(await runCli(["catalog", "--schema", FRAGMENT], tmp()))).toBe(EXPECTED);
  });

  it("with --fragment: generated (types, no methods)", async () => {
    const cwd = tmp();
    const r = await runCli(["generate", "--schema", FRAGMENT, "--out", "OUT", "--fragment"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect([...wroteLines(r.stdout).keys()]).toEqual(["OUT/runtime", "OUT/custom"]);
    expect(readFileSync(join(cwd, "OUT", "custom", "types.ts"), "utf8")).toContain("export interface EchoRequestParams");
    const catalog = await runCli(["catalog", "--schema", FRAGMENT, "--fragment", "--json"], cwd);
    expect(catalog.code, catalog.stderr).toBe(0);
    expect((JSON.parse(catalog.stdout) as { methods: unknown[] }).methods).toEqual([]);
  });

  it('with "fragment": true in the config', async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "mcp-stubgen.config.json"), JSON.stringify({ schema: FRAGMENT, out: "gen", fragment: true }));
    const r = await runCli(["generate"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect([...wroteLines(r.stdout).keys()]).toEqual(["gen/runtime", "gen/custom"]);
  });
});
