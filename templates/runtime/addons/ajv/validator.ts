// Add-on `ajv`: registrations validated by ajv (JSON Schema 2020-12, every keyword: the
// `unevaluated*` ones, `dependentSchemas`, `$dynamicRef`, formats with ajv-formats if you add it),
// as the Validator of McpServerOptions.registrations (and of McpClientOptions.toolOutput).
// ajv compiles each schema once, at registration. Its `pattern`s are matched by the runtime's
// pattern matcher (features/pattern.ts: RegExp where it runs in linear time, else the linear
// matcher) rather than RegExp alone, so a schema's pattern cannot make a peer's string hang the
// server; patterns outside the recommended subset are refused when the schema is compiled (pass
// `regExp: "native"` to use RegExp, at that risk). One validation's pattern tests share a budget
// of work (`maxWork`, core/work-budget.ts): past it the value is refused, `budgetExceeded`.

import { Ajv2020, type Options } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import { numberOption } from "../../core/options.js";
import type { JsonObject } from "../../core/protocol.js";
import type { CompiledSchema, ValidationResult, Validator } from "../../features/json-schema.js";
import { compilePattern } from "../../features/pattern.js";
import { BudgetExceededError, DEFAULT_VALIDATION_WORK, WorkBudget, withBudget } from "../../core/work-budget.js";

export interface AjvValidatorOptions {
  /** An ajv instance of your own (plugins, formats, vocabularies); default: a new Ajv2020 with the options below. */
  readonly ajv?: Ajv2020 | undefined;
  /** Options of the Ajv2020 made when `ajv` is not given (`code.regExp` is set unless `regExp` is "native"). */
  readonly options?: Options | undefined;
  /** "linear" (default): patterns by the runtime's linear-time matcher; "native": RegExp (backtracking). */
  readonly regExp?: "linear" | "native" | undefined;
  /** Longest pattern the linear matcher accepts (default 1000). */
  readonly maxPatternLength?: number | undefined;
  /** Units of pattern work one validation may do (default DEFAULT_VALIDATION_WORK, 1 000 000; core/work-budget.ts). */
  readonly maxWork?: number | undefined;
}

/**
 * ajv's RegExpEngine over features/pattern.ts: `u` is the only flag ajv passes, and the matcher
 * works on code points already. ajv keys compiled patterns by their `toString()`: each must give
 * its own source, or every pattern would share the first one's matcher.
 */
function linearRegExp(maxLength: number) {
  const engine = (source: string) => {
    const pattern = compilePattern(source, { maxLength, maxProgram: maxLength * 20 });
    return { test: (input: string) => pattern.test(input), toString: () => `/${source}/u` };
  };
  return Object.assign(engine, { code: "mcp-stubgen linear pattern" });
}

/** A Validator backed by ajv: compile() is ajv.compile (its errors throw at registration), validate() reports ajv's first error. */
export function createAjvValidator(options: AjvValidatorOptions = {}): Validator {
  const maxPatternLength = numberOption("maxPatternLength", options.maxPatternLength, 1000, { min: 1, max: 100_000 });
  const maxWork = numberOption("maxWork", options.maxWork, DEFAULT_VALIDATION_WORK, { min: 1000 });
  const ajv =
    options.ajv ??
    new Ajv2020({
      strict: false,
      ...options.options,
      code: { ...options.options?.code, ...(options.regExp === "native" ? {} : { regExp: linearRegExp(maxPatternLength) }) },
    });
  return {
    compile(schema: JsonObject): CompiledSchema {
      const validate: ValidateFunction = ajv.compile(schema);
      return {
        validate(value): ValidationResult {
          let valid: boolean;
          try {
            // The patterns of this validation charge one budget (pattern.test's ambient one).
            valid = withBudget(new WorkBudget(maxWork), () => validate(value) as boolean);
          } catch (error) {
            if (!(error instanceof BudgetExceededError)) throw error;
            return { valid: false, issue: { pointer: "", message: `more than ${maxWork} units of work (maxWork)`, budgetExceeded: true } };
          }
          if (valid) return { valid: true, value };
          const error = validate.errors?.[0];
          const missing = error?.keyword === "required" ? (error.params as { missingProperty?: string }).missingProperty : undefined;
          const message = missing === undefined ? (error?.message ?? "is invalid") : `must have the property ${JSON.stringify(missing)}`;
          return { valid: false, issue: { pointer: error?.instancePath ?? "", message } };
        },
      };
    },
  };
}
