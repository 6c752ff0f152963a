/**
 * The per-extension table (generator/model/extensions.ts): who sends each of an extension's
 * messages, checked against the extension's schema both ways, like the revisions' policy table.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readSchemaDocument } from "../../../generator/load/schema-document.js";
import { loadExtension } from "../../../generator/load/schema-source.js";
import { EXTENSION_POLICIES, extensionMethods, type ExtensionPolicy } from "../../../generator/model/extensions.js";
import { FIXTURES, TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { catchStubgenError, JOBS_POLICY as JOBS } from "../support.js";

const file = join(FIXTURES, "extensions", "allof-extension.json");
const jobs = readSchemaDocument(readFileSync(file, "utf8"), file);

const error = catchStubgenError;

describe("extensionMethods", () => {
  it("joins each message of the schema with its senders from the table", () => {
    expect(extensionMethods("jobs", jobs, JOBS).map(({ method, kind, from }) => [method, kind, from])).toEqual([
      ["jobs/start", "request", ["client"]],
      ["jobs/stop", "request", ["client", "server"]],
      ["notifications/jobs/done", "notification", ["server"]],
    ]);
  });

  it("a message of the schema without an entry: an error at its pointer saying the schema does not say who sends it", () => {
    const { "jobs/stop": _, ...senders } = JOBS.senders;
    const e = error(() => extensionMethods("jobs", jobs, { ...JOBS, senders }));
    expect(e.location).toMatchObject({ file, pointer: "/$defs/StopJobRequest" });
    expect(e.message).toContain('the schema does not say who sends "jobs/stop"');
  });

  it("an entry for a message the schema lacks: an error listing the schema's messages", () => {
    const e = error(() => extensionMethods("jobs", jobs, { ...JOBS, senders: { ...JOBS.senders, "jobs/list": ["client"] } }));
    expect(e.message).toContain('names "jobs/list", which this schema does not define; expected one of jobs/start, jobs/stop, notifications/jobs/done');
  });

  it("an Mcp-Name param the message does not declare, a widened result or cancel request the schema lacks: each an error", () => {
    expect(error(() => extensionMethods("jobs", jobs, { ...JOBS, httpNameParams: { "jobs/start": "jobId" } })).message).toContain("mirrors params.jobId into Mcp-Name");
    expect(error(() => extensionMethods("jobs", jobs, { ...JOBS, httpNameParams: { "notifications/jobs/done": "name" } })).message).toContain("not a request of this schema");
    expect(error(() => extensionMethods("jobs", jobs, { ...JOBS, widenedResults: { "tools/call": [{ type: "JobHandle", reason: "x" }] } })).message).toContain("with JobHandle, which this schema does not define");
    expect(error(() => extensionMethods("jobs", jobs, { ...JOBS, cancelRequest: "notifications/jobs/done" })).message).toContain("as the cancel request");
  });

  it("each table error names the extension's file, the table and the fault exactly", () => {
    const table = "the table of extension jobs (generator/model/extensions.ts)";
    const cases: ReadonlyArray<[ExtensionPolicy, string, string | undefined]> = [
      [{ ...JOBS, senders: { ...JOBS.senders, "jobs/list": ["client"] } }, `${table} names "jobs/list", which this schema does not define; expected one of jobs/start, jobs/stop, notifications/jobs/done`, undefined],
      [{ ...JOBS, httpNameParams: { "jobs/list": "name" } }, `${table} gives an Mcp-Name param for "jobs/list", which is not a request of this schema`, undefined],
      [{ ...JOBS, httpNameParams: { "jobs/start": "jobId" } }, `${table} mirrors params.jobId into Mcp-Name, but the message names no such property`, "/$defs/StartJobRequest"],
      [{ ...JOBS, widenedResults: { "tools/call": [{ type: "JobHandle", reason: "x" }] } }, `${table} widens the result of tools/call with JobHandle, which this schema does not define`, undefined],
      [{ ...JOBS, cancelRequest: "jobs/list" }, `${table} names "jobs/list" as the cancel request, which is not a request of this schema`, undefined],
      [{ ...JOBS, senders: { ...JOBS.senders, "jobs/stop": [] } }, `the schema does not say who sends "jobs/stop" (extension schemas have no direction unions); expected an entry in ${table}`, "/$defs/StopJobRequest"],
    ];
    for (const [policy, message, pointer] of cases) {
      const e = error(() => extensionMethods("jobs", jobs, policy));
      expect(e.message).toBe(message);
      expect(e.location).toEqual(pointer === undefined ? { file } : { file, pointer });
    }
  });

  it("an Mcp-Name param declared in an allOf member, or in the message itself, is found", () => {
    const plainFile = join(FIXTURES, "extensions", "plain-extension.json");
    const plain = readSchemaDocument(readFileSync(plainFile, "utf8"), plainFile);
    const LOCKS: ExtensionPolicy = { senders: { "locks/acquire": ["client"], "notifications/locks/released": ["server"] }, httpNameParams: { "locks/acquire": "lock" }, widenedResults: {}, cancelRequest: null, runtime: null };
    expect(error(() => extensionMethods("locks", plain, LOCKS)).message).toContain("mirrors params.lock into Mcp-Name");
    const withLock = readSchemaDocument(
      JSON.stringify({ ...plain.root, definitions: { ...Object.fromEntries(plain.defs), LockRequest: { ...(plain.defs.get("LockRequest") as object), properties: { ...((plain.defs.get("LockRequest") as { properties: object }).properties), params: { type: "object", properties: { lock: { type: "string" } } } } } } }),
      plainFile,
    );
    expect(extensionMethods("locks", withLock, LOCKS).map((m) => m.method)).toEqual(["locks/acquire", "notifications/locks/released"]);
  });

  it("an extension without a table: an error naming the file and the known tables", () => {
    const e = error(() => extensionMethods("jobs", jobs));
    expect(e.message).toBe('no table for extension "jobs" in generator/model/extensions.ts; expected one of tasks, skills');
    expect(e.location.file).toBe(file);
  });

  it("the Tasks table fits the Tasks schema: the client's three requests, the server's status notification", () => {
    const doc = loadExtension("tasks", { cacheDir: TEST_CACHE_DIR });
    expect(extensionMethods("tasks", doc).map(({ method, kind, from }) => [method, kind, from])).toEqual([
      ["tasks/cancel", "request", ["client"]],
      ["tasks/get", "request", ["client"]],
      ["notifications/tasks", "notification", ["server"]],
      ["tasks/update", "request", ["client"]],
    ]);
    expect(EXTENSION_POLICIES["tasks"]).toMatchObject({ cancelRequest: "tasks/cancel", httpNameParams: { "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId" } });
  });
});
