import type { Coverage } from "./covers.js";
import { compareText, renderShape, shapeOf, type PropertyShape, type Shape } from "./shape.js";
import type { DefinitionChange, DefinitionPresence } from "./types.js";
import type { SchemaDocument } from "../load/schema-document.js";

/**
 * Definitions added, removed and changed, sorted by name.
 *
 * A definition that is an object on both sides (`type: "object"` or `properties`, without
 * `anyOf`/`oneOf`/`allOf`/`$ref`) is compared property by
 * property (added, removed, made required, made optional, type changed) and by its index
 * signature (`additionalProperties`); any other definition is compared as a whole. Types are
 * compared as the renderings of their normalized schemas (diff-shape.ts).
 *
 * Breaking: a removed definition or property, a property that is newly required (added as
 * required, or made required), and a type that no longer accepts every value it accepted
 * (diff-covers.ts: enum or union members lost, a property type or definition replaced by an
 * incompatible one).
 */
export function diffDefinitions(
  from: SchemaDocument,
  to: SchemaDocument,
  coverage: Coverage,
): { added: DefinitionPresence[]; removed: DefinitionPresence[]; changed: DefinitionChange[] } {
  const names = (doc: SchemaDocument) => [...doc.defs.keys()].sort(compareText);
  const added = names(to)
    .filter((name) => !from.defs.has(name))
    .map((definition) => ({ definition, breaking: false }));
  const removed = names(from)
    .filter((name) => !to.defs.has(name))
    .map((definition) => ({ definition, breaking: true }));
  const changed = names(from)
    .filter((name) => to.defs.has(name))
    .flatMap((name) => diffDefinition(name, shapeOf(from, from.defs.get(name)), shapeOf(to, to.defs.get(name)), coverage));
  return { added, removed, changed };
}

/** The changes of one definition present in both revisions. */
export function diffDefinition(definition: string, before: Shape, after: Shape, { covers }: Coverage): DefinitionChange[] {
  if (renderShape(before) === renderShape(after)) return [];
  if (before.kind !== "object" || after.kind !== "object") {
    return [{ definition, change: "type", before: renderShape(before), after: renderShape(after), breaking: !covers(after, before) }];
  }
  const changes = diffProperties(definition, before.properties, after.properties, covers);
  const extraBefore = before.additional && renderShape(before.additional);
  const extraAfter = after.additional && renderShape(after.additional);
  if (extraBefore !== extraAfter) {
    const breaking = before.additional !== null && (after.additional === null || !covers(after.additional, before.additional));
    changes.push({ definition, change: "additional-properties", before: extraBefore, after: extraAfter, breaking });
  }
  return changes;
}

function diffProperties(
  definition: string,
  before: readonly PropertyShape[],
  after: readonly PropertyShape[],
  covers: Coverage["covers"],
): DefinitionChange[] {
  const old = new Map(before.map((p) => [p.name, p]));
  const now = new Map(after.map((p) => [p.name, p]));
  const names = [...new Set([...old.keys(), ...now.keys()])].sort(compareText);
  return names.flatMap((property): DefinitionChange[] => {
    const a = old.get(property);
    const b = now.get(property);
    if (a === undefined && b !== undefined) {
      return [{ definition, change: "property-added", property, required: b.required, type: renderShape(b.shape), breaking: b.required }];
    }
    if (a !== undefined && b === undefined) {
      return [{ definition, change: "property-removed", property, type: renderShape(a.shape), breaking: true }];
    }
    if (a === undefined || b === undefined) return [];
    const changes: DefinitionChange[] = [];
    if (!a.required && b.required) changes.push({ definition, change: "property-required", property, breaking: true });
    if (a.required && !b.required) changes.push({ definition, change: "property-optional", property, breaking: false });
    const typeBefore = renderShape(a.shape);
    const typeAfter = renderShape(b.shape);
    if (typeBefore !== typeAfter) {
      changes.push({ definition, change: "property-type", property, before: typeBefore, after: typeAfter, breaking: !covers(b.shape, a.shape) });
    }
    return changes;
  });
}
