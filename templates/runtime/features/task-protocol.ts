// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663): the vocabulary both sides share:
// the extension's identifier, a task's statuses (and which of them are terminal), and the task
// handle a request is answered with instead of its result (CreateTaskResult). The server's side
// is task-manager.ts (with task-store.ts and memory-task-store.ts), the client's client-task.ts.

/** The extension's identifier: the key under `capabilities.extensions`. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** Statuses a task never leaves. */
export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/**
 * A task handle as a handler returns it (CreateTaskResult: `resultType: "task"` and the Task
 * fields, flat). A type alias, so it is assignable to the schema's CreateTaskResult.
 */
export type TaskHandle = {
  resultType: "task";
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
};
