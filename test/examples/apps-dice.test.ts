/**
 * The example MCP App on the everything-server (examples/apps/dice, registered by
 * examples/everything-server.ts), read the way an official host reads it: the official client
 * (@modelcontextprotocol/client, a 2025-11-25 session over real HTTP) and the official ext-apps
 * helpers (getToolUiResourceUri, RESOURCE_MIME_TYPE). The app itself runs in a browser in
 * test/browser/apps.test.ts.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { getToolUiResourceUri, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/app-bridge";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEverythingServer, type RunningEverythingServer } from "../helpers/everything-server.js";

let server: RunningEverythingServer | undefined;
let client: Client;

beforeAll(async () => {
  server = await startEverythingServer();
  client = new Client({ name: "apps-dice-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

describe("everything-server: the dice MCP App", () => {
  it("lists roll_dice with its UI resource in _meta.ui.resourceUri (and the older flat key)", async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((candidate) => candidate.name === "roll_dice");
    expect(tool).toBeDefined();
    expect(getToolUiResourceUri(tool ?? {})).toBe("ui://everything/dice.html");
    expect(tool?._meta?.["ui/resourceUri"]).toBe("ui://everything/dice.html");
  });

  it("serves the UI resource as one HTML document of the MCP Apps MIME type, with its CSP metadata", async () => {
    const { resources } = await client.listResources();
    expect(resources.find((resource) => resource.uri === "ui://everything/dice.html")).toMatchObject({ mimeType: RESOURCE_MIME_TYPE });
    const { contents } = await client.readResource({ uri: "ui://everything/dice.html" });
    expect(contents).toHaveLength(1);
    const [content] = contents;
    expect(content).toMatchObject({ uri: "ui://everything/dice.html", mimeType: RESOURCE_MIME_TYPE, _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } } });
    const html = content !== undefined && "text" in content ? content.text : "";
    // The script is inline (a UI resource is one document) and ends only where its tag does.
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)];
    expect(scripts).toHaveLength(1);
    expect(scripts[0]?.[1]?.length).toBeGreaterThan(1000);
    expect(html).not.toContain("/*APP_SCRIPT*/");
  });

  it("answers roll_dice with the rolls the app draws (structuredContent) and a text for the model", async () => {
    const result = await client.callTool({ name: "roll_dice", arguments: { sides: 20, count: 4 } });
    const rolled = result.structuredContent as { rolls: number[]; total: number };
    expect(rolled.rolls).toHaveLength(4);
    for (const roll of rolled.rolls) expect(roll >= 1 && roll <= 20).toBe(true);
    expect(rolled.total).toBe(rolled.rolls.reduce((a, b) => a + b, 0));
    expect(result.content).toEqual([{ type: "text", text: `Rolled 4d20: ${rolled.rolls.join(", ")} (total ${String(rolled.total)})` }]);
  });
});
