/**
 * What every host page and app page of the browser tests exposes on `window` for the test to
 * drive through puppeteer (`page.evaluate`, `frame.evaluate`): the same probe whichever side is
 * official and whichever is ours, so the four pairings run one scenario (harness/scenario.ts).
 * Plain data crosses the page boundary only.
 */

/** A tool result as the app saw it: its first text block and isError. */
export interface SeenResult {
  readonly text: string;
  readonly isError: boolean;
}

/** `window.hostProbe`, on the host page (http://127.0.0.1:A/<host>.html?app=…&third=…). */
export interface HostProbe {
  /** Resolves with the app's name once the app sent ui/notifications/initialized. */
  initialized(): Promise<string>;
  /** Host → app notification: ui/notifications/tool-input with these arguments. */
  sendToolInput(args: Record<string, unknown>): Promise<void>;
  /** The sizes of the ui/notifications/size-changed the host received, in order. */
  sizes(): Array<{ width: number; height: number }>;
  /** Posts malformed messages to the app's window, as if the host page sent junk. */
  postMalformed(): void;
  /** What the host side reported as bad input (malformed or invalid messages). */
  errors(): string[];
  /** Messages the host's transport ignored as another origin's or window's (ours; official: null). */
  ignored(): number | null;
}

/** `window.appProbe`, in the app's iframe (http://localhost:B/<app>.html). */
export interface AppProbe {
  /** Resolves with the host's name once the handshake is done. */
  connected(): Promise<string>;
  /** The arguments of each ui/notifications/tool-input received, in order. */
  toolInputs(): Array<Record<string, unknown>>;
  /** App → host notification: ui/notifications/size-changed. */
  sendSizeChanged(width: number, height: number): Promise<void>;
  /** A tools/call proxied through the host to the MCP server. */
  callTool(name: string, args: Record<string, unknown>): Promise<SeenResult>;
  /** Starts a tools/call that the test later cancels with `cancel()`. */
  startCall(name: string): void;
  /** Aborts the call of startCall; resolves with how that call ended ("aborted: …" or "result: …"). */
  cancel(): Promise<string>;
  /** Posts malformed messages to the host window, as if the app sent junk. */
  postMalformed(): void;
  /** What the app side reported as bad input. */
  errors(): string[];
  /** Messages the app's transport ignored as another origin's or window's (ours; official: null). */
  ignored(): number | null;
}

/** `window.thirdProbe`, in the third origin's iframe: forges messages to the host and the app. */
export interface ThirdProbe {
  /** Posts forged requests and notifications to the host window and the app's iframe; how many to each. */
  attack(): { toHost: number; toApp: number };
}

/** The forged messages of the third origin: what a test must never see take effect. */
export const FORGED = {
  toolInput: { forged: true },
  size: { width: 13, height: 13 },
  add: { a: 1000, b: 1 },
} as const;

/** The malformed messages a page posts to its peer: none is a JSON-RPC message. */
export const MALFORMED: readonly unknown[] = [
  "not an object",
  { jsonrpc: "1.0", method: "ui/notifications/tool-input" },
  { jsonrpc: "2.0", method: 42 },
  { jsonrpc: "2.0", id: {}, method: "tools/call" },
];

/** `window.exampleProbe`, on the host page that renders the example app (examples/apps/dice). */
export interface ExampleProbe {
  /**
   * Resolves once the host found roll_dice's UI resource, framed it, completed the handshake and
   * sent it the tool's input and result, as a host does when the model calls the tool.
   */
  ready(): Promise<{ resourceUri: string; mimeType: string; appName: string; firstText: string }>;
}
