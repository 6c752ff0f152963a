/**
 * generator/model/validation.ts: what the wire validators check, as data. Which messages get a
 * check (params of both directions, results as the union of their results, a task-augmented
 * request's task handle, the answers to input requests), which definitions become named checks
 * (those reached, once each), alternatives told apart by a const or by resultType, the recursive
 * ones marked, and the spec's typing facts applied.
 */
import { describe, expect, it } from "vitest";
import { buildModel } from "../../../generator/model/model.js";
import { finishModel, modelRevision } from "../../../generator/model/revision.js";
import { policyFor } from "../../../generator/model/policy.js";
import { validationModel, type Check, type NodeCheck } from "../../../generator/model/validation.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";
import { docFrom, request } from "../support.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

function modelOf(defs: Record<string, unknown>, taskResult: string | null = null) {
  const doc = docFrom(defs);
  return validationModel(doc, buildModel(doc, { revision: "fixture", policy: policyFor("fixture") }), null, taskResult);
}

const BASE = {
  ClientRequest: { anyOf: [ref("RunRequest"), ref("PingRequest")] },
  ServerNotification: { anyOf: [ref("LogNotification")] },
  RunRequest: request("jobs/run", ref("RunParams")),
  PingRequest: request("ping", { type: "object", properties: { _meta: { type: "object" } } }),
  LogNotification: request("notifications/log", { type: "object", properties: { level: { enum: ["a", "b"] } }, required: ["level"] }),
  RunParams: { type: "object", properties: { job: ref("Job"), task: ref("TaskMetadata") }, required: ["job"] },
  Job: { type: "object", properties: { name: { type: "string" } } },
  Unused: { type: "string" },
  TaskMetadata: { type: "object", properties: { ttl: { type: "integer" } } },
  RunResult: { type: "object", properties: { resultType: { type: "string" }, done: { type: "boolean" } }, required: ["done"] },
  CreateTaskResult: { type: "object", properties: { resultType: { const: "task" }, taskId: { type: "string" } }, required: ["taskId"] },
  EmptyResult: { type: "object" },
  Result: { type: "object" },
};

describe("validationModel", () => {
  it("params of requests and notifications, with whether they are required; a params schema that checks nothing is left out unless required", () => {
    const v = modelOf(BASE);
    expect(v.requests.map((r) => [r.method, r.required, r.check.kind])).toEqual([
      ["jobs/run", true, "ref"],
      ["ping", true, "node"],
    ]);
    const loose = modelOf({ ...BASE, PingRequest: { type: "object", properties: { method: { const: "ping" }, params: { description: "anything" } } } });
    expect(loose.requests.map((r) => r.method)).toEqual(["jobs/run"]);
    expect(v.notifications.map((n) => [n.method, n.required])).toEqual([["notifications/log", true]]);
  });

  it("named checks: the definitions a message reaches, once each; an unreached one is not compiled", () => {
    const names = modelOf(BASE).named.map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(["RunParams", "Job", "TaskMetadata", "RunResult"]));
    expect(names).not.toContain("Unused");
    expect(new Set(names).size).toBe(names.length);
  });

  it("a task-augmented request's result is its result or the task handle, told apart by the handle's const resultType", () => {
    const v = modelOf(BASE, "CreateTaskResult");
    const run = v.results.find((r) => r.method === "jobs/run")!.check as NodeCheck;
    expect(run.anyOf?.checks).toEqual([{ kind: "ref", name: "RunResult" }, { kind: "ref", name: "CreateTaskResult" }]);
    expect(run.anyOf?.discriminator).toEqual({ property: "resultType", values: [null, "task"] });
    // Without a task result named, the result alone.
    expect(modelOf(BASE).results.find((r) => r.method === "jobs/run")!.check).toEqual({ kind: "ref", name: "RunResult" });
  });

  it("alternatives that each require a property with a distinct string const are told apart by it", () => {
    const v = modelOf({
      ...BASE,
      Job: { anyOf: [ref("A"), ref("B")] },
      A: { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] },
      B: { type: "object", properties: { kind: { const: "b" }, x: { type: "string" } }, required: ["kind"] },
    });
    const job = v.named.find((n) => n.name === "Job")!.check as NodeCheck;
    expect(job.anyOf?.discriminator).toEqual({ property: "kind", values: ["a", "b"] });
  });

  it("marks recursive named checks; a definition the spec's schema.ts types as any JSON value (the JSONValue fault) checks nothing", () => {
    const v = modelOf({
      ...BASE,
      Job: { type: "object", properties: { child: ref("Job"), value: ref("JSONValue") } },
      JSONValue: { anyOf: [{ type: "object" }, { type: ["string", "integer", "boolean"] }] },
    });
    expect(v.named.find((n) => n.name === "Job")!.recursive).toBe(true);
    expect(v.named.find((n) => n.name === "RunParams")!.recursive).toBe(false);
    const job = v.named.find((n) => n.name === "Job")!.check as NodeCheck;
    expect(job.object?.properties.find((p) => p.name === "value")?.check).toEqual({ kind: "any" } satisfies Check);
  });

  it("2026-07-28: every request of the catalog that has results gets a result check; InputRequiredResult is told apart by resultType \"input_required\"; each input's answer is its result", async () => {
    const model = finishModel(await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR }));
    const v = model.validation;
    const requests = model.methods.filter((m) => m.kind === "request" && m.results !== null).map((m) => m.method);
    expect(v.results.map((r) => r.method)).toEqual(requests);
    const call = v.results.find((r) => r.method === "tools/call")!.check as NodeCheck;
    expect(call.anyOf?.checks).toEqual([{ kind: "ref", name: "CallToolResult" }, { kind: "ref", name: "InputRequiredResult" }]);
    expect(call.anyOf?.discriminator).toEqual({ property: "resultType", values: [null, "input_required"] });
    expect(v.inputs).toEqual([
      { method: "elicitation/create", check: { kind: "ref", name: "ElicitResult" } },
      { method: "roots/list", check: { kind: "ref", name: "ListRootsResult" } },
      { method: "sampling/createMessage", check: { kind: "ref", name: "CreateMessageResult" } },
    ]);
  });
});
