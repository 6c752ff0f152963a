/**
 * quietPipeWriter (generator/cli/quiet-pipe.ts): stdout of a CLI piped into `head`. The CLI tests
 * see it through a spawned process; this pins the rule in-process on a stream of our own.
 */
import { describe, expect, it } from "vitest";
import { quietPipeWriter, type PipeTarget } from "../../../generator/cli/quiet-pipe.js";

function fakeStream() {
  const written: string[] = [];
  let onError: ((err: NodeJS.ErrnoException) => void) | undefined;
  const stream: PipeTarget & { destroyed: boolean } = {
    destroyed: false,
    write: (text: string) => written.push(text),
    on: (_event: "error", listener: (err: NodeJS.ErrnoException) => void) => {
      onError = listener;
    },
  };
  const fail = (code: string | undefined) => onError!(Object.assign(new Error(code ?? "no code"), code === undefined ? {} : { code }));
  return { stream, written, fail };
}

describe("quietPipeWriter", () => {
  it("writes through until the reader goes away (EPIPE or a destroyed stream), then drops output quietly", () => {
    for (const code of ["EPIPE", "ERR_STREAM_DESTROYED"]) {
      const { stream, written, fail } = fakeStream();
      const write = quietPipeWriter(stream);
      write("a");
      expect(() => fail(code)).not.toThrow();
      write("b");
      expect(written).toEqual(["a"]);
    }
  });

  it("drops output once the stream says it is destroyed", () => {
    const { stream, written } = fakeStream();
    const write = quietPipeWriter(stream);
    write("a");
    stream.destroyed = true;
    write("b");
    expect(written).toEqual(["a"]);
  });

  it("rethrows any other stream error, and keeps writing after it", () => {
    const { stream, written, fail } = fakeStream();
    const write = quietPipeWriter(stream);
    expect(() => fail("EACCES")).toThrow("EACCES");
    expect(() => fail(undefined)).toThrow("no code");
    write("c");
    expect(written).toEqual(["c"]);
  });
});
