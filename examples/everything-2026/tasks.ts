/**
 * The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) in the 2026-07-28 everything
 * server: the tools the conformance suite's tasks-* scenarios call by name. The server decides
 * per request whether a call becomes a task, and only for a client whose request `_meta` declares
 * the extension (`tasks.declared`); a tool that cannot run without it (task support "required")
 * refuses such a client with MissingRequiredClientCapability (-32021) naming the extension.
 *
 * Each task's work runs after its handle is answered, polls nothing and holds nothing but its
 * timer: tasks/cancel aborts `task.signal`, which every wait here honours.
 */
import { ErrorCode, McpError, TASKS_EXTENSION, type CallToolResult, type ElicitRequest, type ElicitResult, type JsonObject, type TaskWork, type Tool } from "../../out/2026-07-28/index.js";
import type { ToolEntry } from "./tools.js";

/** The tool result a task completes with (no resultType: tasks/get inlines it as the task's result). */
const content = (value: string, isError = false): JsonObject => ({ content: [{ type: "text", text: value }], ...(isError ? { isError: true } : {}) });
const complete = (value: string): CallToolResult => ({ resultType: "complete", content: [{ type: "text", text: value }] });

/** SEP-2575 Missing Required Capabilities: the extension named in data.requiredCapabilities. */
const MISSING_TASKS = () =>
  new McpError(-32021, `This tool runs only as a task: declare the ${TASKS_EXTENSION} extension in the request's client capabilities`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });

/** Waits `ms`, or rejects when the task is cancelled. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** A whole number of seconds from a peer's argument, kept between 0 and 30. */
const seconds = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? Math.min(30, Math.max(0, value)) : 1);

const confirm = (message: string, field: string) =>
  ({
    method: "elicitation/create",
    params: { mode: "form", message, requestedSchema: { type: "object", properties: { [field]: { type: "boolean" } }, required: [field] } },
  }) satisfies ElicitRequest;

const askName = (message: string) =>
  ({
    method: "elicitation/create",
    params: { mode: "form", message, requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
  }) satisfies ElicitRequest;

/** The `name` of an accepted form answer, or a stand-in. */
const nameOf = (answer: unknown): string => {
  const result = answer as ElicitResult | undefined;
  const name = result?.action === "accept" ? result.content?.["name"] : undefined;
  return typeof name === "string" ? name : "(no name)";
};

const tool = (name: string, description: string, properties: Record<string, object> = {}): Tool => ({
  name,
  description,
  inputSchema: { type: "object", properties },
});

export const TASK_TOOLS: readonly ToolEntry[] = [
  {
    tool: tool("greet", "Says hello at once (never a task).", { name: { type: "string" } }),
    run: (args) => complete(`Hello, ${typeof args["name"] === "string" ? args["name"] : "World"}!`),
  },
  {
    // Task-supporting: a task for a client with the extension, else the same work, synchronously.
    tool: tool("slow_compute", "Sleeps `seconds` (at most 30) and reports; a task when the client declared the Tasks extension.", {
      seconds: { type: "number" },
      label: { type: "string" },
    }),
    run: async (args, { ctx, tasks }) => {
      const ms = seconds(args["seconds"]) * 1000;
      const label = typeof args["label"] === "string" ? args["label"] : "compute";
      const work = async (signal: AbortSignal) => {
        await sleep(ms, signal);
        return `${label}: computed after ${ms} ms`;
      };
      if (!tasks.declared(ctx._meta)) return complete(await work(ctx.signal));
      return tasks.start(async (task) => content(await work(task.signal)));
    },
  },
  {
    // Task support "required": a tool error after about a second, reported as a completed task with isError.
    tool: tool("failing_job", "Runs only as a task; ends with a tool error (isError) after about a second."),
    run: (_args, { ctx, tasks }) => {
      if (!tasks.declared(ctx._meta)) throw MISSING_TASKS();
      return tasks.start(async (task) => {
        await sleep(1000, task.signal);
        return content("failing_job: the job failed", true);
      });
    },
  },
  {
    // A protocol-level failure: the task ends `failed` with the JSON-RPC error.
    tool: tool("protocol_error_job", "Fails with a protocol error (a failed task, or the error itself without the Tasks extension)."),
    run: (_args, { ctx, tasks }) => {
      const crash = () => {
        throw new McpError(ErrorCode.InternalError, "protocol_error_job: the worker crashed");
      };
      if (!tasks.declared(ctx._meta)) return crash();
      return tasks.start(async (task) => {
        await sleep(100, task.signal);
        return crash();
      });
    },
  },
  {
    // input_required on the task: one elicitation, answered through tasks/update.
    tool: tool("confirm_delete", "Asks the client to confirm (one elicitation through the task), then reports.", { filename: { type: "string" } }),
    run: (args, { ctx, tasks }) => {
      const filename = typeof args["filename"] === "string" ? args["filename"] : "file";
      if (!tasks.declared(ctx._meta)) throw MISSING_TASKS();
      return tasks.start(async (task: TaskWork) => {
        const answers = await task.input({ confirm: confirm(`Delete ${filename}?`, "confirm") }, `waiting for confirmation of ${filename}`);
        const answer = answers["confirm"] as ElicitResult | undefined;
        const yes = answer?.action === "accept" && answer.content?.["confirm"] === true;
        return content(yes ? `Deleted ${filename}` : `Kept ${filename}`);
      });
    },
  },
  {
    // Two input requests pending at once, which the client may answer one at a time.
    tool: tool("multi_input", "Asks two questions at once through the task and reports both answers."),
    run: (_args, { ctx, tasks }) => {
      if (!tasks.declared(ctx._meta)) throw MISSING_TASKS();
      return tasks.start(async (task) => {
        const answers = await task.input({ first: askName("First name?"), second: askName("Second name?") });
        return content(`first=${nameOf(answers["first"])}, second=${nameOf(answers["second"])}`);
      });
    },
  },
  {
    // MRTR, then a task (SEP-2663 composition): round 1 asks for the name with an
    // InputRequiredResult; the retry that carries it becomes a task whose result names the user.
    tool: tool("test_tool_with_task", "Asks for your name (multi round-trip request), then greets you from a task."),
    run: (_args, { ctx, tasks }) => {
      if (!tasks.declared(ctx._meta)) throw MISSING_TASKS();
      const ask = { user_name: askName("What is your name?") };
      const got = ctx.input.responses(ask);
      if (got === undefined) return ctx.input.required(ask);
      const name = nameOf(got.user_name);
      return tasks.start(async () => content(`Hello, ${name}! (from a task)`));
    },
  },
];
