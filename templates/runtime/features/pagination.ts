// Pagination of the lists a server's registrations serve (basic/utilities/pagination; features/
// registry.ts): one page of a list and the cursor of the next. The cursor is the offset of the
// next page (base64 of `o<offset>`), opaque to the client; one the server did not make is -32602
// "Invalid cursor" (a short string decoding to a bounded offset, nothing else, is read).

import { ErrorCode, McpError } from "../core/protocol.js";

/** One page of a list, and the cursor of the next page (undefined: this is the last). */
export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | undefined;
}

/** The page of `items` that `cursor` (a request's `params.cursor`; undefined: the first page) points at. */
export function pageOf<T>(items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  let start = 0;
  if (cursor !== undefined) {
    const decoded = typeof cursor === "string" && cursor.length <= 32 ? /^o(\d{1,9})$/.exec(decodeCursor(cursor)) : null;
    if (decoded === null) throw new McpError(ErrorCode.InvalidParams, "Invalid cursor");
    start = Number(decoded[1]);
  }
  return {
    items: items.slice(start, start + pageSize),
    nextCursor: start + pageSize < items.length ? btoa(`o${start + pageSize}`) : undefined,
  };
}

/** A cursor's text (base64 of `o<offset>`); "" for one that is not base64. */
function decodeCursor(cursor: string): string {
  try {
    return atob(cursor);
  } catch {
    return "";
  }
}
