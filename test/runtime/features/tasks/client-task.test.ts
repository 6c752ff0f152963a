/**
 * ClientTask (templates/runtime/features/tasks.ts, the client side of the Tasks extension) through its
 * typed API, against a requester the test plays (what the generated client hands it): the
 * requests that go out (tasks/get, tasks/update, tasks/cancel with their params and options),
 * when result() polls again (the server's suggested interval, clamped to 10 ms … 60 s, or the
 * caller's fallback; fake timers), how it ends (result, TaskFailedError, TaskCancelledError, the
 * input-round bound, the caller's signal), and the call's signal turned into one tasks/cancel.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { McpError, type JsonObject, type RequestOptions } from "../../../../templates/runtime/core/protocol.js";
import { ClientTask, TaskCancelledError, TaskFailedError, type TaskRequester } from "../../../../templates/runtime/features/client-task.js";
import { deferred } from "../../../helpers/harness.js";
import { rejectionOf } from "../../../generator/support.js";

interface Sent {
  readonly method: string;
  readonly params: object | undefined;
  readonly options: RequestOptions | undefined;
}

/**
 * A requester whose tasks/get answers are `answers` in turn (the last one repeats); tasks/update
 * and tasks/cancel resolve to {} unless `fail` says otherwise.
 */
function requester(answers: unknown[], extra: Partial<TaskRequester> & { fail?: (method: string) => unknown } = {}) {
  const sent: Sent[] = [];
  let next = 0;
  const r: TaskRequester = {
    request: (method, params, options) => {
      sent.push({ method, params, options });
      const failure = extra.fail?.(method);
      if (failure !== undefined) return Promise.reject(failure);
      if (method !== "tasks/get") return Promise.resolve({});
      const answer = answers[Math.min(next++, answers.length - 1)];
      return Promise.resolve(structuredClone(answer));
    },
    answerInput: extra.answerInput,
    onError: extra.onError,
  };
  return { requester: r, sent, gets: () => sent.filter((s) => s.method === "tasks/get").length, of: (method: string) => sent.filter((s) => s.method === method) };
}

const HANDLE = { resultType: "task", taskId: "t-1", status: "working", createdAt: "2026-01-01T00:00:00.000Z", lastUpdatedAt: "2026-01-01T00:00:00.000Z", ttlMs: null };
const working = (extra: JsonObject = {}) => ({ ...HANDLE, resultType: "complete", ...extra });
const completed = (result: unknown) => ({ ...HANDLE, resultType: "complete", status: "completed", result });

afterEach(() => {
  vi.useRealTimers();
});

describe("ClientTask's fields as last seen", () => {
  it("status is the handle's string status, else working; statusMessage and pollIntervalMs only when well-typed", async () => {
    const { requester: r } = requester([{ status: "input_required", statusMessage: 7, pollIntervalMs: Number.POSITIVE_INFINITY }]);
    const task = new ClientTask(r, { taskId: "t-1", status: 5, statusMessage: "queued", pollIntervalMs: 250 });
    expect([task.taskId, task.resultType, task.status, task.statusMessage, task.pollIntervalMs]).toEqual(["t-1", "task", "working", "queued", 250]);
    await task.get();
    expect([task.status, task.statusMessage, task.pollIntervalMs]).toEqual(["input_required", undefined, undefined]);
    const other = new ClientTask(r, { taskId: "t-2", pollIntervalMs: "250" });
    expect(other.pollIntervalMs).toBeUndefined();
  });
});

describe("get, update, cancel", () => {
  it("send tasks/get, tasks/update and tasks/cancel with the task id and the caller's options", async () => {
    const { requester: r, sent } = requester([working({ statusMessage: "half way" })]);
    const task = new ClientTask(r, HANDLE);
    const options = { timeoutMs: 1_234 };
    expect(await task.get(options)).toMatchObject({ status: "working", statusMessage: "half way" });
    expect(task.latest).toMatchObject({ statusMessage: "half way" });
    await task.update({ a: { action: "decline" } }, options);
    await task.cancel(options);
    expect(sent).toEqual([
      { method: "tasks/get", params: { taskId: "t-1" }, options },
      { method: "tasks/update", params: { taskId: "t-1", inputResponses: { a: { action: "decline" } } }, options },
      { method: "tasks/cancel", params: { taskId: "t-1" }, options },
    ]);
  });

  it("a tasks/get answer that is no task (not an object, no string status) is -32603 naming the task, and is not taken as the latest", async () => {
    for (const answer of [null, "working", [], { status: 3 }, {}]) {
      const { requester: r } = requester([answer]);
      const task = new ClientTask(r, HANDLE);
      const e = await rejectionOf(task.get(), McpError);
      expect([e.code, e.message]).toEqual([-32603, "tasks/get answered no task for t-1"]);
      expect(task.latest).toBe(HANDLE);
    }
  });
});

describe("result(): how the wait ends", () => {
  it("completed: the task's result, or {} when the result is not an object", async () => {
    expect(await new ClientTask(requester([completed({ content: [] })]).requester, HANDLE).result()).toEqual({ content: [] });
    expect(await new ClientTask(requester([completed([1, 2])]).requester, HANDLE).result()).toEqual({});
    expect(await new ClientTask(requester([completed("text")]).requester, HANDLE).result()).toEqual({});
  });

  it("failed: TaskFailedError with the server's error; cancelled: TaskCancelledError naming the task", async () => {
    const failed = await rejectionOf(new ClientTask(requester([{ ...HANDLE, status: "failed", error: { code: -32001, message: "backend down", data: { retry: true } } }]).requester, HANDLE).result(), TaskFailedError);
    expect([failed.code, failed.message, failed.data, failed.taskId]).toEqual([-32001, "task t-1 failed: backend down", { retry: true }, "t-1"]);
    const cancelled = await rejectionOf(new ClientTask(requester([{ ...HANDLE, status: "cancelled" }]).requester, HANDLE).result(), TaskCancelledError);
    expect([cancelled.name, cancelled.message, cancelled.taskId]).toEqual(["TaskCancelledError", "task t-1 was cancelled", "t-1"]);
  });

  it("onStatus hears each tasks/get answer; one that throws does not stop the wait", async () => {
    vi.useFakeTimers();
    const { requester: r } = requester([working(), completed({ ok: true })]);
    const heard: unknown[] = [];
    const done = new ClientTask(r, HANDLE).result({
      onStatus: (task) => {
        heard.push(task["status"]);
        throw new Error("listener broke");
      },
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await done).toEqual({ ok: true });
    expect(heard).toEqual(["working", "completed"]);
  });
});

describe("result(): when it polls again", () => {
  /** How many tasks/get went out after `ms` more of fake time. */
  async function getsAfter(ms: number, gets: () => number): Promise<number> {
    await vi.advanceTimersByTimeAsync(ms);
    return gets();
  }

  it("at the server's suggested pollIntervalMs", async () => {
    vi.useFakeTimers();
    const { requester: r, gets } = requester([working({ pollIntervalMs: 300 }), working({ pollIntervalMs: 300 }), completed({})]);
    const done = new ClientTask(r, HANDLE).result({ pollIntervalMs: 5_000 });
    expect(await getsAfter(0, gets)).toBe(1);
    expect(await getsAfter(299, gets)).toBe(1);
    expect(await getsAfter(1, gets)).toBe(2);
    expect(await getsAfter(300, gets)).toBe(3);
    expect(await done).toEqual({});
  });

  it("no faster than every 10 ms, whatever the server suggests", async () => {
    vi.useFakeTimers();
    const { requester: r, gets } = requester([working({ pollIntervalMs: 0 }), completed({})]);
    const done = new ClientTask(r, HANDLE).result();
    expect(await getsAfter(0, gets)).toBe(1);
    expect(await getsAfter(9, gets)).toBe(1);
    expect(await getsAfter(1, gets)).toBe(2);
    await done;
  });

  it("no slower than every 60 s, whatever the server suggests", async () => {
    vi.useFakeTimers();
    const { requester: r, gets } = requester([working({ pollIntervalMs: 3_600_000 }), completed({})]);
    const done = new ClientTask(r, HANDLE).result();
    expect(await getsAfter(0, gets)).toBe(1);
    expect(await getsAfter(59_999, gets)).toBe(1);
    expect(await getsAfter(1, gets)).toBe(2);
    await done;
  });

  it("without a suggestion: the caller's pollIntervalMs (at least 10), else every second", async () => {
    vi.useFakeTimers();
    const plain = { ...HANDLE, pollIntervalMs: undefined };
    const a = requester([working({ pollIntervalMs: undefined }), completed({})]);
    const first = new ClientTask(a.requester, plain).result({ pollIntervalMs: 250 });
    expect(await getsAfter(0, a.gets)).toBe(1);
    expect(await getsAfter(249, a.gets)).toBe(1);
    expect(await getsAfter(1, a.gets)).toBe(2);
    await first;
    const b = requester([working({ pollIntervalMs: undefined }), completed({})]);
    const second = new ClientTask(b.requester, plain).result({ pollIntervalMs: 1 });
    expect(await getsAfter(0, b.gets)).toBe(1);
    expect(await getsAfter(9, b.gets)).toBe(1);
    expect(await getsAfter(1, b.gets)).toBe(2);
    await second;
    const c = requester([working({ pollIntervalMs: undefined }), completed({})]);
    const third = new ClientTask(c.requester, plain).result();
    expect(await getsAfter(0, c.gets)).toBe(1);
    expect(await getsAfter(999, c.gets)).toBe(1);
    expect(await getsAfter(1, c.gets)).toBe(2);
    await third;
  });

  it("input_required that the client cannot answer (no answerInput, or no inputRequests object) is polled like working", async () => {
    vi.useFakeTimers();
    const asks = { ...HANDLE, status: "input_required", pollIntervalMs: 20, inputRequests: { a: { method: "elicitation/create", params: {} } } };
    const a = requester([asks, completed({ a: 1 })]);
    const first = new ClientTask(a.requester, HANDLE).result();
    expect(await getsAfter(19, a.gets)).toBe(1);
    expect(await getsAfter(1, a.gets)).toBe(2);
    expect(await first).toEqual({ a: 1 });
    expect(a.of("tasks/update")).toEqual([]);
    const answerInput = vi.fn(async () => ({}));
    const b = requester([{ ...asks, inputRequests: "a" }, completed({ b: 1 })], { answerInput });
    const second = new ClientTask(b.requester, HANDLE).result();
    expect(await getsAfter(19, b.gets)).toBe(1);
    expect(await getsAfter(1, b.gets)).toBe(2);
    expect(await second).toEqual({ b: 1 });
    expect(answerInput).not.toHaveBeenCalled();
    expect(b.of("tasks/update")).toEqual([]);
  });
});

describe("result(): input rounds", () => {
  const asks = (n: number) => ({ ...HANDLE, status: "input_required", inputRequests: { [`q${n}`]: { method: "elicitation/create", params: {} } } });

  it("answers each input_required at once with the client's answers (tasks/update, the caller's signal), then polls at once", async () => {
    const signal = new AbortController().signal;
    const answerInput = vi.fn(async (requests: JsonObject) => Object.fromEntries(Object.keys(requests).map((k) => [k, { action: "accept", content: { k } }])));
    const { requester: r, sent } = requester([asks(1), asks(2), completed({ ok: 1 })], { answerInput });
    expect(await new ClientTask(r, HANDLE).result({ signal })).toEqual({ ok: 1 });
    expect(answerInput.mock.calls).toEqual([
      [{ q1: { method: "elicitation/create", params: {} } }, signal],
      [{ q2: { method: "elicitation/create", params: {} } }, signal],
    ]);
    expect(sent.map((s) => s.method)).toEqual(["tasks/get", "tasks/update", "tasks/get", "tasks/update", "tasks/get"]);
    expect(sent[1]).toEqual({ method: "tasks/update", params: { taskId: "t-1", inputResponses: { q1: { action: "accept", content: { k: "q1" } } } }, options: { signal } });
    expect(sent[0]?.options).toEqual({ signal });
  });

  it("stops after maxInputRounds rounds (default 10) with -32603, sending no more tasks/update", async () => {
    const answerInput = async () => ({ x: 1 });
    const ten = requester([...Array.from({ length: 10 }, (_, i) => asks(i)), completed({ done: true })], { answerInput });
    expect(await new ClientTask(ten.requester, HANDLE).result()).toEqual({ done: true });
    expect(ten.of("tasks/update")).toHaveLength(10);
    const eleven = requester([asks(0)], { answerInput });
    const e = await rejectionOf(new ClientTask(eleven.requester, HANDLE).result(), McpError);
    expect([e.code, e.message]).toEqual([-32603, "task t-1 asked for input more than 10 times"]);
    expect(eleven.of("tasks/update")).toHaveLength(10);
    const two = requester([asks(0)], { answerInput });
    const e2 = await rejectionOf(new ClientTask(two.requester, HANDLE).result({ maxInputRounds: 2 }), McpError);
    expect(e2.message).toBe("task t-1 asked for input more than 2 times");
    expect(two.of("tasks/update")).toHaveLength(2);
  });
});

describe("result(): the caller's signal", () => {
  it("already aborted: rejects with its reason and sends nothing", async () => {
    const { requester: r, sent } = requester([completed({})]);
    const reason = new Error("gave up");
    await expect(new ClientTask(r, HANDLE).result({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(sent).toEqual([]);
  });

  it("aborted while waiting between polls: rejects with its reason at once, polls no more, cancels nothing", async () => {
    vi.useFakeTimers();
    const { requester: r, sent } = requester([working({ pollIntervalMs: 5_000 })]);
    const controller = new AbortController();
    const done = new ClientTask(r, HANDLE).result({ signal: controller.signal });
    await vi.advanceTimersByTimeAsync(100);
    expect(sent).toHaveLength(1);
    controller.abort("stop waiting");
    await expect(done).rejects.toBe("stop waiting");
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sent.map((s) => s.method)).toEqual(["tasks/get"]);
  });

  it("aborted while a tasks/get is out (a requester that does not watch the signal): rejects once the answer is in, without waiting the interval", async () => {
    vi.useFakeTimers();
    const answer = deferred<unknown>();
    const r: TaskRequester = { request: () => answer.promise };
    const controller = new AbortController();
    const done = new ClientTask(r, HANDLE).result({ signal: controller.signal });
    const outcome = done.then(
      () => "resolved",
      (e: unknown) => e,
    );
    controller.abort("stop now");
    answer.resolve(working({ pollIntervalMs: 5_000 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(await Promise.race([outcome, Promise.resolve("still waiting")])).toBe("stop now");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("each poll's wait leaves no listener on the caller's signal", async () => {
    vi.useFakeTimers();
    const { requester: r } = requester([working({ pollIntervalMs: 10 }), working({ pollIntervalMs: 10 }), working({ pollIntervalMs: 10 }), completed({})]);
    const controller = new AbortController();
    const done = new ClientTask(r, HANDLE).result({ signal: controller.signal });
    await vi.advanceTimersByTimeAsync(100);
    await done;
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("bindSignal: the call's signal after the call became a task", () => {
  it("aborting sends one tasks/cancel for the task; no signal binds nothing", async () => {
    const { requester: r, sent } = requester([working()]);
    const controller = new AbortController();
    const task = new ClientTask(r, HANDLE);
    task.bindSignal(undefined);
    task.bindSignal(controller.signal);
    expect(sent).toEqual([]);
    controller.abort();
    await Promise.resolve();
    expect(sent).toEqual([{ method: "tasks/cancel", params: { taskId: "t-1" }, options: undefined }]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("an already aborted signal sends tasks/cancel at once", async () => {
    const { requester: r, sent } = requester([working()]);
    new ClientTask(r, HANDLE).bindSignal(AbortSignal.abort());
    await Promise.resolve();
    expect(sent.map((s) => [s.method, s.params])).toEqual([["tasks/cancel", { taskId: "t-1" }]]);
  });

  it("is released when the task is seen to end, or cancelled by hand: a later abort sends nothing more", async () => {
    for (const end of ["completed", "failed", "cancelled"]) {
      const { requester: r, sent } = requester([{ ...HANDLE, status: end }]);
      const controller = new AbortController();
      const task = new ClientTask(r, HANDLE);
      task.bindSignal(controller.signal);
      await task.get();
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      controller.abort();
      await Promise.resolve();
      expect(sent.map((s) => s.method)).toEqual(["tasks/get"]);
    }
    const { requester: r, sent } = requester([working()]);
    const controller = new AbortController();
    const task = new ClientTask(r, HANDLE);
    task.bindSignal(controller.signal);
    await task.get();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    await task.cancel();
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    controller.abort();
    await Promise.resolve();
    expect(sent.map((s) => s.method)).toEqual(["tasks/get", "tasks/cancel"]);
  });

  it("a tasks/cancel that fails goes to the requester's onError (one that throws is contained)", async () => {
    const failure = new McpError(-32602, "Unknown task");
    const onError = vi.fn(() => {
      throw new Error("onError broke");
    });
    const { requester: r } = requester([working()], { fail: (method) => (method === "tasks/cancel" ? failure : undefined), onError });
    const controller = new AbortController();
    new ClientTask(r, HANDLE).bindSignal(controller.signal);
    controller.abort();
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1), { timeout: 5_000 });
    expect(onError).toHaveBeenCalledWith(failure);
  });
});
