/**
 * The one forwarding transport of the tests: wraps a transport (the generated runtime's, or the
 * SDK's, which is structurally the same) and forwards everything to it, recording what passes.
 *
 * - `sent`: every message sent through it, cloned at send time.
 * - `received`: every message delivered to it, when built with `{ received: true }` (off by
 *   default: a hostile-peer test may deliver values that cannot be cloned).
 * - `filter`: decides whether a message goes out (false: dropped, not recorded).
 * - `pause()` / `resume()`: holds sends in order, like a slow pipe, then lets them go (FIFO).
 * - `failNext`: the next send whose message it accepts rejects ("the pipe broke") and is not sent.
 *
 * The runtime's hooks (onmessage, onclose, onerror, onrequeststreamclose) are set on the inner
 * transport itself, so a test that drives `inner` directly (`inner.onmessage!(…)`,
 * `inner.send(…)` to inject as the peer) reaches the same endpoint.
 */
import type { JsonRpcMessage, RequestId, Transport, TransportSendOptions } from "../generated/2026-07-28/index.js";

/** How a recorded message is copied (structuredClone by default; the interop peers record a JSON round trip). */
export type Recorder<Recorded> = (message: JsonRpcMessage) => Recorded;

export interface TapOptions<Recorded> {
  /** Record received messages too (wraps the onmessage hook). */
  readonly received?: boolean;
  /** How messages are copied into `sent` / `received` (default: structuredClone). */
  readonly record?: Recorder<Recorded>;
}

/** A message's members, for the queries below (whatever type the recorder gives). */
const members = (message: unknown): { method?: unknown; id?: unknown } => (typeof message === "object" && message !== null ? message : {});

type MessageHook = NonNullable<Transport["onmessage"]>;

export class TapTransport<Recorded = JsonRpcMessage> implements Transport {
  readonly sent: Recorded[] = [];
  readonly received: Recorded[] = [];
  /** When set, decides whether a message goes out (false: dropped). */
  filter: ((message: JsonRpcMessage) => boolean) | undefined;
  /** When set, the next send whose message it accepts rejects (and is not sent). */
  failNext: ((message: JsonRpcMessage) => boolean) | undefined;
  #paused = false;
  readonly #held: Array<() => void> = [];
  readonly #record: Recorder<Recorded>;
  readonly #recordReceived: boolean;
  /** The hook as the runtime set it (inner.onmessage is a recording wrapper of it when `received`). */
  #onmessage: MessageHook | undefined;

  constructor(
    readonly inner: Transport,
    options: TapOptions<Recorded> = {},
  ) {
    this.#record = options.record ?? (structuredClone as Recorder<unknown> as Recorder<Recorded>);
    this.#recordReceived = options.received ?? false;
  }

  get onmessage(): MessageHook | undefined {
    return this.#recordReceived ? this.#onmessage : this.inner.onmessage;
  }
  set onmessage(hook: MessageHook | undefined) {
    if (!this.#recordReceived) {
      this.inner.onmessage = hook;
      return;
    }
    this.#onmessage = hook;
    // Forwards every argument (the SDK passes a second, `extra`) and the hook's return value.
    this.inner.onmessage =
      hook &&
      ((...args: Parameters<MessageHook>) => {
        this.received.push(this.#record(args[0]));
        return (hook as (...a: unknown[]) => void)(...(args as unknown[]));
      });
  }
  get onclose() {
    return this.inner.onclose;
  }
  set onclose(hook) {
    this.inner.onclose = hook;
  }
  get onerror() {
    return this.inner.onerror;
  }
  set onerror(hook) {
    this.inner.onerror = hook;
  }
  get onrequeststreamclose() {
    return this.inner.onrequeststreamclose;
  }
  set onrequeststreamclose(hook) {
    this.inner.onrequeststreamclose = hook;
  }
  get sessionId() {
    return this.inner.sessionId;
  }
  /** The inner transport's per-request streams, if it has them (2026-07-28 stream-close cancel). */
  get closeRequestStream(): ((requestId: RequestId) => boolean) | undefined {
    return this.inner.closeRequestStream?.bind(this.inner);
  }
  start() {
    return this.inner.start();
  }
  close() {
    return this.inner.close();
  }
  /** Holds sends (in order) until resume(). */
  pause() {
    this.#paused = true;
  }
  /** Lets the held sends go, in order, and stops holding. */
  resume() {
    this.#paused = false;
    for (const go of this.#held.splice(0)) go();
  }
  get heldCount() {
    return this.#held.length;
  }
  async send(message: JsonRpcMessage, options?: TransportSendOptions) {
    if (this.failNext?.(message)) {
      this.failNext = undefined;
      throw new Error("the pipe broke");
    }
    if (this.filter && !this.filter(message)) return;
    if (this.#paused) await new Promise<void>((resolve) => this.#held.push(resolve));
    this.sent.push(this.#record(message));
    return this.inner.send(message, options);
  }
  /** Cancellation notifications sent so far. */
  cancels(): Recorded[] {
    return this.sent.filter((m) => members(m).method === "notifications/cancelled");
  }
  /** Responses (result or error) sent for an id. */
  responsesTo(id: RequestId): Recorded[] {
    return this.sent.filter((m) => !("method" in members(m)) && members(m).id === id);
  }
}
