/**
 * templates/runtime/core/json.ts: the copies the hot path makes of a peer's objects (copyOwn,
 * assignOwn) are plain shallow copies, and a peer's own `__proto__` key (JSON.parse makes one)
 * stays a property: it never becomes the copy's prototype.
 */
import { describe, expect, it } from "vitest";
import { assignOwn, copyOwn } from "../../../templates/runtime/core/json.js";

describe("copyOwn and assignOwn", () => {
  it("copy own enumerable properties, shallowly, leaving the source as it was", () => {
    const nested = { b: 1 };
    const source = { a: nested, s: "x" };
    const copy = copyOwn(source);
    expect(copy).toEqual(source);
    expect(copy).not.toBe(source);
    expect(copy["a"]).toBe(nested);
    copy["c"] = 2;
    expect(source).toEqual({ a: nested, s: "x" });
  });

  it("a peer's own __proto__ key stays a property of the copy; the copy's prototype is Object.prototype", () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    for (const copy of [copyOwn(hostile), assignOwn({ z: 0 }, hostile)]) {
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect(Object.hasOwn(copy, "__proto__")).toBe(true);
      expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
      expect(copy["a"]).toBe(1);
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("assignOwn: later keys win, as Object.assign", () => {
    expect(assignOwn({ a: 1, b: 1 }, { b: 2, c: 3 })).toEqual({ a: 1, b: 2, c: 3 });
  });
});
