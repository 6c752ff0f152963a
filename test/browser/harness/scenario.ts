/**
 * The one scenario every pairing of host and app runs (the tests of test/browser/*.test.ts), in
 * a fresh page of the file's browser:
 *
 * 1. the initialize handshake: each side names the other;
 * 2. a notification each way: ui/notifications/tool-input (host → app), size-changed (app → host);
 * 3. a tools/call of the app, proxied by the host to the MCP server, and its result;
 * 4. a cancel: the app aborts a call, its promise rejects, and the server handler's ctx.signal
 *    aborts (the cancel went app → host → MCP server);
 * 5. two more frames post forged requests and notifications to both: one of a third origin, one
 *    of the app's own origin (another window: only the source-window check stops it on the host
 *    side); none takes effect;
 * 6. malformed messages from each side's peer window are reported, and the pair still works.
 */
import { expect, it } from "vitest";
import type { Browser, Frame, Page } from "puppeteer-core";
import { frameOf, onApp, onHost, onThird, until, within } from "./drive.js";
import type { AppsTestServer } from "./mcp-server.js";
import type { Origins } from "./origins.js";
import { FORGED, MALFORMED } from "./probe.js";

/** One pairing: the bundled page names (harness/bundle.ts) of its host and its app. */
export interface Pairing {
  readonly host: string;
  readonly app: string;
  /** The names each side gives itself (what the other must report after the handshake). */
  readonly hostName: string;
  readonly appName: string;
  /** Which sides are this project's: they must report every malformed message (the official
   *  transport reports only those that look like JSON-RPC, and drops the rest silently). */
  readonly ours: { readonly host: boolean; readonly app: boolean };
}

/** How many of MALFORMED a side must report. */
const reportsOf = (ours: boolean): number => (ours ? MALFORMED.length : 1);

/** What the file's hooks set up once: one browser, the origins, the MCP server. */
export interface Stage {
  readonly browser: Browser;
  readonly origins: Origins;
  readonly server: AppsTestServer;
}

/** The state of one pairing's run, shared by its steps (they run in order). */
export interface Run {
  page: Page;
  app: Frame;
}

/** Opens the host page of `pairing` (the app's and the two intruders' URLs in its query). */
export async function openPairing(stage: Stage, pairing: Pairing): Promise<Run> {
  const page = await stage.browser.newPage();
  const failures: string[] = [];
  page.on("pageerror", (error) => failures.push(String(error)));
  // The app's page learns its host's exact origin from its URL (what our App's transport accepts).
  const app = `${stage.origins.app}/${pairing.app}.html?${new URLSearchParams({ host: stage.origins.host }).toString()}`;
  const query = new URLSearchParams({ app, third: `${stage.origins.third}/third.html`, sibling: `${stage.origins.app}/third.html?sibling` });
  await page.goto(`${stage.origins.host}/${pairing.host}.html?${query.toString()}`);
  await page.waitForFunction("globalThis.hostProbe !== undefined", { timeout: 15_000 }).catch((error: unknown) => {
    throw new Error(`host page did not start: ${failures.join("; ") || String(error)}`);
  });
  return { page, app: await frameOf(page, `${stage.origins.app}/${pairing.app}.html`, "appProbe") };
}

/** Registers the scenario's steps (`it`s, in order) for `pairing`; `stage()` and `run()` read the hooks' state. */
export function scenarioSteps(pairing: Pairing, stage: () => Stage, run: () => Run): void {
  it("completes the initialize handshake: each side names the other", async () => {
    const { page, app } = run();
    expect(await within(onHost(page, (probe) => probe.initialized()), "ui/notifications/initialized")).toBe(pairing.appName);
    expect(await within(onApp(app, (probe) => probe.connected()), "ui/initialize's result")).toBe(pairing.hostName);
  });

  it("delivers a notification each way (tool-input to the app, size-changed to the host)", async () => {
    const { page, app } = run();
    await onHost(page, (probe, args) => probe.sendToolInput(args), { city: "Lyon", n: 1 });
    expect(await until(() => onApp(app, (probe) => probe.toolInputs()), (inputs) => inputs.length > 0, "tool-input")).toEqual([{ city: "Lyon", n: 1 }]);
    await onApp(app, (probe, width, height) => probe.sendSizeChanged(width, height), 320, 180);
    expect(await until(() => onHost(page, (probe) => probe.sizes()), (sizes) => sizes.length > 0, "size-changed")).toEqual([{ width: 320, height: 180 }]);
    // (The apps are made without auto-resize, so these are the only sizes sent.)
  });

  it("proxies the app's tools/call through the host to the MCP server and returns its result", async () => {
    const { app } = run();
    const before = stage().server.adds.length;
    const result = await within(onApp(app, (probe, args) => probe.callTool("add", args), { a: 2, b: 3 }), "tools/call add");
    expect(result).toEqual({ text: "5", isError: false });
    expect(stage().server.adds.slice(before)).toEqual([{ a: 2, b: 3 }]);
  });

  it("cancels from the app: the call rejects and the MCP server's ctx.signal aborts", async () => {
    const { app } = run();
    const waiting = stage().server.nextWait();
    await onApp(app, (probe) => probe.startCall("wait"));
    await within(waiting.started, "the server's wait handler to start");
    const outcome = await within(onApp(app, (probe) => probe.cancel()), "the cancelled call to settle");
    expect(outcome).toMatch(/^aborted: /);
    expect(typeof (await within(waiting.aborted, "the server handler's ctx.signal to abort"))).toBe("string");
  });

  it("ignores what a third origin's frame, and another frame of the app's origin, post to the host and to the app", async () => {
    const { page, app } = run();
    const intruders = [await frameOf(page, `${stage().origins.third}/third.html`, "thirdProbe"), await frameOf(page, `${stage().origins.app}/third.html`, "thirdProbe")];
    const adds = stage().server.adds.length;
    const ignoredBefore = { host: await onHost(page, (probe) => probe.ignored()), app: await onApp(app, (probe) => probe.ignored()) };
    const posted = { toHost: 0, toApp: 0 };
    for (const intruder of intruders) {
      const sent = await onThird(intruder, (probe) => probe.attack());
      expect(sent.toHost).toBeGreaterThan(0);
      expect(sent.toApp).toBeGreaterThan(0);
      posted.toHost += sent.toHost;
      posted.toApp += sent.toApp;
    }
    // Our transports count what they ignore: every forgery arrived, and was ignored as such.
    if (pairing.ours.host) await until(() => onHost(page, (probe) => probe.ignored()), (count) => count === (ignoredBefore.host ?? 0) + posted.toHost, "the host to ignore the forgeries");
    if (pairing.ours.app) await until(() => onApp(app, (probe) => probe.ignored()), (count) => count === (ignoredBefore.app ?? 0) + posted.toApp, "the app to ignore the forgeries");
    // Real traffic after the forgeries: once it arrived, the forgeries had their chance.
    await onHost(page, (probe, args) => probe.sendToolInput(args), { n: 2 });
    await onApp(app, (probe, width, height) => probe.sendSizeChanged(width, height), 330, 190);
    const inputs = await until(() => onApp(app, (probe) => probe.toolInputs()), (seen) => seen.length >= 2, "the second tool-input");
    const sizes = await until(() => onHost(page, (probe) => probe.sizes()), (seen) => seen.length >= 2, "the second size-changed");
    expect(await within(onApp(app, (probe, args) => probe.callTool("add", args), { a: 4, b: 4 }), "tools/call add")).toEqual({ text: "8", isError: false });
    expect(inputs).toEqual([{ city: "Lyon", n: 1 }, { n: 2 }]);
    expect(inputs).not.toContainEqual(FORGED.toolInput);
    expect(sizes).toEqual([{ width: 320, height: 180 }, { width: 330, height: 190 }]);
    expect(sizes).not.toContainEqual(FORGED.size);
    expect(stage().server.adds.slice(adds)).toEqual([{ a: 4, b: 4 }]);
    expect(await onHost(page, (probe) => probe.initialized())).toBe(pairing.appName);
  });

  it("reports malformed messages from the peer window on both sides, and keeps working", async () => {
    const { page, app } = run();
    await onHost(page, (probe) => probe.postMalformed());
    await onApp(app, (probe) => probe.postMalformed());
    const appErrors = await until(() => onApp(app, (probe) => probe.errors()), (errors) => errors.length >= reportsOf(pairing.ours.app), "the app's reports");
    const hostErrors = await until(() => onHost(page, (probe) => probe.errors()), (errors) => errors.length >= reportsOf(pairing.ours.host), "the host's reports");
    if (pairing.ours.app) expect(appErrors.length).toBe(MALFORMED.length);
    if (pairing.ours.host) expect(hostErrors.length).toBe(MALFORMED.length);
    expect(await within(onApp(app, (probe, args) => probe.callTool("add", args), { a: 5, b: 6 }), "tools/call add")).toEqual({ text: "11", isError: false });
  });
}
