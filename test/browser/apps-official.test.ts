/**
 * The harness's own check, and the reference the other pairings are held to: the official App
 * against the official AppBridge (@modelcontextprotocol/ext-apps 2.0.4) in headless Chromium,
 * through the same scenario (harness/scenario.ts), so a failure of ours elsewhere is not the
 * harness's.
 */
import { afterAll, beforeAll, describe } from "vitest";
import type { Browser } from "puppeteer-core";
import { bundlePages, type Bundled } from "./harness/bundle.js";
import { launchChromium } from "./harness/chromium.js";
import { startAppsTestServer, type AppsTestServer } from "./harness/mcp-server.js";
import { serveOrigins, type Origins } from "./harness/origins.js";
import { openPairing, scenarioSteps, type Pairing, type Run, type Stage } from "./harness/scenario.js";

const PAIRING: Pairing = { host: "official-host", app: "official-app", hostName: "official-host", appName: "official-app", ours: { host: false, app: false } };

let bundled: Bundled;
let server: AppsTestServer;
let origins: Origins;
let browser: Browser;
let run: Run;

beforeAll(async () => {
  [bundled, browser] = await Promise.all([
    bundlePages([
      { name: "official-host", script: "official-host.ts", title: "official host" },
      { name: "official-app", script: "official-app.ts", title: "official app" },
      { name: "third", script: "third.ts", title: "third origin" },
    ]),
    launchChromium(),
  ]);
  server = startAppsTestServer();
  origins = await serveOrigins(bundled.dir, server.listener);
  run = await openPairing({ browser, origins, server }, PAIRING);
});

afterAll(async () => {
  await browser?.close();
  await origins?.close();
  await server?.close();
  await bundled?.remove();
});

describe("official App ↔ official AppBridge (the harness's reference)", () => {
  const stage = (): Stage => ({ browser, origins, server });
  scenarioSteps(PAIRING, stage, () => run);
});
