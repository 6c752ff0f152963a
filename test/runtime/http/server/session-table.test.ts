/**
 * The one table of sessions of the HTTP servers that keep them (templates/runtime/http/server/
 * session-table.ts: the session handler's and HTTP+SSE's), with fake sessions and a fake clock:
 * a session unused for idleMs ends, each use starts its idle time again, a busy one (a request in
 * flight, a stream open) is looked at again a period later instead, a removed one is forgotten;
 * maxSessions bounds what opens (503 naming it, with Retry-After), and maxSessionsPerPrincipal what
 * one principal opens (anonymous sessions are each their own); closeAll ends every session and
 * refuses new ones; a session belongs to its principal (find).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Principal } from "../../../../templates/runtime/core/protocol.js";
import { SessionTable, type TableSession } from "../../../../templates/runtime/http/server/session-table.js";

/** A session as the table sees it: busy when told, ended by `end()` (leaving the table, as the servers' sessions do). */
class FakeSession implements TableSession {
  readonly sessionId: string;
  readonly principal: Principal | undefined;
  ended = false;
  isBusy = false;
  /** When end() was called (the fake clock's Date.now()), each time. */
  readonly endedAt: number[] = [];
  readonly #table: SessionTable<FakeSession>;

  constructor(table: SessionTable<FakeSession>, sessionId: string, principal?: Principal) {
    this.#table = table;
    this.sessionId = sessionId;
    this.principal = principal;
  }

  busy(): boolean {
    return this.isBusy;
  }

  end(): void {
    this.endedAt.push(Date.now());
    this.ended = true;
    this.#table.remove(this);
  }
}

const IDLE = 1000;

function tableOf(limits: { maxSessions?: number; maxSessionsPerPrincipal?: number; idleMs?: number } = {}): SessionTable<FakeSession> {
  return new SessionTable<FakeSession>({ maxSessions: limits.maxSessions ?? Infinity, maxSessionsPerPrincipal: limits.maxSessionsPerPrincipal ?? Infinity, idleMs: limits.idleMs ?? IDLE });
}

function opened(table: SessionTable<FakeSession>, id: string, principal?: Principal): FakeSession {
  const session = new FakeSession(table, id, principal);
  table.add(session);
  return session;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("SessionTable: idle expiry", () => {
  it("a session unused for idleMs ends, once, and leaves the table", () => {
    const table = tableOf();
    const session = opened(table, "a");
    vi.advanceTimersByTime(IDLE - 1);
    expect(session.endedAt).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(session.endedAt).toEqual([IDLE]);
    expect([table.size, table.get("a")]).toEqual([0, undefined]);
    vi.advanceTimersByTime(10 * IDLE);
    expect(session.endedAt).toEqual([IDLE]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("each use starts the idle time again: it ends idleMs after the last one", () => {
    const table = tableOf();
    const session = opened(table, "a");
    vi.advanceTimersByTime(600);
    table.touch(session);
    vi.advanceTimersByTime(600);
    table.touch(session); // at 1200: the timer that fired at 1000 looked again at 1600
    vi.advanceTimersByTime(IDLE - 1);
    expect(session.endedAt).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(session.endedAt).toEqual([2200]);
  });

  it("one timer per session, however often it is used", () => {
    const table = tableOf();
    const session = opened(table, "a");
    for (let i = 0; i < 100; i++) table.touch(session);
    expect(vi.getTimerCount()).toBe(1);
  });

  it("a busy session (a request in flight, a stream open) does not end; it is looked at again a period later, and ends idleMs after it was last used", () => {
    const table = tableOf();
    const session = opened(table, "a");
    session.isBusy = true;
    vi.advanceTimersByTime(5 * IDLE);
    expect(session.endedAt).toEqual([]);
    expect(table.get("a")).toBe(session);
    // Its request finishes at 5500: the servers' sessions touch the table when they stop being busy.
    vi.advanceTimersByTime(500);
    session.isBusy = false;
    table.touch(session);
    vi.advanceTimersByTime(IDLE - 1);
    expect(session.endedAt).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(session.endedAt).toEqual([6500]);
  });

  it("only the idle one of two ends", () => {
    const table = tableOf();
    const idle = opened(table, "idle");
    const busy = opened(table, "busy");
    busy.isBusy = true;
    vi.advanceTimersByTime(IDLE);
    expect([idle.endedAt, busy.endedAt]).toEqual([[IDLE], []]);
    expect([...table.values()]).toEqual([busy]);
  });

  it("a removed session is forgotten: its timer is cleared and it never ends by expiry", () => {
    const table = tableOf();
    const session = opened(table, "a");
    table.remove(session);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * IDLE);
    expect(session.endedAt).toEqual([]);
    // Touching it afterwards (a late write of its own) arms nothing that would end it twice.
    session.ended = true;
    table.touch(session);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a session that ended by itself (its timer still armed) is not ended again", () => {
    const table = tableOf();
    const session = opened(table, "a");
    session.ended = true; // ended, and not (yet) removed
    vi.advanceTimersByTime(10 * IDLE);
    expect(session.endedAt).toEqual([]);
  });

  it("idleMs Infinity: no timer at all, nothing ever ends", () => {
    const table = tableOf({ idleMs: Infinity });
    const session = opened(table, "a");
    table.touch(session);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(365 * 24 * 3600 * 1000);
    expect(session.endedAt).toEqual([]);
  });
});

describe("SessionTable: bounds and owners", () => {
  it("maxSessions: full() is the 503 naming the bound (Retry-After: 1) once that many are open, and none once one leaves", () => {
    const table = tableOf({ maxSessions: 2 });
    expect(table.full(undefined)).toBeUndefined();
    const first = opened(table, "a");
    opened(table, "b");
    expect(table.full(undefined)).toEqual({ status: 503, message: "Service Unavailable: 2 sessions are open (maxSessions)", headers: { "retry-after": "1" } });
    first.end();
    expect(table.size).toBe(1);
    expect(table.full(undefined)).toBeUndefined();
  });

  it("a session expired by idleness frees its place", () => {
    const table = tableOf({ maxSessions: 1 });
    opened(table, "a");
    expect(table.full(undefined)?.status).toBe(503);
    vi.advanceTimersByTime(IDLE);
    expect(table.full(undefined)).toBeUndefined();
  });

  it("closeAll ends every session and refuses new ones (503: the server is closing)", async () => {
    const table = tableOf({ maxSessions: 10 });
    const sessions = [opened(table, "a"), opened(table, "b")];
    await table.closeAll();
    expect(sessions.map((s) => s.endedAt)).toEqual([[0], [0]]);
    expect([table.size, table.closed]).toEqual([0, true]);
    expect(table.full(undefined)).toEqual({ status: 503, message: "Service Unavailable: the server is closing" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("find: the session of its own principal only; another principal's, an ended one, an unknown or missing id find nothing", () => {
    const table = tableOf();
    const alices = opened(table, "a", { id: "alice" });
    const anonymous = opened(table, "n");
    expect(table.find("a", { id: "alice" })).toBe(alices);
    expect(table.find("a", { id: "bob" })).toBeUndefined();
    expect(table.find("a", undefined)).toBeUndefined();
    expect(table.find("n", undefined)).toBe(anonymous);
    expect(table.find("n", { id: "alice" })).toBeUndefined();
    expect(table.find("x", { id: "alice" })).toBeUndefined();
    expect(table.find(null, undefined)).toBeUndefined();
    alices.ended = true;
    expect(table.find("a", { id: "alice" })).toBeUndefined();
    // get() is the table's own lookup, whoever it belongs to.
    expect(table.get("a")).toBe(alices);
  });

  it("maxSessionsPerPrincipal: a principal at its quota gets the 503 naming it, another principal and anonymous sessions still open; an ended one frees its place", () => {
    const table = tableOf({ maxSessions: 10, maxSessionsPerPrincipal: 2 });
    const alice = { id: "alice" };
    const first = opened(table, "a1", alice);
    opened(table, "a2", alice);
    expect(table.full(alice)).toEqual({ status: 503, message: "Service Unavailable: 2 sessions of this principal are open (maxSessionsPerPrincipal)", headers: { "retry-after": "1" } });
    expect(table.full({ id: "alice" })?.status).toBe(503); // by id, not by object
    expect(table.full({ id: "bob" })).toBeUndefined();
    for (let i = 0; i < 5; i++) opened(table, `n${i}`);
    expect(table.full(undefined)).toBeUndefined(); // each anonymous session is its own
    first.end();
    expect(table.full(alice)).toBeUndefined();
    // maxSessions still comes first once everything is open.
    opened(table, "a3", alice);
    for (const id of ["b1", "b2", "b3"]) opened(table, id, { id: "bob" });
    expect(table.size).toBe(10);
    expect(table.full({ id: "carol" })?.message).toBe("Service Unavailable: 10 sessions are open (maxSessions)");
  });

  it("maxSessionsPerPrincipal: an idle expiry frees the principal's place; a session replaced under its id counts once", () => {
    const table = tableOf({ maxSessionsPerPrincipal: 1 });
    const alice = { id: "alice" };
    const first = opened(table, "a", alice);
    expect(table.full(alice)?.status).toBe(503);
    vi.advanceTimersByTime(IDLE);
    expect(table.full(alice)).toBeUndefined();
    const again = opened(table, "b", alice);
    const raced = opened(table, "b", alice); // the same id again (a session continued from a registry, raced)
    table.remove(again);
    expect(table.full(alice)?.status).toBe(503);
    table.remove(raced);
    expect(table.full(alice)).toBeUndefined();
    expect(first.endedAt).toEqual([IDLE]);
  });

  it("remove takes out only the session held under its id", () => {
    const table = tableOf();
    const first = opened(table, "a");
    const second = opened(table, "a"); // the same id again (a session continued from a registry, raced)
    table.remove(first);
    expect(table.get("a")).toBe(second);
  });
});
