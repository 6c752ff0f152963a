// The type of the values a JSON Schema written in the code accepts (`as const`, or inline in a
// registration): what a registration's handler receives, computed by the type checker from the
// schema (features/json-schema.ts validates them at run time).

/** Depth guard of FromSchema: deeper schemas type as unknown. */
type Deeper<D extends readonly unknown[]> = [...D, unknown];

/** The property names a schema's `required` lists. */
type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<S, D extends readonly unknown[]> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P & string as K extends RequiredOf<S> ? K : never]: FromSchema<P[K], Deeper<D>> } & {
        -readonly [K in keyof P & string as K extends RequiredOf<S> ? never : K]?: FromSchema<P[K], Deeper<D>>;
      }
    >
  : { [key: string]: unknown };

type ArrayOf<S, D extends readonly unknown[]> = S extends { readonly items: infer I } ? (I extends readonly unknown[] ? unknown[] : FromSchema<I, Deeper<D>>[]) : unknown[];

type FromType<T, S, D extends readonly unknown[]> = T extends "string"
  ? string
  : T extends "number" | "integer"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? ArrayOf<S, D>
          : T extends "object"
            ? ObjectOf<S, D>
            : unknown;

/**
 * The type of the values a JSON Schema written in the code accepts, for the common keywords:
 * `const`, `enum`, `anyOf`/`oneOf` (the union), `type` (one or a list) with `properties` and
 * `required`, `items`. A schema whose literal types are lost (not `as const`, not inline) or that
 * uses anything else types as `unknown`: never narrower than what the validator accepts. Extra
 * properties are left out of the type (not typed as an index signature): a handler reads what
 * its schema names.
 */
export type FromSchema<S, D extends readonly unknown[] = []> = D["length"] extends 12
  ? unknown
  : S extends true
    ? unknown
    : S extends false
      ? never
      : S extends { readonly const: infer C }
        ? C
        : S extends { readonly enum: readonly (infer E)[] }
          ? E
          : S extends { readonly anyOf: readonly (infer A)[] }
            ? A extends unknown
              ? FromSchema<A, Deeper<D>>
              : never
            : S extends { readonly oneOf: readonly (infer A)[] }
              ? A extends unknown
                ? FromSchema<A, Deeper<D>>
                : never
              : S extends { readonly type: infer T }
                ? T extends readonly (infer U)[]
                  ? U extends unknown
                    ? FromType<U, S, D>
                    : never
                  : FromType<T, S, D>
                : unknown;
