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

  it("an extension without a table: an error naming the file and the known tables", () => {
    const e = error(() => extensionMethods("jobs", jobs));
    expect(e.message).toBe('no table for extension "jobs" in generator/model/extensions.ts; expected one of tasks');
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
