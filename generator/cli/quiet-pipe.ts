/**
 * stdout for a CLI that may be piped into `head`: once the reader has gone (EPIPE), further
 * output is dropped quietly instead of crashing with an unhandled 'error' event. The command
 * goes on and ends with the exit code it would have had.
 */
export interface PipeTarget {
  write(text: string): unknown;
  on(event: "error", listener: (err: NodeJS.ErrnoException) => void): unknown;
  readonly destroyed?: boolean;
}

/** The reader went away: nothing more can or needs to be written. */
const GONE = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

export function quietPipeWriter(stream: PipeTarget): (text: string) => void {
  let gone = false;
  stream.on("error", (err) => {
    if (GONE.has(err.code ?? "")) {
      gone = true;
      return;
    }
    throw err;
  });
  return (text) => {
    if (gone || stream.destroyed === true) return;
    stream.write(text);
  };
}
