/**
 * Windows in one process for the postMessage transport's tests: each has an origin and
 * "message" listeners; `win.as(viewer)` is `win` as `viewer` sees it (what `window.parent` or
 * `iframe.contentWindow` is in a browser), and posting through it delivers a structured clone
 * to `win`'s listeners, from `viewer`'s origin, with `viewer.as(win)` as the event's source,
 * on a later task, as browsers do. A target origin other than `win`'s (and not "*") drops the
 * message, as browsers do.
 */
import type { MessageEventLike, MessageEventSource, PostMessageTarget } from "../../../templates/runtime/apps/post-message.js";

export class FakeWindow implements MessageEventSource {
  readonly origin: string;
  readonly #listeners = new Set<(event: MessageEventLike) => void>();
  readonly #views = new Map<FakeWindow, PostMessageTarget>();
  /** Messages posted into this window (delivered or not). */
  posted = 0;

  constructor(origin: string) {
    this.origin = origin;
  }

  addEventListener(_type: "message", listener: (event: MessageEventLike) => void): void {
    this.#listeners.add(listener);
  }

  removeEventListener(_type: "message", listener: (event: MessageEventLike) => void): void {
    this.#listeners.delete(listener);
  }

  get listeners(): number {
    return this.#listeners.size;
  }

  /** This window as `viewer` sees it: posting through it sends from `viewer`'s origin. */
  as(viewer: FakeWindow): PostMessageTarget {
    let view = this.#views.get(viewer);
    if (view === undefined) {
      view = { postMessage: (message: unknown, targetOrigin: string) => this.#deliver(message, targetOrigin, viewer) };
      this.#views.set(viewer, view);
    }
    return view;
  }

  /** Delivers `data` as if `from` posted it (raw: no clone, for values that cannot be cloned). */
  dispatch(data: unknown, from: FakeWindow, source: unknown = from.as(this)): void {
    for (const listener of [...this.#listeners]) listener({ data, origin: from.origin, source });
  }

  #deliver(message: unknown, targetOrigin: string, from: FakeWindow): void {
    this.posted++;
    if (targetOrigin !== "*" && targetOrigin !== this.origin) return;
    const data = structuredClone(message);
    setTimeout(() => this.dispatch(data, from), 0);
  }
}

/** A host page and its app iframe, and a third window of another origin. */
export function windows(): { host: FakeWindow; app: FakeWindow; other: FakeWindow } {
  return { host: new FakeWindow("https://host.test"), app: new FakeWindow("https://app.test"), other: new FakeWindow("https://evil.test") };
}
