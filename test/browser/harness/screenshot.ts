/**
 * The screenshot of the host page that docs/apps.md shows (docs/images/apps-host.png). Every
 * run writes it to a temporary file and checks it is a PNG; the committed copy is replaced only
 * when MCP_STUBGEN_UPDATE_SCREENSHOT=1, so test runs leave the tree clean.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "puppeteer-core";

/** The committed copy. */
export const DOCS_SCREENSHOT: string = fileURLToPath(new URL("../../../docs/images/apps-host.png", import.meta.url));

/** The PNG signature, then the IHDR chunk: width and height at bytes 16 and 20. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height of a PNG; throws if `bytes` is not one. */
export function pngSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE) || bytes.toString("latin1", 12, 16) !== "IHDR") {
    throw new Error("not a PNG");
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Takes the page's screenshot; copies it over the docs' one when asked to. */
export async function saveScreenshot(page: Page): Promise<{ width: number; height: number }> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-stubgen-shot-"));
  try {
    const path = join(dir, "apps-host.png");
    await page.screenshot({ path, type: "png" });
    const size = pngSize(await readFile(path));
    if (process.env["MCP_STUBGEN_UPDATE_SCREENSHOT"] === "1") {
      await mkdir(dirname(DOCS_SCREENSHOT), { recursive: true });
      await copyFile(path, DOCS_SCREENSHOT);
    }
    return size;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
