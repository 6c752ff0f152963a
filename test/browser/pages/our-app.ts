/**
 * App page with this project's generated App side (test/generated/apps: McpUiApp over the generated
 * PostMessageTransport), talking to its host, window.parent, whose exact origin the page's URL
 * names (`?host=`): the transport accepts that origin and that window only.
 */
import { McpUiApp, PostMessageTransport, type PostMessageProblem } from "../../generated/apps/index.js";
import type { AppProbe, SeenResult } from "../harness/probe.js";
import { MALFORMED } from "../harness/probe.js";
import { deferred, field, firstText, log, page, param, type ToolResultLike } from "./ui.js";

page("App: mcp-stubgen McpUiApp");
const result = field("result", "–");
const note = log();
const inputs: Array<Record<string, unknown>> = [];
const errors: string[] = [];
const connected = deferred<string>();

const app = new McpUiApp({
  appInfo: { name: "stubgen-app", version: "1.0.0" },
  notificationHandlers: {
    "ui/notifications/tool-input": ({ arguments: args }) => {
      inputs.push(args ?? {});
      note(`tool-input ${JSON.stringify(args)}`);
    },
  },
});
const transport = new PostMessageTransport({
  target: window.parent,
  peerOrigin: param("host"),
  onReport: (problem: PostMessageProblem) => {
    errors.push(`${problem.kind}: ${problem.detail}`);
    note(`reported ${problem.kind}`);
  },
});
void app.connect(transport).then(() => {
  const name = app.hostInfo?.name ?? "?";
  note(`connected to ${name}`);
  connected.resolve(name);
});

const seen = (value: ToolResultLike): SeenResult => ({ text: firstText(value), isError: value.isError === true });
let pending: { controller: AbortController; outcome: Promise<string> } | undefined;

const probe: AppProbe = {
  connected: () => connected.promise,
  toolInputs: () => inputs,
  sendSizeChanged: (width, height) => app.notify("ui/notifications/size-changed", { width, height }),
  async callTool(name, args) {
    const answer = seen(await app.request("tools/call", { name, arguments: args }));
    result(`${name} → ${answer.text}`);
    note(`tools/call ${name} → ${answer.text}`);
    return answer;
  },
  startCall(name) {
    const controller = new AbortController();
    note(`tools/call ${name} started`);
    const outcome = app.request("tools/call", { name, arguments: {} }, { signal: controller.signal }).then(
      (value) => `result: ${firstText(value)}`,
      (error: unknown) => `aborted: ${error instanceof Error ? error.message : String(error)}`,
    );
    pending = { controller, outcome };
  },
  async cancel() {
    if (pending === undefined) throw new Error("no call started");
    pending.controller.abort(new Error("cancelled by the app"));
    const outcome = await pending.outcome;
    note(`cancelled: ${outcome}`);
    return outcome;
  },
  postMalformed: () => {
    for (const message of MALFORMED) window.parent.postMessage(message, "*");
  },
  errors: () => errors,
  ignored: () => transport.ignored,
};
Object.assign(window, { appProbe: probe });
