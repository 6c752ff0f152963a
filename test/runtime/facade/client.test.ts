/**
 * templates/runtime/facade/client.ts, client-tasks.ts and shared.ts on their own, driven by hand-written
 * descriptors (what a generated client.ts renders as CLIENT): the request `_meta` of the
 * stateless lifecycle, the bound on multi round-trip retries, the endpoint options, task handles
 * becoming ClientTasks, and the method policy table built from the catalog's METHODS.
 */
import { describe, expect, it } from "vitest";
import { clientEndpointOptions, clientRequestMeta, DEFAULT_MAX_INPUT_ROUNDS, maxInputRounds, type ClientDescriptor } from "../../../templates/runtime/facade/client.js";
import { asTask, declaresTasks, taskRequester, UndeclaredTaskError, type ClientTaskRequester } from "../../../templates/runtime/facade/client-tasks.js";
import { TASKS_EXTENSION } from "../../../templates/runtime/features/task-protocol.js";
import { methodPolicies } from "../../../templates/runtime/facade/shared.js";
import type { SendHook } from "../../../templates/runtime/core/endpoint.js";
import type { AnswerInputOptions } from "../../../templates/runtime/features/mrtr-client.js";
import { ClientTask } from "../../../templates/runtime/features/client-task.js";

const KEYS = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
};

/** The send-path hooks the descriptor's `create` made, with the options it was given (what features/mrtr.ts createAnswerInput gets). */
const created = new Map<SendHook, AnswerInputOptions>();
const STATELESS: ClientDescriptor = {
  revision: "2026-07-28",
  requestMeta: KEYS,
  inputRequired: {
    rules: { methods: ["tools/call", "prompts/get"], inputs: { "elicitation/create": { capability: "elicitation", subCapabilities: [], result: "ElicitResult" } } },
    create: (answer) => {
      const hook: SendHook = { request: () => undefined, answerInputRequests: () => Promise.resolve({}) };
      created.set(hook, answer);
      return hook;
    },
  },
  tasks: { cancelRequest: "tasks/cancel" },
  batches: false,
  validators: { requests: {}, notifications: {}, results: {}, inputs: {} },
  lists: [],
};

const OLD: ClientDescriptor = { revision: "2025-11-25", requestMeta: null, inputRequired: null, tasks: null, batches: false, validators: { requests: {}, notifications: {}, results: {}, inputs: {} }, lists: [] };

describe("maxInputRounds", () => {
  it("is 10 by default and any integer ≥ 0 given", () => {
    expect(maxInputRounds(undefined)).toBe(DEFAULT_MAX_INPUT_ROUNDS);
    expect(DEFAULT_MAX_INPUT_ROUNDS).toBe(10);
    expect(maxInputRounds(0)).toBe(0);
    expect(maxInputRounds(3)).toBe(3);
  });

  it("refuses anything else with a RangeError naming the value", () => {
    for (const [value, shown] of [[-1, "-1"], [1.5, "1.5"], [Number.NaN, "NaN"], [Number.POSITIVE_INFINITY, "Infinity"]] as const) {
      expect(() => maxInputRounds(value)).toThrow(new RangeError(`maxInputRounds must be an integer ≥ 0, got ${shown}`));
    }
  });
});

describe("clientRequestMeta", () => {
  it("fills the version (default: the revision) and capabilities (default: none), and the info only when given", () => {
    expect(clientRequestMeta(KEYS, "2026-07-28", {})).toEqual({ [KEYS.protocolVersion]: "2026-07-28", [KEYS.clientCapabilities]: {} });
    expect(clientRequestMeta(KEYS, "2026-07-28", { protocolVersion: "x", capabilities: { roots: {} }, clientInfo: { name: "c", version: "1" } })).toEqual({
      [KEYS.protocolVersion]: "x",
      [KEYS.clientCapabilities]: { roots: {} },
      [KEYS.clientInfo]: { name: "c", version: "1" },
    });
  });
});

describe("clientEndpointOptions", () => {
  it("where the lifecycle is stateless: request `_meta`, the Tasks cancel request and MRTR answering from the descriptor", () => {
    const handlers = { "elicitation/create": () => ({ action: "decline" }) };
    const options = clientEndpointOptions(STATELESS, { handlers, maxInputRounds: 2, defaultTimeoutMs: 7 });
    expect(options.requestMeta).toEqual({ [KEYS.protocolVersion]: "2026-07-28", [KEYS.clientCapabilities]: {} });
    expect(options.tasks).toEqual({ cancelRequest: "tasks/cancel" });
    expect(options.handlers).toBe(handlers);
    expect(options.defaultTimeoutMs).toBe(7);
    expect(options.answerInput).toBeDefined();
    expect(created.get(options.answerInput!)).toEqual({
      methods: new Set(["tools/call", "prompts/get"]),
      inputs: new Set(["elicitation/create"]),
      maxRounds: 2,
      returnInputRequired: false,
    });
    expect(created.get(clientEndpointOptions(STATELESS, { returnInputRequired: true }).answerInput!)?.returnInputRequired).toBe(true);
  });

  it("on a revision without them: no request `_meta`, no tasks, no MRTR (and maxInputRounds is not read)", () => {
    const options = clientEndpointOptions(OLD, { maxInputRounds: -1 });
    expect(options.requestMeta).toBeUndefined();
    expect(options.tasks).toBeUndefined();
    expect(options.answerInput).toBeUndefined();
  });

  it("a bad maxInputRounds is refused when the client is made", () => {
    expect(() => clientEndpointOptions(STATELESS, { maxInputRounds: 1.5 })).toThrow(RangeError);
  });
});

describe("task handles", () => {
  const requests: Array<[string, unknown]> = [];
  const requester: ClientTaskRequester = {
    declared: true,
    request: (method, params) => {
      requests.push([method, params]);
      return Promise.resolve({});
    },
  };

  it("a result that is a task handle becomes a ClientTask; anything else is returned as it is", () => {
    const plain = { content: [] };
    expect(asTask(requester, plain, undefined)).toBe(plain);
    expect(asTask(requester, { resultType: "task", taskId: "t1" }, { afterTask: "detach" })).toBeInstanceOf(ClientTask);
  });

  it("a client whose capabilities do not declare the extension: a task handle is an UndeclaredTaskError, anything else is returned", () => {
    const undeclared = { ...requester, declared: false };
    const plain = { content: [] };
    expect(asTask(undeclared, plain, undefined)).toBe(plain);
    expect(() => asTask(undeclared, { resultType: "task", taskId: "t9" }, undefined)).toThrow(UndeclaredTaskError);
    expect([declaresTasks(undefined), declaresTasks({}), declaresTasks({ extensions: { "x.example/other": {} } })]).toEqual([false, false, false]);
    expect([declaresTasks({ extensions: { [TASKS_EXTENSION]: {} } }), declaresTasks({ extensions: Object.create({ [TASKS_EXTENSION]: {} }) })]).toEqual([true, false]);
  });

  it("aborting the call's signal cancels the task with the cancel request, unless detached", async () => {
    const controller = new AbortController();
    asTask(requester, { resultType: "task", taskId: "t2" }, { signal: controller.signal });
    const detached = new AbortController();
    asTask(requester, { resultType: "task", taskId: "t3" }, { signal: detached.signal, afterTask: "detach" });
    controller.abort();
    detached.abort();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(requests.filter(([method]) => method === "tasks/cancel").map(([, params]) => params)).toEqual([{ taskId: "t2" }]);
  });

  it("taskRequester sends through the endpoint, answers input as tasks/update, and reports failures as Errors", async () => {
    const calls: unknown[] = [];
    const errors: Error[] = [];
    const endpoint = {
      request: (method: string, params?: object) => {
        calls.push(["request", method, params]);
        return Promise.resolve({ ok: true });
      },
      answerInputRequests: (method: string, inputRequests: object) => {
        calls.push(["answer", method, inputRequests]);
        return Promise.resolve({});
      },
    };
    const built = taskRequester(endpoint, { onError: (error) => errors.push(error) });
    expect([built.declared, taskRequester(endpoint, { capabilities: { extensions: { [TASKS_EXTENSION]: {} } } }).declared]).toEqual([false, true]);
    await built.request("tasks/get", { taskId: "t" });
    await built.answerInput?.({ a: {} }, undefined);
    built.onError?.("text");
    expect(calls).toEqual([
      ["request", "tasks/get", { taskId: "t" }],
      ["answer", "tasks/update", { a: {} }],
    ]);
    expect(errors.map((e) => [e instanceof Error, e.message])).toEqual([[true, "text"]]);
  });
});

describe("methodPolicies", () => {
  it("keys every request's cancellation rules and params requirement by method, and leaves notifications out", () => {
    const policies = methodPolicies([
      { method: "tools/call", kind: "request", cancellable: true, taskAugmentable: true, paramsRequired: true },
      { method: "initialize", kind: "request", cancellable: false, taskAugmentable: false, paramsRequired: true },
      { method: "notifications/cancelled", kind: "notification", cancellable: false, taskAugmentable: false, paramsRequired: true },
    ]);
    expect([...policies]).toEqual([
      ["tools/call", { cancellable: true, taskAugmentable: true, paramsRequired: true }],
      ["initialize", { cancellable: false, taskAugmentable: false, paramsRequired: true }],
    ]);
  });
});
