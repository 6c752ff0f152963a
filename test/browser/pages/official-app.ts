/**
 * App page with the official App of @modelcontextprotocol/ext-apps 2.0.4, talking to its host
 * (window.parent) over the official PostMessageTransport.
 */
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";
import type { AppProbe, SeenResult } from "../harness/probe.js";
import { MALFORMED } from "../harness/probe.js";
import { deferred, field, firstText, log, page, type ToolResultLike } from "./ui.js";

page("App: official App");
const result = field("result", "–");
const note = log();
const inputs: Array<Record<string, unknown>> = [];
const errors: string[] = [];
const connected = deferred<string>();

const app = new App({ name: "official-app", version: "1.0.0" }, {}, { autoResize: false });
app.ontoolinput = ({ arguments: args }) => {
  inputs.push(args ?? {});
  note(`tool-input ${JSON.stringify(args)}`);
};
app.onerror = (error) => {
  errors.push(error.message);
  note(`error: ${error.message}`);
};
void app.connect(new PostMessageTransport(window.parent, window.parent)).then(() => {
  const name = app.getHostVersion()?.name ?? "?";
  note(`connected to ${name}`);
  connected.resolve(name);
});

let pending: { controller: AbortController; outcome: Promise<string> } | undefined;
const seen = (value: ToolResultLike): SeenResult => ({
  text: firstText(value),
  isError: value.isError === true,
});

const probe: AppProbe = {
  connected: () => connected.promise,
  toolInputs: () => inputs,
  sendSizeChanged: (width, height) => app.sendSizeChanged({ width, height }),
  async callTool(name, args) {
    const answer = seen(await app.callServerTool({ name, arguments: args }));
    result(answer.text);
    return answer;
  },
  startCall(name) {
    const controller = new AbortController();
    const outcome = app.callServerTool({ name, arguments: {} }, { signal: controller.signal }).then(
      (value) => `result: ${firstText(value)}`,
      (error: unknown) => `aborted: ${error instanceof Error ? error.message : String(error)}`,
    );
    pending = { controller, outcome };
  },
  cancel() {
    if (pending === undefined) return Promise.reject(new Error("no call started"));
    pending.controller.abort(new Error("cancelled by the app"));
    return pending.outcome;
  },
  postMalformed: () => {
    for (const message of MALFORMED) window.parent.postMessage(message, "*");
  },
  errors: () => errors,
  // The official transport keeps no count of what it ignores.
  ignored: () => null,
};
Object.assign(window, { appProbe: probe });
