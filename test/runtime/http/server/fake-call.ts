/**
 * A fake HttpCall for the unit tests of the server core (pipeline, replies, sse-stream, routes):
 * a request head given as data, a body given as bytes (or a body read's other outcomes), and a
 * record of what was answered. No face, no socket: what the core does with a call, alone.
 */
import { BROKEN, TOO_LARGE, type BodyRead, type HeaderView, type HttpCall, type ResponseBody, type ResponseHeaders } from "../../../../templates/runtime/http/server/call.js";

export { BROKEN, TOO_LARGE };

/** What a fake call was answered with. */
export type Answered =
  | { readonly kind: "respond"; readonly status: number; readonly headers: ResponseHeaders; readonly body: string | undefined }
  | { readonly kind: "respondWith"; readonly response: Response }
  | { readonly kind: "stream"; readonly status: number; readonly headers: ResponseHeaders; readonly highWater: number; readonly body: FakeBody };

/** A response body whose unread bytes the test sets (`buffered`), recording what was written. */
export class FakeBody implements ResponseBody {
  ondrain: (() => void) | undefined = undefined;
  buffered = 0;
  readonly writes: string[] = [];
  ended = 0;
  aborted = 0;
  /** Writes add their bytes to `buffered` (a client that reads nothing) while true. */
  counts = true;
  write(bytes: Uint8Array): void {
    this.writes.push(new TextDecoder().decode(bytes));
    if (this.counts) this.buffered += bytes.byteLength;
  }
  end(): void {
    this.ended++;
  }
  abort(): void {
    this.aborted++;
  }
  /** The client read everything: nothing unread, and the drain reported. */
  drain(): void {
    this.buffered = 0;
    this.ondrain?.();
  }
}

class Headers implements HeaderView {
  readonly #map: Map<string, string>;
  constructor(headers: Record<string, string>) {
    this.#map = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  }
  get(name: string): string | null {
    return this.#map.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#map.has(name.toLowerCase());
  }
  forEach(callback: (value: string, name: string) => void): void {
    for (const [name, value] of [...this.#map].sort(([a], [b]) => (a < b ? -1 : 1))) callback(value, name);
  }
}

export interface FakeCallInit {
  readonly method?: string;
  readonly url?: string;
  readonly headers?: Record<string, string>;
  readonly localAddress?: string;
  /** The connection's key (HttpCall.peer); default none. */
  readonly peer?: string;
  /** The body: its bytes (a string is UTF-8 encoded), or what its read gives instead. */
  readonly body?: string | Uint8Array | typeof TOO_LARGE | typeof BROKEN;
}

/** An HttpCall over data; `answers` records what it was answered with, `reads` the bounds its body was read with. */
export class FakeCall implements HttpCall {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderView;
  readonly localAddress: string | undefined;
  readonly peer: string | undefined;
  onclose: (() => void) | undefined = undefined;
  gone = false;
  readonly answers: Answered[] = [];
  readonly reads: number[] = [];
  readonly #body: FakeCallInit["body"];

  constructor(init: FakeCallInit = {}) {
    this.method = init.method ?? "POST";
    this.url = init.url ?? "http://127.0.0.1/mcp";
    this.headers = new Headers({ host: new URL(this.url).host, ...init.headers });
    this.localAddress = init.localAddress;
    this.peer = init.peer;
    this.#body = init.body;
  }

  get path(): string {
    return new URL(this.url).pathname;
  }
  query(name: string): string | null {
    return new URL(this.url).searchParams.get(name);
  }
  get hasBody(): boolean {
    return this.#body !== undefined;
  }
  get answered(): boolean {
    return this.answers.length > 0;
  }
  readBody(max: number): Promise<BodyRead> {
    this.reads.push(max);
    const body = this.#body;
    if (body === undefined) return Promise.resolve(new Uint8Array(0));
    if (body === TOO_LARGE || body === BROKEN) return Promise.resolve(body);
    const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
    return Promise.resolve(bytes.byteLength > max ? TOO_LARGE : bytes);
  }
  respond(status: number, headers: ResponseHeaders, body?: string): void {
    this.#start();
    this.answers.push({ kind: "respond", status, headers, body });
  }
  respondWith(response: Response): Promise<void> {
    this.#start();
    this.answers.push({ kind: "respondWith", response });
    return Promise.resolve();
  }
  stream(status: number, headers: ResponseHeaders, highWater: number): FakeBody {
    this.#start();
    const body = new FakeBody();
    this.answers.push({ kind: "stream", status, headers, highWater, body });
    return body;
  }
  /** The one answer, as a respond (fails the test otherwise); `json`: its body parsed, undefined when it is no JSON. */
  get responded(): { readonly status: number; readonly headers: ResponseHeaders; readonly body: string | undefined; readonly json: unknown } {
    if (this.answers.length !== 1 || this.answers[0]!.kind !== "respond") throw new Error(`expected one respond, got ${JSON.stringify(this.answers.map((a) => a.kind))}`);
    const { status, headers, body } = this.answers[0]!;
    let json: unknown;
    try {
      json = body === undefined ? undefined : (JSON.parse(body) as unknown);
    } catch {
      json = undefined;
    }
    return { status, headers, body, json };
  }
  #start(): void {
    if (this.answers.length > 0) throw new Error("the response has already started");
  }
}
