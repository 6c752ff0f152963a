/**
 * The one error type the pipeline throws for bad input. It always names where the problem is
 * (a file, optionally a JSON pointer inside it) and what was expected, and formats itself as
 * a single line for the CLI.
 */
export interface ErrorLocation {
  /** File path or URL the problem is in. */
  readonly file?: string | undefined;
  /** JSON pointer (RFC 6901) inside that file, e.g. `/$defs/PingRequest/properties/method`. */
  readonly pointer?: string | undefined;
  /** Line and column (1-based) for syntax errors. */
  readonly line?: number | undefined;
  readonly column?: number | undefined;
}

export class StubgenError extends Error {
  override readonly name = "StubgenError";
  readonly location: ErrorLocation;

  constructor(message: string, location: ErrorLocation = {}) {
    super(message);
    this.location = location;
  }

  /** `file#/pointer: message` or `file:line:column: message` or just the message. */
  format(): string {
    const { file, pointer, line, column } = this.location;
    let where = file ?? "";
    if (line !== undefined) where += `:${line}:${column ?? 1}`;
    if (pointer !== undefined) where += `#${pointer}`;
    return where ? `${where}: ${this.message}` : this.message;
  }
}

export function isStubgenError(err: unknown): err is StubgenError {
  return err instanceof StubgenError;
}
