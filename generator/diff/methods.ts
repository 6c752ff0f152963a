import type { Coverage } from "./covers.js";
import { compareText, shapeOf, union, type Shape } from "./shape.js";
import type { CancellableChange, Direction, MethodChange, MethodPresence, RevisionInput } from "./types.js";
import { DIRECTION_UNIONS, type MethodRecord, type SchemaModel } from "../model/model.js";
import { formatResult, formatTypeExpr, type TypeExpr } from "../model/vocabulary.js";
import type { SchemaDocument } from "../load/schema-document.js";

/** The directions in the model's order: client requests, server requests, then notifications. */
const DIRECTIONS = DIRECTION_UNIONS.map((u) => u.union as Direction);

/** The direction unions that list a method (one per side that sends it). */
function directionsOf(record: MethodRecord): Direction[] {
  return DIRECTION_UNIONS.filter((u) => u.kind === record.kind && record.from.includes(u.from)).map((u) => u.union as Direction);
}

const presenceKey = (direction: Direction, method: string) => `${direction} ${method}`;
const recordKey = (record: MethodRecord) => `${record.kind} ${record.method}`;

/** Methods added to and removed from each direction; a removal is breaking. */
export function diffMethodPresence(
  from: SchemaModel,
  to: SchemaModel,
): { added: MethodPresence[]; removed: MethodPresence[] } {
  const entries = (model: SchemaModel) =>
    new Map(model.methods.flatMap((m) => directionsOf(m).map((direction) => [presenceKey(direction, m.method), { direction, method: m.method }] as const)));
  const before = entries(from);
  const after = entries(to);
  const added = [...after].filter(([key]) => !before.has(key)).map(([, e]) => ({ ...e, breaking: false }));
  const removed = [...before].filter(([key]) => !after.has(key)).map(([, e]) => ({ ...e, breaking: true }));
  return { added: added.sort(byDirectionThenMethod), removed: removed.sort(byDirectionThenMethod) };
}

function byDirectionThenMethod(a: MethodPresence, b: MethodPresence): number {
  return DIRECTIONS.indexOf(a.direction) - DIRECTIONS.indexOf(b.direction) || compareText(a.method, b.method);
}

/** Pairs of records of the same method and kind, in the model's order (sorted by method). */
function common(from: SchemaModel, to: SchemaModel): Array<readonly [MethodRecord, MethodRecord]> {
  const after = new Map(to.methods.map((m) => [recordKey(m), m]));
  return from.methods.flatMap((m) => {
    const match = after.get(recordKey(m));
    return match ? [[m, match] as const] : [];
  });
}

/** The params type without the `NonNullable<>` that only says the params are optional (a paramsRequired flip). */
function paramsType(expr: TypeExpr | null): string | null {
  return expr && formatTypeExpr(expr.kind === "paramsOf" ? { ...expr, optional: false } : expr);
}

/**
 * Changes to methods present in both revisions: params and result types (compared as the
 * catalog prints them; a result union's order does not count), `paramsRequired` and
 * `taskAugmentable` flips. `cancellable` flips are reported with the cancellation policy
 * (diffCancellable).
 *
 * Breaking: a params type that no longer accepts every value the old one did (diff-covers.ts;
 * inline params moved into a named definition with the same properties are not breaking),
 * params that appear and are required or that disappear, params becoming required, a request no
 * longer task-augmentable, and a result type that changes what it accepts either way: narrowed
 * (handlers returning what the old type allowed no longer fit) or widened (whoever sends the
 * request must now handle more: 2026-07-28 `tools/call` may answer `InputRequiredResult`).
 * `coverage` checks the new schema against the old one, `reverse` the old against the new (for
 * widening): createCoverage(from.doc, to.doc) and createCoverage(to.doc, from.doc).
 */
export function diffMethodChanges(
  from: RevisionInput,
  to: RevisionInput,
  { covers }: Coverage,
  reverse: Coverage,
): MethodChange[] {
  const changes: MethodChange[] = [];
  const narrowed = (before: Shape | null, after: Shape | null) => before === null || after === null || !covers(after, before);
  for (const [a, b] of common(from.model, to.model)) {
    const base = { method: a.method, kind: a.kind };
    if (paramsType(a.params) !== paramsType(b.params)) {
      const breaking =
        a.params === null ? b.paramsRequired : b.params === null || narrowed(exprShape(from.doc, a.params), exprShape(to.doc, b.params));
      changes.push({ ...base, change: "params", before: a.params && formatTypeExpr(a.params), after: b.params && formatTypeExpr(b.params), breaking });
    }
    if (a.kind === "request" && a.results !== null && b.results !== null && !sameMembers(a.results, b.results)) {
      const before = resultShape(a.results);
      const after = resultShape(b.results);
      const narrowedResult = !covers(after, before);
      const widened = !reverse.covers(before, after);
      changes.push({
        ...base,
        kind: "request",
        change: "result",
        before: formatResult(a.results)!,
        after: formatResult(b.results)!,
        widened,
        narrowed: narrowedResult,
        breaking: widened || narrowedResult,
      });
    }
    if (a.paramsRequired !== b.paramsRequired) {
      changes.push({ ...base, change: "paramsRequired", before: a.paramsRequired, after: b.paramsRequired, breaking: b.paramsRequired });
    }
    if (a.taskAugmentable !== b.taskAugmentable) {
      changes.push({ ...base, change: "taskAugmentable", before: a.taskAugmentable, after: b.taskAugmentable, breaking: a.taskAugmentable });
    }
  }
  return changes;
}

/** The same definitions, whatever their order. */
function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((name) => set.has(name));
}

/** A result as a shape: a `$ref`, or the union of them. */
function resultShape(results: readonly string[]): Shape {
  return union(results.map((name): Shape => ({ kind: "ref", name })));
}

/** The shape a catalog type expression stands for; null when it cannot be found. */
function exprShape(doc: SchemaDocument, expr: TypeExpr): Shape | null {
  switch (expr.kind) {
    case "named":
      return { kind: "ref", name: expr.name };
    case "paramsOf": {
      const owner = resolved(doc, exprShape(doc, expr.owner));
      return owner?.kind === "object" ? (owner.properties.find((p) => p.name === "params")?.shape ?? null) : null;
    }
    case "memberOf": {
      const union = resolved(doc, { kind: "ref", name: expr.union });
      const members = union?.kind === "union" ? union.members : union ? [union] : [];
      return members.map((m) => resolved(doc, m)).find((m) => m?.kind === "object" && isMessage(m, expr.method)) ?? null;
    }
  }
}

/** A `$ref` to a definition replaced by the definition's shape. */
function resolved(doc: SchemaDocument, shape: Shape | null): Shape | null {
  if (shape?.kind !== "ref") return shape;
  return doc.defs.has(shape.name) ? shapeOf(doc, doc.defs.get(shape.name)) : null;
}

function isMessage(shape: Shape, method: string): boolean {
  const prop = shape.kind === "object" ? shape.properties.find((p) => p.name === "method") : undefined;
  return prop?.shape.kind === "literal" && prop.shape.value === method;
}

/** Requests present in both revisions whose `cancellable` flag flipped; losing it is breaking. */
export function diffCancellable(from: SchemaModel, to: SchemaModel): CancellableChange[] {
  return common(from, to)
    .filter(([a, b]) => a.kind === "request" && a.cancellable !== b.cancellable)
    .map(([a, b]) => ({ method: a.method, before: a.cancellable, after: b.cancellable, breaking: a.cancellable }));
}
