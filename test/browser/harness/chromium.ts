/**
 * Headless Chromium for the browser tests: the system's (Debian's `chromium` package, which
 * `.ci/run` installs when it is missing), driven by puppeteer-core. Nothing here downloads a
 * browser: without one the launch fails and says how to get it.
 */
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import puppeteer, { type Browser } from "puppeteer-core";

/** Where a browser may be: `CHROMIUM_PATH` first, then these names on PATH. */
const NAMES: readonly string[] = ["chromium", "chromium-browser", "google-chrome"];

/** The path of the system Chromium, or undefined. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const given = env["CHROMIUM_PATH"];
  if (given !== undefined && given !== "") return given;
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    for (const name of NAMES) {
      const candidate = join(dir, name);
      if (dir !== "" && existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Launches headless Chromium (`--no-sandbox` as root, where its sandbox cannot start). */
export async function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === undefined) {
    throw new Error("no Chromium found: install Debian's `chromium` (.ci/run does) or set CHROMIUM_PATH");
  }
  const args = ["--disable-gpu", "--disable-dev-shm-usage", "--no-first-run", "--disable-extensions"];
  if (process.getuid?.() === 0) args.push("--no-sandbox");
  return puppeteer.launch({ executablePath, headless: true, args, defaultViewport: { width: 900, height: 640 } });
}
