/**
 * core/work-budget.ts: the work one validation may do, charged as it goes. Past the limit a
 * charge throws BudgetExceededError; `withBudget` makes a budget the ambient one of a synchronous
 * check (what the wire's generated checks use: their patterns charge it without being handed it)
 * and restores the outer one even when the check throws.
 */
import { describe, expect, it } from "vitest";
import { BudgetExceededError, currentBudget, DEFAULT_VALIDATION_WORK, WorkBudget, withBudget } from "../../../templates/runtime/core/work-budget.js";

describe("WorkBudget", () => {
  it("charges up to its limit, then throws BudgetExceededError naming it", () => {
    const budget = new WorkBudget(10);
    budget.charge(4);
    expect(budget.fits(6)).toBe(true);
    expect(budget.fits(7)).toBe(false);
    budget.charge(6);
    expect(budget.used).toBe(10);
    expect(() => budget.charge(1)).toThrow(BudgetExceededError);
    expect(() => budget.charge(1)).toThrow("validation budget exceeded: more than 10 units of work");
  });

  it("is ambient within withBudget, restored after (even after a throw), and fresh outside any", () => {
    const outer = new WorkBudget(100);
    const inner = new WorkBudget(5);
    withBudget(outer, () => {
      expect(currentBudget()).toBe(outer);
      expect(() => withBudget(inner, () => currentBudget().charge(6))).toThrow(BudgetExceededError);
      expect(currentBudget()).toBe(outer);
    });
    const fresh = currentBudget();
    expect(fresh).not.toBe(outer);
    expect([fresh.limit, fresh.used]).toEqual([DEFAULT_VALIDATION_WORK, 0]);
  });
});
