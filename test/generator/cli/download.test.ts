/**
 * `generate --schema URL`: the schema comes from a local HTTP server the test runs on 127.0.0.1.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliFixture, expectOneErrorLine, fileList, runCli, snapshot, stagingLeftovers, tempDirs, wroteLines } from "./support.js";

const tmp = tempDirs();
const SCHEMA = readFileSync(cliFixture("mini.json"));

describe("generate --schema http://…", () => {
  let server: Server;
  let base: string;
  const requested: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? "");
      if (req.url === "/x.json") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(SCHEMA);
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("downloads the schema and writes OUT/<label>/ under the --revision label", async () => {
    const cwd = tmp();
    const r = await runCli(["generate", "--schema", `${base}/x.json`, "--revision", "custom-label", "--out", "OUT"], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(requested).toContain("/x.json");
    const files = fileList(join(cwd, "OUT")).filter((f) => !f.startsWith("runtime/"));
    expect(files.every((f) => f.startsWith("custom-label/"))).toBe(true);
    expect(wroteLines(r.stdout).has("OUT/runtime")).toBe(true);
    for (const name of ["types.ts", "catalog.ts", "index.ts"]) expect(files).toContain(`custom-label/${name}`);
    expect(wroteLines(r.stdout).get("OUT/custom-label")).toEqual(files.map((f) => f.slice("custom-label/".length)));
    const header = readFileSync(join(cwd, "OUT", "custom-label", "catalog.ts"), "utf8").split("\n").slice(0, 3).join("\n");
    expect(header).toContain("revision custom-label");
    expect(header).toContain(createHash("sha256").update(SCHEMA).digest("hex"));
    const catalog = readFileSync(join(cwd, "OUT", "custom-label", "catalog.ts"), "utf8");
    expect(catalog).toContain('"demo/echo"');
    expect(stagingLeftovers(cwd)).toEqual([]);
  });

  it("a 404 exits 1 with one error line naming the URL and the status; nothing written", async () => {
    const cwd = tmp();
    const url = `${base}/no-such-schema.json`;
    const before = snapshot(cwd);
    const r = await runCli(["generate", "--schema", url, "--out", "OUT"], cwd);
    const line = expectOneErrorLine(r);
    expect(line).toContain(`${url}: `);
    expect(line).toContain("404");
    expect(requested).toContain("/no-such-schema.json");
    expect(snapshot(cwd)).toEqual(before);
  });
});
