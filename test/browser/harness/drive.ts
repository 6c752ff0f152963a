/**
 * Driving the pages from the test: calls into a page's probe (harness/probe.ts) and polling
 * until what it reports satisfies a condition. The probe call is sent as source text
 * (`(fn)(globalThis.<probe>, ...args)`), so `fn` may use its parameters only.
 */
import type { Frame, Page } from "puppeteer-core";
import type { AppProbe, ExampleProbe, HostProbe, ThirdProbe } from "./probe.js";

type Target = Page | Frame;

async function call<P, R, A extends unknown[]>(target: Target, global: string, fn: (probe: P, ...args: A) => R | Promise<R>, args: A): Promise<R> {
  const source = `(${fn.toString()})(globalThis.${global}, ...${JSON.stringify(args)})`;
  return (await target.evaluate(source)) as R;
}

/** Calls `fn` with the host page's probe (and `args`, JSON values) in the page. */
export const onHost = <R, A extends unknown[]>(page: Page, fn: (probe: HostProbe, ...args: A) => R | Promise<R>, ...args: A): Promise<R> => call(page, "hostProbe", fn, args);
/** Calls `fn` with the app frame's probe in the frame. */
export const onApp = <R, A extends unknown[]>(frame: Frame, fn: (probe: AppProbe, ...args: A) => R | Promise<R>, ...args: A): Promise<R> => call(frame, "appProbe", fn, args);
/** Calls `fn` with the third origin's probe in its frame. */
export const onThird = <R, A extends unknown[]>(frame: Frame, fn: (probe: ThirdProbe, ...args: A) => R | Promise<R>, ...args: A): Promise<R> => call(frame, "thirdProbe", fn, args);

/** Calls `fn` with the example host page's probe. */
export const onExample = <R, A extends unknown[]>(page: Page, fn: (probe: ExampleProbe, ...args: A) => R | Promise<R>, ...args: A): Promise<R> => call(page, "exampleProbe", fn, args);

/** How long a page may take to show what a test waits for (generous: 2 shared cores). */
export const WAIT_MS = 15_000;

/** Polls `read` until `ok` holds of its value; fails with the last value after WAIT_MS. */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The page's frame whose URL starts with `origin`, once its probe `global` is defined. */
export async function frameOf(page: Page, origin: string, global: string): Promise<Frame> {
  const frame = await until(
    async () => page.frames().find((candidate) => candidate.url().startsWith(origin)),
    (found) => found !== undefined,
    `a frame of ${origin}`,
  );
  if (frame === undefined) throw new Error("unreachable");
  await frame.waitForFunction(`globalThis.${global} !== undefined`, { timeout: WAIT_MS });
  return frame;
}

/** Rejects with a timeout error if `promise` takes longer than WAIT_MS. */
export function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), WAIT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
