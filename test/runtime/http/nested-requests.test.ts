/**
 * The bookkeeping behind "nested requests end with their call" (issue 41, finding 5;
 * http/nested-requests.ts): which of the server's requests came on which call's stream and are
 * still open, and how long a cancelled call's stream is kept for them. The wire behaviour is
 * http-session-client/nested-cancel.test.ts.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { NestedRequests } from "../../../templates/runtime/http/nested-requests.js";

afterEach(() => void vi.useRealTimers());

describe("NestedRequests", () => {
  it("a cancelled call with nothing open is not kept; nor with a grace of 0", () => {
    const nested = new NestedRequests();
    const stop = vi.fn();
    expect(nested.drain(1, 2000, stop)).toBe(false);
    nested.arrived(1, "e1");
    expect(nested.drain(1, 0, stop)).toBe(false);
    expect(nested.draining(1)).toBe(false);
    expect(stop).not.toHaveBeenCalled();
  });

  it("a kept call is let go once its last open request is over (answered or cancelled), once", () => {
    vi.useFakeTimers();
    const nested = new NestedRequests();
    const stop = vi.fn();
    nested.arrived(1, "e1");
    nested.arrived(1, "e2");
    nested.arrived(2, "e3");
    expect(nested.drain(1, 2000, stop)).toBe(true);
    expect(nested.draining(1)).toBe(true);
    nested.over("e1");
    nested.over("e3"); // another call's
    nested.over("unknown");
    expect(stop).not.toHaveBeenCalled();
    nested.over("e2");
    expect(stop).toHaveBeenCalledTimes(1);
    expect(nested.draining(1)).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it("or after graceMs, whatever is still open", () => {
    vi.useFakeTimers();
    const nested = new NestedRequests();
    const stop = vi.fn();
    nested.arrived(1, "e1");
    nested.drain(1, 300, stop);
    vi.advanceTimersByTime(299);
    expect(stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(stop).toHaveBeenCalledTimes(1);
    nested.over("e1");
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it("end (the stream is gone) and clear (the transport closed) leave no timer and forget the call's requests", () => {
    vi.useFakeTimers();
    const nested = new NestedRequests();
    const stop = vi.fn();
    nested.arrived(1, "e1");
    nested.drain(1, 300, stop);
    nested.end(1);
    nested.arrived(2, "e2");
    nested.drain(2, 300, stop);
    nested.clear();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(stop).not.toHaveBeenCalled();
    expect(nested.drain(1, 300, stop)).toBe(false);
    expect(nested.drain(2, 300, stop)).toBe(false);
  });
});
