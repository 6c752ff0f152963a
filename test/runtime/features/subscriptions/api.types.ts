// Type-level tests of the Subscriptions hub of 2026-07-28, compiled by `npm test` (tsc -p
// tsconfig.json): each `@ts-expect-error` line must be an error, or tsc fails on the unused directive.
import * as Old from "../../../generated/2025-11-25/index.js";
import type * as T from "../../../generated/2026-07-28/index.js";
import { McpServer, Subscriptions, type SubscriptionNotificationMap, type SubscriptionsListenHandler } from "../../../generated/2026-07-28/index.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assertType = <V extends true>(): V | undefined => undefined;

declare const hub: Subscriptions;

export function publishIsTypedFromTheCatalog(): number {
  let count = hub.publish("notifications/tools/list_changed");
  count += hub.publish("notifications/prompts/list_changed", {});
  count += hub.publish("notifications/resources/updated", { uri: "file:///a" });
  // @ts-expect-error a resource update names its resource
  hub.publish("notifications/resources/updated");
  // @ts-expect-error the uri is a string
  hub.publish("notifications/resources/updated", { uri: 1 });
  // @ts-expect-error log messages are not delivered on listen streams
  hub.publish("notifications/message", { level: "info", data: "x" });
  // @ts-expect-error nor is the acknowledgment the application's to send
  hub.publish("notifications/subscriptions/acknowledged", { notifications: {} });
  return count;
}

assertType<Equal<keyof SubscriptionNotificationMap, "notifications/tools/list_changed" | "notifications/prompts/list_changed" | "notifications/resources/list_changed" | "notifications/resources/updated">>();

export function options(): void {
  new Subscriptions({ kinds: ["toolsListChanged", "resourceSubscriptions"], maxPending: 10, matchesUri: (a, b) => b.startsWith(a) });
  // @ts-expect-error kinds are the filter's fields
  new Subscriptions({ kinds: ["tools"] });
  new McpServer({ subscriptions: hub });
  // @ts-expect-error the option takes a Subscriptions hub
  new McpServer({ subscriptions: {} });
  // declare keeps the capabilities' type.
  const declared: T.ServerCapabilities = hub.declare({ tools: {} });
  void declared;
}

export function handlerIsTheTypedListenHandler(): void {
  const listen: SubscriptionsListenHandler = hub.handler({ tools: { listChanged: true } });
  new McpServer({ handlers: { "subscriptions/listen": listen } });
  new McpServer({
    handlers: {
      "subscriptions/listen": async (params, ctx) => {
        // A wrapping handler may check the filter first, then hand over.
        if (params.notifications.resourceSubscriptions?.some((uri) => uri.startsWith("secret:"))) ctx.end("no");
        return listen(params, ctx);
      },
    },
  });
  // @ts-expect-error the hub's handler is the listen handler, not another method's
  new McpServer({ handlers: { "tools/call": listen } });
}

// @ts-expect-error no Subscriptions before 2026-07-28 (no subscriptions/listen)
void Old.Subscriptions;
