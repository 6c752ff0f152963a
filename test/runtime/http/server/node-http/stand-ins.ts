/**
 * Stand-ins for node:http's IncomingMessage and ServerResponse (issue 17), for what a real socket
 * cannot make happen on cue: a write that finds the socket full, a client gone between two
 * events, a response destroyed before its "close". Either face's node:http listener
 * (toNodeListener of a runtime handler, or of a plain web handler: the bridge) is driven with
 * them, and every call it makes on them is recorded.
 */
import { EventEmitter } from "node:events";

const text = (bytes: Uint8Array | string | undefined) => (bytes === undefined ? undefined : typeof bytes === "string" ? bytes : new TextDecoder().decode(bytes));

/** A node:http IncomingMessage stand-in: the test emits its "data", "end", "error" and "close"; pause and resume are recorded. */
export class FakeRequest extends EventEmitter {
  readonly flow: string[] = [];
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly socket: { localAddress?: string; encrypted?: boolean } | null;
  destroyed = false;
  /** A GET of /mcp to Host 127.0.0.1:3000, unless `init` says otherwise (a key set to undefined: left out). */
  constructor(init: Partial<Pick<FakeRequest, "method" | "url" | "headers" | "socket">> = {}) {
    super();
    this.method = "method" in init ? init.method : "GET";
    this.url = "url" in init ? init.url : "/mcp";
    this.headers = init.headers ?? { host: "127.0.0.1:3000" };
    this.socket = init.socket === undefined ? { localAddress: "127.0.0.1" } : init.socket;
  }
  pause() {
    this.flow.push("pause");
  }
  resume() {
    this.flow.push("resume");
  }
  /** The whole body, then its end. */
  send(body: string) {
    if (body !== "") this.emit("data", new TextEncoder().encode(body));
    this.emit("end");
  }
}

/** A node:http ServerResponse stand-in recording every call; `ready` is what write() returns, `writableLength` what it says waits. */
export class FakeResponse extends EventEmitter {
  readonly calls: unknown[][] = [];
  ready = true;
  writableLength = 0;
  writableFinished = false;
  destroyed = false;
  #headersSent = false;
  writeHead(status: number, headers: Record<string, string | string[]>) {
    if (this.#headersSent) throw new Error("ERR_HTTP_HEADERS_SENT");
    this.#headersSent = true;
    this.calls.push(["writeHead", status, headers]);
  }
  flushHeaders() {
    this.calls.push(["flushHeaders"]);
  }
  write(chunk: Uint8Array) {
    this.#headersSent = true;
    this.calls.push(["write", text(chunk)]);
    return this.ready;
  }
  end(chunk?: Uint8Array) {
    this.calls.push(["end", text(chunk)]);
    this.writableFinished = true;
  }
  destroy() {
    this.calls.push(["destroy"]);
    this.destroyed = true;
  }
  /** The client went away. */
  disconnect() {
    this.destroyed = true;
    this.emit("close");
  }
  ended() {
    return this.calls.some((c) => c[0] === "end");
  }
  /** The status written, if any. */
  status(): number | undefined {
    return this.calls.find((c) => c[0] === "writeHead")?.[1] as number | undefined;
  }
  /** Everything written as the body, as text. */
  body(): string {
    return this.calls
      .filter((c) => (c[0] === "write" || c[0] === "end") && c[1] !== undefined)
      .map((c) => c[1] as string)
      .join("");
  }
}
