// A registration's schema (features/registry.ts): a plain JSON Schema object, or a Standard
// Schema with a JSON Schema view (`~standard.jsonSchema`: zod v4, valibot, arktype); the type it
// validates to (Infer); and the schema prepared once, when it is registered: what the lists show
// of it, and how a value is checked against it. Plain schemas are compiled by a Validator
// (json-schema.ts's built-in one unless told otherwise), Standard ones validate with their own
// `validate`.

import { isObject } from "../core/json.js";
import { describeValue, type JsonObject } from "../core/protocol.js";
import type { FromSchema, ValidationIssue, ValidationResult, Validator } from "./json-schema.js";

/** A Standard Schema (standardschema.dev, v1) with a JSON Schema view (Standard JSON Schema): zod v4, valibot, arktype. */
export interface StandardSchemaWithJson<Input = unknown, Output = Input> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema: {
      readonly input: (options: { readonly target: string }) => Record<string, unknown>;
      readonly output: (options: { readonly target: string }) => Record<string, unknown>;
    };
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

type StandardPathSegment = PropertyKey | { readonly key: PropertyKey };
type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<StandardPathSegment> | undefined }> };

/** A schema a registration takes: a plain JSON Schema object, or a Standard Schema with a JSON Schema view. */
export type SchemaInput = StandardSchemaWithJson<unknown, unknown> | { readonly [keyword: string]: unknown };

/** The type a schema validates to: a Standard Schema's output type, or FromSchema of a plain one (written `as const` or inline). */
export type Infer<S> = S extends { readonly "~standard": { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O }
    ? O
    : unknown
  : FromSchema<S>;

/** A schema, ready: its JSON Schema (what lists show) and how a value is checked against it. */
export interface PreparedSchema {
  readonly json: JsonObject;
  validate(value: unknown): ValidationResult | Promise<ValidationResult>;
}

function isStandard(schema: unknown): schema is StandardSchemaWithJson<unknown, unknown> {
  return isObject(schema) && isObject(schema["~standard"]) && typeof schema["~standard"]["validate"] === "function";
}

/** RFC 6901 pointer of a Standard Schema issue's path. */
function pointerOfPath(path: ReadonlyArray<StandardPathSegment> | undefined): string {
  return (path ?? [])
    .map((segment) => String(typeof segment === "object" && segment !== null ? segment.key : segment))
    .map((part) => `/${part.replaceAll("~", "~0").replaceAll("/", "~1")}`)
    .join("");
}

/**
 * A schema as a registration uses it. A Standard Schema validates with its own `validate` and is
 * listed as its JSON Schema view (`input` for arguments, `output` for results); a plain one is
 * compiled once by `validator`. A schema that is neither, or that the validator refuses, throws.
 */
export function prepareSchema(schema: SchemaInput, side: "input" | "output", validator: Validator, where: string): PreparedSchema {
  if (isStandard(schema)) {
    const standard = schema["~standard"];
    if (!isObject(standard.jsonSchema) || typeof standard.jsonSchema[side] !== "function") {
      throw new TypeError(`${where}: a Standard Schema needs a JSON Schema view (~standard.jsonSchema) to be listed`);
    }
    const json = standard.jsonSchema[side]({ target: "draft-2020-12" }) as JsonObject;
    return {
      json,
      async validate(value) {
        const result = await standard.validate(value);
        if (result.issues === undefined) return { valid: true, value: result.value };
        const first = result.issues[0];
        return { valid: false, issue: { pointer: pointerOfPath(first?.path), message: first?.message ?? "invalid" } };
      },
    };
  }
  if (!isObject(schema)) throw new TypeError(`${where}: a schema must be a JSON Schema object or a Standard Schema, got ${describeValue(schema)}`);
  const compiled = validator.compile(schema);
  return { json: schema, validate: (value) => compiled.validate(value) };
}

/** A tool's input schema must describe an object (server/tools: "`type: "object"` is required at the root"). */
export function requireObjectRoot(json: JsonObject, where: string): void {
  if (json["type"] !== "object") throw new TypeError(`${where}: the input schema's root must be { type: "object" }, got type ${describeValue(json["type"])}`);
}

export function describeIssue(issue: ValidationIssue): string {
  return `${issue.pointer === "" ? "(root)" : issue.pointer}: ${issue.message}`;
}
