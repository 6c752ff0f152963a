/**
 * The dice app's script (runs in the host's sandboxed iframe; inlined into app.html by
 * server.ts): shows the rolls of `roll_dice` as the host reports them (tool-input, tool-result),
 * and rolls again by calling the tool through the host (a tools/call the host proxies to the
 * MCP server that served this app).
 */
import { embedderOrigin, McpUiApp, PostMessageTransport, type McpUiToolResultNotification } from "../../../out/apps/index.js";

const status = document.getElementById("status") as HTMLParagraphElement;
const faces = document.getElementById("faces") as HTMLDivElement;
const total = document.getElementById("total") as HTMLParagraphElement;
const roll = document.getElementById("roll") as HTMLButtonElement;

/** The last arguments the tool ran with (the host's tool-input), reused by "Roll again". */
let lastArgs: Record<string, unknown> = { sides: 6, count: 2 };

/** What roll_dice answers in structuredContent. */
interface Rolled {
  readonly rolls: readonly number[];
  readonly total: number;
}

const isRolled = (value: unknown): value is Rolled =>
  typeof value === "object" && value !== null && Array.isArray((value as Rolled).rolls) && typeof (value as Rolled).total === "number";

function show(result: McpUiToolResultNotification["params"]): void {
  const rolled = result.structuredContent;
  if (result.isError === true || !isRolled(rolled)) {
    status.textContent = "The roll failed.";
    return;
  }
  faces.replaceChildren(
    ...rolled.rolls.map((value) => {
      const face = document.createElement("div");
      face.className = "face";
      face.textContent = String(value);
      return face;
    }),
  );
  total.textContent = `Total: ${String(rolled.total)}`;
  status.textContent = `Rolled ${String(rolled.rolls.length)}d${String(lastArgs["sides"] ?? 6)}.`;
  void app.notify("ui/notifications/size-changed", { width: document.body.scrollWidth, height: document.documentElement.scrollHeight });
}

const app = new McpUiApp({
  appInfo: { name: "dice", version: "1.0.0" },
  notificationHandlers: {
    "ui/notifications/tool-input": ({ arguments: args }) => {
      lastArgs = args ?? lastArgs;
      status.textContent = "Rolling…";
    },
    "ui/notifications/tool-result": (result) => show(result),
  },
});

roll.addEventListener("click", () => {
  roll.disabled = true;
  status.textContent = "Rolling…";
  app.request("tools/call", { name: "roll_dice", arguments: lastArgs }).then(
    (result) => show(result),
    (error: unknown) => (status.textContent = `Could not roll: ${error instanceof Error ? error.message : String(error)}`),
  ).finally(() => (roll.disabled = false));
});

// The host's origin: the transport posts to it only and reads its messages only. A UI resource
// cannot know it in advance (any host may render it), so it is the embedding page's, as the
// browser tells it (location.ancestorOrigins, else the referrer; docs/apps.md, Security).
const hostOrigin = embedderOrigin();
if (hostOrigin === undefined) throw new Error("dice: not framed by a host page (no embedder origin)");
const transport = new PostMessageTransport({ target: window.parent, peerOrigin: hostOrigin, onReport: (problem) => console.warn(`dice: ${problem.kind} from ${problem.origin}: ${problem.detail}`) });
await app.connect(transport);
status.textContent = `Connected to ${app.hostInfo?.name ?? "the host"}.`;
roll.disabled = false;
