/**
 * The method catalog of every published revision, asserted method by method against the spec
 * (direction, params, result, cancellable, task-augmentable). The expected tables are written by
 * hand from each revision's spec pages (Lifecycle, Utilities, Server and Client features), not
 * from generator output:
 * - results: each request's result per its spec page (2026-07-28: per its `…ResultResponse`,
 *   a union where the server may ask for input first); requests whose page says the receiver
 *   answers with an empty result (ping, logging/setLevel, resources/subscribe and unsubscribe)
 *   map to EmptyResult;
 * - cancellable: every request except `initialize` (Cancellation: "The initialize request MUST
 *   NOT be cancelled by clients"); notifications never;
 * - task-augmentable (2025-11-25, Tasks page): tools/call, sampling/createMessage and
 *   elicitation/create may carry `task`.
 */
import { describe, expect, it } from "vitest";
import { catalog } from "../../generator/generate.js";
import type { CatalogEntry } from "../../generator/model/catalog-data.js";
import { REVISIONS, TEST_CACHE_DIR, type Revision } from "../helpers/schemas.js";

type Row = [kind: "request" | "notification", from: "client" | "server" | "both", params: string | null, result: string | null, flags?: "uncancellable" | "task"];

const C = "client" as const;
const S = "server" as const;
const B = "both" as const;

/** 2024-11-05: params are inline in each request, so they are named through the request type. */
const rev2024: Record<string, Row> = {
  "completion/complete": ["request", C, 'CompleteRequest["params"]', "CompleteResult"],
  initialize: ["request", C, 'InitializeRequest["params"]', "InitializeResult", "uncancellable"],
  "logging/setLevel": ["request", C, 'SetLevelRequest["params"]', "EmptyResult"],
  ping: ["request", B, 'NonNullable<PingRequest["params"]>', "EmptyResult"],
  "prompts/get": ["request", C, 'GetPromptRequest["params"]', "GetPromptResult"],
  "prompts/list": ["request", C, 'NonNullable<ListPromptsRequest["params"]>', "ListPromptsResult"],
  "resources/list": ["request", C, 'NonNullable<ListResourcesRequest["params"]>', "ListResourcesResult"],
  "resources/read": ["request", C, 'ReadResourceRequest["params"]', "ReadResourceResult"],
  "resources/subscribe": ["request", C, 'SubscribeRequest["params"]', "EmptyResult"],
  "resources/templates/list": ["request", C, 'NonNullable<ListResourceTemplatesRequest["params"]>', "ListResourceTemplatesResult"],
  "resources/unsubscribe": ["request", C, 'UnsubscribeRequest["params"]', "EmptyResult"],
  "roots/list": ["request", S, 'NonNullable<ListRootsRequest["params"]>', "ListRootsResult"],
  "sampling/createMessage": ["request", S, 'CreateMessageRequest["params"]', "CreateMessageResult"],
  "tools/call": ["request", C, 'CallToolRequest["params"]', "CallToolResult"],
  "tools/list": ["request", C, 'NonNullable<ListToolsRequest["params"]>', "ListToolsResult"],
  "notifications/cancelled": ["notification", B, 'CancelledNotification["params"]', null],
  "notifications/initialized": ["notification", C, 'NonNullable<InitializedNotification["params"]>', null],
  "notifications/message": ["notification", S, 'LoggingMessageNotification["params"]', null],
  "notifications/progress": ["notification", B, 'ProgressNotification["params"]', null],
  "notifications/prompts/list_changed": ["notification", S, 'NonNullable<PromptListChangedNotification["params"]>', null],
  "notifications/resources/list_changed": ["notification", S, 'NonNullable<ResourceListChangedNotification["params"]>', null],
  "notifications/resources/updated": ["notification", S, 'ResourceUpdatedNotification["params"]', null],
  "notifications/roots/list_changed": ["notification", C, 'NonNullable<RootsListChangedNotification["params"]>', null],
  "notifications/tools/list_changed": ["notification", S, 'NonNullable<ToolListChangedNotification["params"]>', null],
};

/** 2025-06-18 adds elicitation (server → client). */
const rev2025_06: Record<string, Row> = {
  ...rev2024,
  "elicitation/create": ["request", S, 'ElicitRequest["params"]', "ElicitResult"],
};

/** 2025-11-25: named params types, tasks, URL elicitation completion. */
const rev2025_11: Record<string, Row> = {
  "completion/complete": ["request", C, "CompleteRequestParams", "CompleteResult"],
  "elicitation/create": ["request", S, "ElicitRequestParams", "ElicitResult", "task"],
  initialize: ["request", C, "InitializeRequestParams", "InitializeResult", "uncancellable"],
  "logging/setLevel": ["request", C, "SetLevelRequestParams", "EmptyResult"],
  ping: ["request", B, "RequestParams", "EmptyResult"],
  "prompts/get": ["request", C, "GetPromptRequestParams", "GetPromptResult"],
  "prompts/list": ["request", C, "PaginatedRequestParams", "ListPromptsResult"],
  "resources/list": ["request", C, "PaginatedRequestParams", "ListResourcesResult"],
  "resources/read": ["request", C, "ReadResourceRequestParams", "ReadResourceResult"],
  "resources/subscribe": ["request", C, "SubscribeRequestParams", "EmptyResult"],
  "resources/templates/list": ["request", C, "PaginatedRequestParams", "ListResourceTemplatesResult"],
  "resources/unsubscribe": ["request", C, "UnsubscribeRequestParams", "EmptyResult"],
  "roots/list": ["request", S, "RequestParams", "ListRootsResult"],
  "sampling/createMessage": ["request", S, "CreateMessageRequestParams", "CreateMessageResult", "task"],
  "tasks/cancel": ["request", B, 'CancelTaskRequest["params"]', "CancelTaskResult"],
  "tasks/get": ["request", B, 'GetTaskRequest["params"]', "GetTaskResult"],
  "tasks/list": ["request", B, "PaginatedRequestParams", "ListTasksResult"],
  "tasks/result": ["request", B, 'GetTaskPayloadRequest["params"]', "GetTaskPayloadResult"],
  "tools/call": ["request", C, "CallToolRequestParams", "CallToolResult", "task"],
  "tools/list": ["request", C, "PaginatedRequestParams", "ListToolsResult"],
  "notifications/cancelled": ["notification", B, "CancelledNotificationParams", null],
  "notifications/elicitation/complete": ["notification", S, 'ElicitationCompleteNotification["params"]', null],
  "notifications/initialized": ["notification", C, "NotificationParams", null],
  "notifications/message": ["notification", S, "LoggingMessageNotificationParams", null],
  "notifications/progress": ["notification", B, "ProgressNotificationParams", null],
  "notifications/prompts/list_changed": ["notification", S, "NotificationParams", null],
  "notifications/resources/list_changed": ["notification", S, "NotificationParams", null],
  "notifications/resources/updated": ["notification", S, "ResourceUpdatedNotificationParams", null],
  "notifications/roots/list_changed": ["notification", C, "NotificationParams", null],
  "notifications/tasks/status": ["notification", B, "TaskStatusNotificationParams", null],
  "notifications/tools/list_changed": ["notification", S, "NotificationParams", null],
};

/**
 * 2026-07-28: stateless lifecycle (no initialize, server/discover instead), subscriptions/listen
 * replaces resources/subscribe, no server → client requests (ServerRequest is absent: sampling,
 * roots and elicitation travel as input requests inside results), and ClientNotification is an
 * inline object: the client's only notification is notifications/cancelled. Results are what
 * each request's `…ResultResponse` allows: tools/call, prompts/get and resources/read may answer
 * InputRequiredResult (basic/patterns/mrtr: multi round-trip requests).
 */
const rev2026: Record<string, Row> = {
  "completion/complete": ["request", C, "CompleteRequestParams", "CompleteResult"],
  "prompts/get": ["request", C, "GetPromptRequestParams", "GetPromptResult | InputRequiredResult"],
  "prompts/list": ["request", C, "PaginatedRequestParams", "ListPromptsResult"],
  "resources/list": ["request", C, "PaginatedRequestParams", "ListResourcesResult"],
  "resources/read": ["request", C, "ReadResourceRequestParams", "ReadResourceResult | InputRequiredResult"],
  "resources/templates/list": ["request", C, "PaginatedRequestParams", "ListResourceTemplatesResult"],
  "server/discover": ["request", C, "RequestParams", "DiscoverResult"],
  "subscriptions/listen": ["request", C, "SubscriptionsListenRequestParams", "SubscriptionsListenResult"],
  "tools/call": ["request", C, "CallToolRequestParams", "CallToolResult | InputRequiredResult"],
  "tools/list": ["request", C, "PaginatedRequestParams", "ListToolsResult"],
  "notifications/cancelled": ["notification", B, "CancelledNotificationParams", null],
  "notifications/message": ["notification", S, "LoggingMessageNotificationParams", null],
  "notifications/progress": ["notification", S, "ProgressNotificationParams", null],
  "notifications/prompts/list_changed": ["notification", S, "NotificationParams", null],
  "notifications/resources/list_changed": ["notification", S, "NotificationParams", null],
  "notifications/resources/updated": ["notification", S, "ResourceUpdatedNotificationParams", null],
  "notifications/subscriptions/acknowledged": ["notification", S, "SubscriptionsAcknowledgedNotificationParams", null],
  "notifications/tools/list_changed": ["notification", S, "NotificationParams", null],
};

const EXPECTED: Record<Revision, Record<string, Row>> = {
  "2024-11-05": rev2024,
  "2025-03-26": rev2024,
  "2025-06-18": rev2025_06,
  "2025-11-25": rev2025_11,
  "2026-07-28": rev2026,
  draft: rev2026,
};

function expectedEntry(method: string, [kind, from, params, result, flag]: Row): CatalogEntry {
  return {
    method,
    kind,
    from: from === "both" ? ["client", "server"] : [from],
    params,
    result,
    cancellable: kind === "request" && flag !== "uncancellable",
    taskAugmentable: flag === "task",
  };
}

describe.each(REVISIONS)("catalog of %s", (revision) => {
  it("lists exactly the methods of the spec, each with its direction, params, result and cancellation flags", async () => {
    const json = await catalog({ revision, cacheDir: TEST_CACHE_DIR });
    expect(json.revision).toBe(revision);
    const expected = Object.entries(EXPECTED[revision])
      .map(([method, row]) => expectedEntry(method, row))
      .sort((a, b) => (a.method < b.method ? -1 : 1));
    expect(json.methods.map((m) => m.method)).toEqual(expected.map((m) => m.method));
    for (const [i, entry] of json.methods.entries()) expect(entry).toEqual(expected[i]);
  });
});

describe("result mapping rules on the published schemas", () => {
  it("derives EmptyResult only for the requests whose spec answers with an empty result", async () => {
    for (const revision of REVISIONS) {
      const json = await catalog({ revision, cacheDir: TEST_CACHE_DIR });
      const empty = json.methods.filter((m) => m.result === "EmptyResult").map((m) => m.method);
      const expected = revision.startsWith("2026") || revision === "draft"
        ? []
        : ["logging/setLevel", "ping", "resources/subscribe", "resources/unsubscribe"];
      expect(empty, revision).toEqual(expected);
    }
  });

  it("applies a result override over the derived mapping", async () => {
    const json = await catalog({ revision: "2025-11-25", cacheDir: TEST_CACHE_DIR, resultOverrides: { ping: "Result" } });
    expect(json.methods.find((m) => m.method === "ping")?.result).toBe("Result");
  });
});
