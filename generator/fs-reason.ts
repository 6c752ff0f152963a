import { statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve } from "node:path";

/**
 * The folder above `path` that is a file, for an ENOTDIR error: Node names the path it was
 * given (`afile/sub/x.json`), not the part of it that is in the way (`afile`). Checked from the
 * root down; undefined when no part above `path` is a file (the error came from elsewhere).
 * Shown relative to the working folder when inside it.
 */
export function fileInTheWay(path: string, cwd: string = process.cwd()): string | undefined {
  const chain: string[] = [];
  for (let current = dirname(resolve(cwd, path)); ; current = dirname(current)) {
    chain.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const folder of chain) {
    let isFolder: boolean;
    try {
      isFolder = statSync(folder).isDirectory();
    } catch {
      return undefined; // missing: then ENOENT, not ENOTDIR, is the story
    }
    if (!isFolder) {
      const shown = relative(cwd, folder);
      return shown === "" || shown.startsWith("..") || isAbsolute(shown) ? folder : shown;
    }
  }
  return undefined;
}

/** Why a file-system call on `path` failed, in words: ENOTDIR names the file in the way; else `reasons[code]`, the code, or the message. */
export function fsReason(err: unknown, path: string, reasons: Readonly<Record<string, string>> = {}): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOTDIR") {
    const file = fileInTheWay(path);
    if (file !== undefined) return `${file} is a file, not a folder (ENOTDIR)`;
  }
  if (code === undefined) return (err as Error).message;
  const known = reasons[code];
  return known === undefined ? code : `${known} (${code})`;
}
