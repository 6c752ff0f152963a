/**
 * MCP Apps in a real browser (issue 45): headless Chromium (Debian's, via puppeteer-core), a
 * host page on http://127.0.0.1:A framing an app on http://localhost:B and a third origin's page
 * on http://127.0.0.1:C, the MCP server at /mcp of the host's origin. Four pairings of host and
 * app run the one scenario of harness/scenario.ts, each in its own page of one browser:
 *
 * - the official App against the official AppBridge (@modelcontextprotocol/ext-apps 2.0.4): the
 *   harness's reference, so a failure of ours is not the harness's;
 * - (a) our generated App against the official AppBridge (its MCP side an official client);
 * - (b) the official App against our Host, whose bridge proxies to a generated McpClient;
 * - (c) our App against our Host: the cancel goes app → host → McpClient → the generated server.
 *
 * The host page of (c) is saved as a screenshot (harness/screenshot.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "puppeteer-core";
import { bundlePages, type Bundled } from "./harness/bundle.js";
import { launchChromium } from "./harness/chromium.js";
import { startAppsTestServer, type AppsTestServer } from "./harness/mcp-server.js";
import { serveOrigins, type Origins } from "./harness/origins.js";
import { openPairing, scenarioSteps, type Pairing, type Run, type Stage } from "./harness/scenario.js";
import { saveScreenshot } from "./harness/screenshot.js";

const OFFICIAL_HOST = { host: "official-host", hostName: "official-host" } as const;
const OUR_HOST = { host: "our-host", hostName: "stubgen-host" } as const;
const OFFICIAL_APP = { app: "official-app", appName: "official-app" } as const;
const OUR_APP = { app: "our-app", appName: "stubgen-app" } as const;

const PAIRINGS: ReadonlyArray<readonly [string, Pairing]> = [
  ["official App ↔ official AppBridge (the reference)", { ...OFFICIAL_HOST, ...OFFICIAL_APP, ours: { host: false, app: false } }],
  ["(a) our App ↔ official AppBridge", { ...OFFICIAL_HOST, ...OUR_APP, ours: { host: false, app: true } }],
  ["(b) official App ↔ our Host", { ...OUR_HOST, ...OFFICIAL_APP, ours: { host: true, app: false } }],
  ["(c) our App ↔ our Host ↔ generated McpClient ↔ generated server", { ...OUR_HOST, ...OUR_APP, ours: { host: true, app: true } }],
];

let bundled: Bundled;
let server: AppsTestServer;
let origins: Origins;
let browser: Browser;

beforeAll(async () => {
  [bundled, browser] = await Promise.all([
    bundlePages([
      { name: "official-host", script: "official-host.ts", title: "official host" },
      { name: "official-app", script: "official-app.ts", title: "official app" },
      { name: "our-host", script: "our-host.ts", title: "mcp-stubgen host" },
      { name: "our-app", script: "our-app.ts", title: "mcp-stubgen app" },
      { name: "third", script: "third.ts", title: "third origin" },
    ]),
    launchChromium(),
  ]);
  server = startAppsTestServer();
  origins = await serveOrigins(bundled.dir, server.listener);
});

afterAll(async () => {
  await browser?.close();
  await origins?.close();
  await server?.close();
  await bundled?.remove();
});

const stage = (): Stage => ({ browser, origins, server });

for (const [name, pairing] of PAIRINGS) {
  describe(name, () => {
    let run: Run;
    beforeAll(async () => {
      run = await openPairing(stage(), pairing);
    });
    afterAll(async () => {
      await run?.page.close();
    });
    scenarioSteps(pairing, stage, () => run);
    if (pairing.host === OUR_HOST.host && pairing.app === OUR_APP.app) {
      it("saves a screenshot of the host page (a PNG of the page's size)", async () => {
        const shot = await saveScreenshot(run.page);
        expect(shot.width).toBeGreaterThan(0);
        expect(shot.height).toBeGreaterThan(0);
      });
    }
  });
}
