// The work one validation of a peer's value may do, counted as it goes, so that no call blocks
// the event loop for long whatever the value and the schema (issue 41: a 4 MiB string against a
// `pattern` blocked it for seconds, 20 `patternProperties` over 2,000 long keys for 28 s). A unit
// is about one step of the linear pattern matcher (features/pattern.ts: one thread at one
// position), a few nanoseconds; what RegExp and the other checks do is charged in the same
// units. Past the budget the validation stops with BudgetExceededError: the value is refused
// (-32602 "validation budget exceeded"), never checked to its end.
//
// A validation is synchronous, so the budget of the one running can be ambient: the wire's
// generated checks (core/validation.ts checkValue) set it around a message, and every pattern
// they test charges it without being handed it.

/**
 * Default units of work of one validation: a few milliseconds of the pattern matcher (measured on
 * Node 20: 7 to 13 ns a unit on a 2-core machine under heavy load, so at most about 15 ms there).
 */
export const DEFAULT_VALIDATION_WORK: number = 1_000_000;

/** One validation went over its budget of work: what is left of the value is not checked. */
export class BudgetExceededError extends Error {
  override name = "BudgetExceededError";
}

/** The units of work left to one validation. */
export class WorkBudget {
  readonly limit: number;
  #used = 0;

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Units charged so far. */
  get used(): number {
    return this.#used;
  }

  /** Whether `units` more would still be within the budget. */
  fits(units: number): boolean {
    return this.#used + units <= this.limit;
  }

  /** Charges `units`; past the limit, BudgetExceededError. */
  charge(units: number): void {
    this.#used += units;
    if (this.#used > this.limit) throw new BudgetExceededError(`validation budget exceeded: more than ${this.limit} units of work`);
  }
}

let ambient: WorkBudget | undefined;

/** Runs `check` with `budget` as the ambient budget (restored after, even when it throws). */
export function withBudget<T>(budget: WorkBudget, check: () => T): T {
  const outer = ambient;
  ambient = budget;
  try {
    return check();
  } finally {
    ambient = outer;
  }
}

/** The budget of the validation running now, else a fresh one of the default size. */
export function currentBudget(): WorkBudget {
  return ambient ?? new WorkBudget(DEFAULT_VALIDATION_WORK);
}
