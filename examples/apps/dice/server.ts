/**
 * The dice app on a generated server of every era: the UI resource ui://everything/dice.html
 * (app.html with app.ts bundled into it) and the tool `roll_dice` whose `_meta.ui.resourceUri`
 * points at it, registered with the MCP Apps server helpers of out/apps (docs/apps.md).
 *
 *   registerDiceApp(server);   // examples/everything-server.ts does this
 *
 * The page is built the first time a client reads it (esbuild, a devDependency: the examples run
 * from the repository), then kept.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { registerAppResource, registerAppTool } from "../../../out/apps/index.js";
import type { McpServers } from "../../../out/every-era/index.js";

/** The URI of the app's UI resource. */
export const DICE_UI_URI = "ui://everything/dice.html";

const ROLL_INPUT = {
  type: "object",
  properties: {
    sides: { type: "integer", minimum: 2, maximum: 100, description: "Faces per die (default 6)." },
    count: { type: "integer", minimum: 1, maximum: 10, description: "How many dice (default 2)." },
  },
} as const;

let page: Promise<string> | undefined;

/** app.html with app.ts (and the out/apps code it imports) bundled into its one inline script. */
export function diceHtml(): Promise<string> {
  page ??= (async () => {
    const { build } = await import("esbuild");
    const bundled = await build({
      entryPoints: [fileURLToPath(new URL("./app.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      write: false,
      logLevel: "silent",
    });
    // An inline script ends at the first "</script": that text inside the code is escaped.
    const script = (bundled.outputFiles[0]?.text ?? "").replaceAll("</script", "<\\/script");
    const html = await readFile(new URL("./app.html", import.meta.url), "utf8");
    return html.replace("/*APP_SCRIPT*/", () => script);
  })();
  return page;
}

/**
 * roll_dice's arguments with their defaults. The server has checked them against ROLL_INPUT;
 * the helpers hand them on untyped (one handler type for every revision).
 */
function diceArgs(args: unknown): { sides: number; count: number } {
  const given = (typeof args === "object" && args !== null ? args : {}) as { sides?: unknown; count?: unknown };
  return { sides: typeof given.sides === "number" ? given.sides : 6, count: typeof given.count === "number" ? given.count : 2 };
}

/** A random integer in 1..sides. */
const die = (sides: number): number => 1 + Math.floor(Math.random() * sides);

/** What registerDiceApp needs of a server: McpServers' two registrations (any output folder's). */
export type DiceAppServer = Pick<McpServers, "registerResource" | "registerTool">;

/** Registers the dice app's UI resource and its tool on `server`. */
export function registerDiceApp(server: DiceAppServer): void {
  registerAppResource(
    server,
    "dice-ui",
    DICE_UI_URI,
    {
      title: "Dice",
      description: "The dice app: shows roll_dice's rolls and rolls again.",
      // No network at all (the host builds the iframe's CSP from this), drawn with a border.
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
    },
    async (uri) => ({ contents: [{ uri, text: await diceHtml() }] }),
  );
  registerAppTool(
    server,
    "roll_dice",
    { title: "Roll dice", description: "Rolls dice and shows them in the dice app.", inputSchema: ROLL_INPUT, _meta: { ui: { resourceUri: DICE_UI_URI } } },
    (args) => {
      const { sides, count } = diceArgs(args);
      const rolls = Array.from({ length: count }, () => die(sides));
      const sum = rolls.reduce((a, b) => a + b, 0);
      return {
        content: [{ type: "text", text: `Rolled ${String(rolls.length)}d${String(sides)}: ${rolls.join(", ")} (total ${String(sum)})` }],
        structuredContent: { rolls, total: sum },
      };
    },
  );
}
