import type { SchemaModel } from "./model.js";
import { formatResult, formatTypeExpr, type MethodKind, type Side } from "./vocabulary.js";

/** One method in the catalog's JSON form (`mcp-stubgen catalog --json`). */
export interface CatalogEntry {
  readonly method: string;
  readonly kind: MethodKind;
  readonly from: readonly Side[];
  readonly params: string | null;
  /** The result type (requests): a definition name, or names joined by " | " for a union; null for notifications. */
  readonly result: string | null;
  readonly cancellable: boolean;
  readonly taskAugmentable: boolean;
  /** The extension that defines the method (only when generated with --extension). */
  readonly extension?: string;
}

export interface CatalogJson {
  readonly revision: string;
  /** The extensions merged in (only when generated with --extension). */
  readonly extensions?: ReadonlyArray<{ readonly id: string; readonly sha256: string }>;
  readonly methods: readonly CatalogEntry[];
}

/** The model as the documented JSON catalog (sorted by method, as the model is). */
export function catalogJson(model: SchemaModel): CatalogJson {
  return {
    revision: model.revision,
    ...(model.extensions ? { extensions: model.extensions.map(({ id, sha256 }) => ({ id, sha256 })) } : {}),
    methods: model.methods.map((m) => ({
      method: m.method,
      kind: m.kind,
      from: m.from,
      params: m.params && formatTypeExpr(m.params),
      result: formatResult(m.results),
      cancellable: m.cancellable,
      taskAugmentable: m.taskAugmentable,
      ...(m.extension !== undefined ? { extension: m.extension } : {}),
    })),
  };
}
