/**
 * `mcp-stubgen catalog`: the JSON form (documented keys, sorted), the table form, and
 * `--result-override`.
 */
import { readdirSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { expectOneErrorLine, lines, runCli, tempDirs, TEST_CACHE_DIR } from "./support.js";

const tmp = tempDirs();
const REV = "2025-11-25";
const KEYS = ["method", "kind", "from", "params", "result", "cancellable", "taskAugmentable"];

interface Entry {
  readonly method: string;
  readonly kind: string;
  readonly from: string[];
  readonly params: string | null;
  readonly result: string | null;
  readonly cancellable: boolean;
  readonly taskAugmentable: boolean;
}
interface Catalog {
  readonly revision: string;
  readonly methods: Entry[];
}

describe(`catalog --revision ${REV}`, () => {
  let json: Catalog;

  beforeAll(async () => {
    const r = await runCli(["catalog", "--revision", REV, "--json", "--cache", TEST_CACHE_DIR], tmp());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    json = JSON.parse(r.stdout) as Catalog;
  });

  it("--json prints {revision, methods} with exactly the documented keys, sorted by method", () => {
    expect(Object.keys(json)).toEqual(["revision", "methods"]);
    expect(json.revision).toBe(REV);
    expect(json.methods.length).toBeGreaterThan(10);
    for (const m of json.methods) {
      expect(Object.keys(m), m.method).toEqual(KEYS);
      expect(["request", "notification"]).toContain(m.kind);
      expect(m.from.length).toBeGreaterThan(0);
      expect(m.from.every((side) => side === "client" || side === "server")).toBe(true);
      expect(typeof m.cancellable).toBe("boolean");
      expect(typeof m.taskAugmentable).toBe("boolean");
      if (m.kind === "notification") expect(m.result, m.method).toBeNull();
      else expect(typeof m.result, m.method).toBe("string");
    }
    const methods = json.methods.map((m) => m.method);
    expect(methods).toEqual([...methods].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const byMethod = new Map(json.methods.map((m) => [m.method, m]));
    expect(byMethod.get("tools/call")).toEqual({
      method: "tools/call",
      kind: "request",
      from: ["client"],
      params: "CallToolRequestParams",
      result: "CallToolResult",
      cancellable: true,
      taskAugmentable: true,
    });
    expect(byMethod.get("ping")?.result).toBe("EmptyResult");
    expect(byMethod.get("initialize")?.cancellable).toBe(false);
  });

  it("without --json prints a table: a header line, a rule, then one row per method in the same order", async () => {
    const r = await runCli(["catalog", "--revision", REV, "--cache", TEST_CACHE_DIR], tmp());
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const [header, rule, ...rows] = lines(r.stdout);
    expect(header).toMatch(/^method\s+kind\s+from\s+params\s+result\s+cancellable\s+task$/);
    expect(rule).toMatch(/^-+(\s+-+){6}$/);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(json.methods.map((m) => m.method));
    const tools = rows.find((row) => row.startsWith("tools/call "));
    expect(tools?.split(/\s{2,}/)).toEqual(["tools/call", "request", "client", "CallToolRequestParams", "CallToolResult", "yes", "yes"]);
  });

  it("--extension tasks on 2026-07-28: the extension's methods join the table, tools/call's result gains CreateTaskResult; on 2025-11-25 an error", async () => {
    const r = await runCli(["catalog", "--revision", "2026-07-28", "--extension", "tasks", "--cache", TEST_CACHE_DIR], tmp());
    expect(r.code, r.stderr).toBe(0);
    const rows = lines(r.stdout).slice(2).map((row) => row.split(/\s{2,}/));
    expect(rows.filter((row) => row[0]!.includes("tasks")).map((row) => [row[0], row[2], row[4]])).toEqual([
      ["notifications/tasks", "server", "-"],
      ["tasks/cancel", "client", "CancelTaskResult"],
      ["tasks/get", "client", "GetTaskResult"],
      ["tasks/update", "client", "UpdateTaskResult"],
    ]);
    expect(rows.find((row) => row[0] === "tools/call")?.[4]).toBe("CallToolResult | InputRequiredResult | CreateTaskResult");
    const json = JSON.parse((await runCli(["catalog", "-r", "2026-07-28", "-x", "tasks", "--json", "--cache", TEST_CACHE_DIR], tmp())).stdout) as { extensions: unknown; methods: Array<{ method: string; extension?: string }> };
    expect(json.extensions).toEqual([{ id: "tasks", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(json.methods.filter((m) => m.extension === "tasks").map((m) => m.method)).toEqual(["notifications/tasks", "tasks/cancel", "tasks/get", "tasks/update"]);
    const bad = await runCli(["catalog", "--revision", REV, "--extension", "tasks", "--cache", TEST_CACHE_DIR], tmp());
    expect(expectOneErrorLine(bad)).toContain("extension tasks (io.modelcontextprotocol/tasks) extends the revisions 2026-07-28, draft; none of them is selected (2025-11-25)");
  });

  it("--result-override ping=Result changes ping's result and nothing else", async () => {
    const r = await runCli(
      ["catalog", "--revision", REV, "--json", "--result-override", "ping=Result", "--cache", TEST_CACHE_DIR],
      tmp(),
    );
    expect(r.code, r.stderr).toBe(0);
    const overridden = JSON.parse(r.stdout) as Catalog;
    expect(overridden.methods.find((m) => m.method === "ping")?.result).toBe("Result");
    expect(overridden.methods.filter((m) => m.method !== "ping")).toEqual(json.methods.filter((m) => m.method !== "ping"));
  });

  it("--result-override naming a type the schema does not define: exit 1, one error line naming the file", async () => {
    const cwd = tmp();
    const r = await runCli(
      ["catalog", "--revision", REV, "--json", "--result-override", "ping=NoSuchResult", "--cache", TEST_CACHE_DIR],
      cwd,
    );
    const line = expectOneErrorLine(r);
    expect(line).toContain(`${TEST_CACHE_DIR}/${REV}/schema.json#/$defs: `);
    expect(line).toContain("ping=NoSuchResult");
    expect(line).toMatch(/expected the name of a definition/);
    expect(readdirSync(cwd)).toEqual([]);
  });
});
