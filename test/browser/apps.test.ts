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
 * Then the example app (examples/apps/dice), as a host renders it: its UI resource read from the
 * server and framed sandboxed (srcdoc, an opaque origin), the tool's input and result sent to it,
 * and its own "Roll again" proxied to the server. That host page is the screenshot of the docs
 * (harness/screenshot.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Frame, Page } from "puppeteer-core";
import { bundlePages, type Bundled } from "./harness/bundle.js";
import { launchChromium } from "./harness/chromium.js";
import { startAppsTestServer, type AppsTestServer } from "./harness/mcp-server.js";
import { serveOrigins, type Origins } from "./harness/origins.js";
import { frameOf, onExample, until, within } from "./harness/drive.js";
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
      { name: "example-host", script: "example-host.ts", title: "dice example host" },
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
  });
}

describe("the example app (examples/apps/dice) in our host", () => {
  let page: Page;
  beforeAll(async () => {
    page = await browser.newPage();
    await page.goto(`${origins.host}/example-host.html`);
  });
  afterAll(async () => {
    await page?.close();
  });

  it("is found by its tool's _meta.ui.resourceUri, read as text/html;profile=mcp-app, framed, and shows the tool's result", async () => {
    const ready = await within(onExample(page, (probe) => probe.ready()), "the example host");
    expect(ready).toMatchObject({ resourceUri: "ui://everything/dice.html", mimeType: "text/html;profile=mcp-app", appName: "dice" });
    const rolls = /^Rolled 3d6: (\d), (\d), (\d) \(total (\d+)\)$/.exec(ready.firstText);
    expect(rolls).not.toBeNull();
    const app = await srcdocFrame(page);
    const faces = await until(() => app.$$eval(".face", (found) => found.map((face) => face.textContent)), (found) => found.length === 3, "three dice");
    expect(faces).toEqual(rolls?.slice(1, 4));
    expect(await app.$eval("#total", (total) => total.textContent)).toBe(`Total: ${String(rolls?.[4])}`);
    // The docs' screenshot: the dice drawn are those of the host's log line (before "Roll again").
    const shot = await saveScreenshot(page);
    expect(shot.width).toBeGreaterThan(0);
  });

  it("rolls again through the host: the app's tools/call is proxied to the server", async () => {
    const app = await srcdocFrame(page);
    // Mark the faces shown: a new result replaces them all.
    await app.$$eval(".face", (found) => found.forEach((face) => face.setAttribute("data-old", "")));
    await app.click("#roll");
    const faces = await until(() => app.$$eval(".face:not([data-old])", (found) => found.map((face) => Number(face.textContent))), (found) => found.length === 3, "a new roll");
    for (const face of faces) expect(face >= 1 && face <= 6).toBe(true);
    expect(await app.$eval("#status", (status) => status.textContent)).toBe("Rolled 3d6.");
  });
});

/** The example app's frame (about:srcdoc), once its script connected it (the button is enabled). */
async function srcdocFrame(page: Page): Promise<Frame> {
  const frame = await frameOf(page, "about:srcdoc", "document");
  await frame.waitForSelector("#roll:not([disabled])", { timeout: 15_000 });
  return frame;
}
