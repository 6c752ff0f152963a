import type { LoadedRevision } from "../model/revision.js";
import type { MethodKind } from "../model/vocabulary.js";
import type { JsonValue } from "./shape.js";

export type { JsonValue } from "./shape.js";

/** One side of a diff: a revision as `modelRevision` loads it (its document, catalog and policy). */
export type RevisionInput = LoadedRevision;

/** A direction union of the schema: who sends which kind of message. */
export type Direction = "ClientRequest" | "ServerRequest" | "ClientNotification" | "ServerNotification";

/** A method that appeared in or disappeared from one direction. */
export interface MethodPresence {
  readonly direction: Direction;
  readonly method: string;
  readonly breaking: boolean;
}

/** A change to a method present in both revisions (same method, same kind). */
export type MethodChange =
  | {
      readonly method: string;
      readonly kind: MethodKind;
      readonly change: "params";
      /** The type expression as the catalog prints it; null: none. */
      readonly before: string | null;
      readonly after: string | null;
      readonly breaking: boolean;
    }
  | {
      readonly method: string;
      readonly kind: "request";
      readonly change: "result";
      /** The result type as the catalog prints it (`CallToolResult | InputRequiredResult`). */
      readonly before: string;
      readonly after: string;
      /**
       * The new result accepts a value the old one did not (a union gained a member): whoever
       * sends the request must now handle it. Breaking.
       */
      readonly widened: boolean;
      /** The old result accepted a value the new one does not: handlers that returned it no longer fit. Breaking. */
      readonly narrowed: boolean;
      readonly breaking: boolean;
    }
  | {
      readonly method: string;
      readonly kind: MethodKind;
      readonly change: "paramsRequired" | "taskAugmentable";
      readonly before: boolean;
      readonly after: boolean;
      readonly breaking: boolean;
    };

/** A definition that was added or removed. */
export interface DefinitionPresence {
  readonly definition: string;
  readonly breaking: boolean;
}

/**
 * A change inside a definition present in both revisions. Types are renderings of the
 * normalized schema (see diff-shape.ts).
 */
export type DefinitionChange =
  | {
      readonly definition: string;
      readonly change: "property-added";
      readonly property: string;
      readonly required: boolean;
      readonly type: string;
      readonly breaking: boolean;
    }
  | {
      readonly definition: string;
      readonly change: "property-removed";
      readonly property: string;
      readonly type: string;
      readonly breaking: boolean;
    }
  | {
      readonly definition: string;
      readonly change: "property-required" | "property-optional";
      readonly property: string;
      readonly breaking: boolean;
    }
  | {
      readonly definition: string;
      readonly change: "property-type";
      readonly property: string;
      readonly before: string;
      readonly after: string;
      readonly breaking: boolean;
    }
  | {
      readonly definition: string;
      /** The index signature of an object definition; null: none. */
      readonly change: "additional-properties";
      readonly before: string | null;
      readonly after: string | null;
      readonly breaking: boolean;
    }
  | {
      readonly definition: string;
      /** The definition as a whole (not an object on both sides). */
      readonly change: "type";
      readonly before: string;
      readonly after: string;
      readonly breaking: boolean;
    };

/**
 * A key of the revision policy whose value differs (JSON-unequal). `before`/`after` are the
 * canonical JSON values, null when the key is absent; `added`/`removed` list array entries
 * (empty unless both values are arrays).
 */
export interface PolicyChange {
  readonly key: string;
  readonly before: JsonValue;
  readonly after: JsonValue;
  readonly added: readonly JsonValue[];
  readonly removed: readonly JsonValue[];
  readonly breaking: boolean;
}

/** A request (present in both revisions) whose `cancellable` flag flipped. */
export interface CancellableChange {
  readonly method: string;
  readonly before: boolean;
  readonly after: boolean;
  readonly breaking: boolean;
}

export interface DiffSummary {
  /** Method entries per direction (a method of both sides counts once per direction). */
  readonly methodsAdded: number;
  readonly methodsRemoved: number;
  /** Methods with at least one change. */
  readonly methodsChanged: number;
  readonly definitionsAdded: number;
  readonly definitionsRemoved: number;
  /** Definitions with at least one change. */
  readonly definitionsChanged: number;
  readonly policyKeysChanged: number;
  readonly cancellableChanged: number;
  /** Every entry of the diff. */
  readonly changes: number;
  /** Entries marked breaking. */
  readonly breaking: number;
}

/** What changes from one schema revision to another (`mcp-stubgen diff`). */
export interface RevisionDiff {
  readonly from: string;
  readonly to: string;
  readonly summary: DiffSummary;
  readonly methods: {
    readonly added: readonly MethodPresence[];
    readonly removed: readonly MethodPresence[];
    readonly changed: readonly MethodChange[];
  };
  readonly definitions: {
    readonly added: readonly DefinitionPresence[];
    readonly removed: readonly DefinitionPresence[];
    readonly changed: readonly DefinitionChange[];
  };
  readonly cancellation: {
    readonly policy: readonly PolicyChange[];
    readonly methods: readonly CancellableChange[];
  };
}
