/**
 * Shared helpers of the unit tests: the small fixture schemas of test/fixtures, schemas built
 * inline for one-off cases, catching a StubgenError, and an in-memory strict type-check.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { StubgenError } from "../../generator/errors.js";
import { readSchemaDocument, type SchemaDocument } from "../../generator/load/schema-document.js";
import type { ExtensionPolicy } from "../../generator/model/extensions.js";
import { FIXTURES } from "../helpers/schemas.js";

/** test/fixtures, root-relative (test/helpers/schemas.ts), so this file may move. */
export { FIXTURES };

export const fixturePath = (name: string): string => join(FIXTURES, name);

/** Reads and checks one schema of test/fixtures. */
export function loadFixture(name: string): SchemaDocument {
  const path = fixturePath(name);
  return readSchemaDocument(readFileSync(path, "utf8"), path);
}

/**
 * A schema document from definitions written in the test. `$defs` (2020-12) by default; refs
 * inside `defs` must use the matching prefix (`#/$defs/…` or `#/definitions/…`).
 */
export function docFrom(
  defs: Record<string, unknown>,
  options: { readonly key?: "$defs" | "definitions"; readonly file?: string } = {},
): SchemaDocument {
  const key = options.key ?? "$defs";
  return readSchemaDocument(JSON.stringify({ [key]: defs }, null, 2), options.file ?? "inline.json");
}

/** A request definition: `{ method: const, params? }`, params required when given. */
export function request(method: string, params?: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: "object",
    properties: { method: { const: method, type: "string" }, ...(params === undefined ? {} : { params }) },
    required: params === undefined ? ["method"] : ["method", "params"],
    ...extra,
  };
}

/** Runs `fn`, expects it to throw a StubgenError, and returns that error. */
export function catchStubgenError(fn: () => unknown): StubgenError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StubgenError);
    return err as StubgenError;
  }
  throw new Error("expected a StubgenError, but nothing was thrown");
}

/** Awaits `promise`, expects it to reject with an instance of `type` (StubgenError by default), and returns that error. */
export async function rejectionOf<E extends Error = StubgenError>(promise: Promise<unknown>, type: abstract new (...args: never[]) => E = StubgenError as never): Promise<E> {
  const err = await promise.then(
    () => new Error("expected a rejection, but the promise resolved"),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return err as E;
}

/**
 * The table of the fixture extension test/fixtures/extensions/allof-extension.json ("jobs"): a
 * request of each side, one of both, a server notification, an Mcp-Name param, a widened result.
 */
export const JOBS_POLICY: ExtensionPolicy = {
  senders: { "jobs/start": ["client"], "jobs/stop": ["client", "server"], "notifications/jobs/done": ["server"] },
  httpNameParams: { "jobs/start": "name" },
  widenedResults: { "tools/call": [{ type: "StartJobResult", reason: "a test" }] },
  cancelRequest: "jobs/stop",
  runtime: null,
};

export { typecheckInMemory, type CheckedDiagnostic as Diag } from "../helpers/typecheck.js";
