// A skills directory read from disk, as SkillCatalogOptions.files takes it (skill-catalog.ts):
// every regular file under `root`, by its `/`-separated path relative to `root`. Bounded before
// anything is read: a file over maxFileBytes, more than maxFiles files, or a tree deeper than
// maxDepth is an error naming the file; symbolic links (which could point outside `root`) and
// anything that is neither a file nor a folder are refused; dotfiles and dot-folders are skipped.
//
// The only module of the runtime that reads a disk: the file system is Node's `fs/promises`,
// loaded when the function runs (the rest of the runtime, and every index that exports this, stays
// free of Node's types and modules), or the `fs` option's.

import { numberOption } from "../core/options.js";

/** What readSkillDirectory uses of a file system: the part of Node's `fs/promises` it calls. */
export interface SkillDirectoryFs {
  readdir(path: string): Promise<string[]>;
  lstat(path: string): Promise<{ isDirectory(): boolean; isFile(): boolean; readonly size: number }>;
  readFile(path: string): Promise<Uint8Array>;
}

/** Node's fs/promises, named by a variable so that type-checking the runtime needs no Node types. */
const NODE_FS: string = "node:fs/promises";

export interface SkillDirectoryOptions {
  /** Largest file read, in bytes (default 16 MiB, the per-skill total of SEP-2640's Limits). */
  readonly maxFileBytes?: number | undefined;
  /** Most files read (default 4096). */
  readonly maxFiles?: number | undefined;
  /** Deepest folder nesting below `root` (default 16). */
  readonly maxDepth?: number | undefined;
  /** The file system (default: Node's fs/promises). */
  readonly fs?: SkillDirectoryFs | undefined;
}

/** Every file under `root` (path relative to it → bytes), within the bounds of `options`. */
export async function readSkillDirectory(root: string, options: SkillDirectoryOptions = {}): Promise<Record<string, Uint8Array>> {
  const maxFileBytes = numberOption("SkillDirectoryOptions.maxFileBytes", options.maxFileBytes, 16 * 1024 * 1024, { min: 1 });
  const maxFiles = numberOption("SkillDirectoryOptions.maxFiles", options.maxFiles, 4096, { min: 1 });
  const maxDepth = numberOption("SkillDirectoryOptions.maxDepth", options.maxDepth, 16, { min: 1 });
  const fs = options.fs ?? ((await import(NODE_FS)) as SkillDirectoryFs);
  const join = (dir: string, name: string): string => (dir.endsWith("/") ? `${dir}${name}` : `${dir}/${name}`);
  const files: Record<string, Uint8Array> = {};
  let count = 0;
  const walk = async (dir: string, prefix: string, depth: number): Promise<void> => {
    if (depth > maxDepth) throw new RangeError(`${dir}: deeper than ${maxDepth} folders below ${root} (SkillDirectoryOptions.maxDepth)`);
    const names = (await fs.readdir(dir)).filter((name) => !name.startsWith(".")).sort();
    for (const name of names) {
      const path = join(dir, name);
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      const stat = await fs.lstat(path);
      if (stat.isDirectory()) {
        await walk(path, relative, depth + 1);
      } else if (stat.isFile()) {
        if (++count > maxFiles) throw new RangeError(`${path}: more than ${maxFiles} files under ${root} (SkillDirectoryOptions.maxFiles)`);
        if (stat.size > maxFileBytes) throw new RangeError(`${path}: ${stat.size} bytes, over ${maxFileBytes} (SkillDirectoryOptions.maxFileBytes)`);
        const bytes = await fs.readFile(path);
        // The file may have grown between lstat and the read.
        if (bytes.byteLength > maxFileBytes) throw new RangeError(`${path}: ${bytes.byteLength} bytes, over ${maxFileBytes} (SkillDirectoryOptions.maxFileBytes)`);
        files[relative] = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } else {
        throw new TypeError(`${path}: not a regular file or folder (symbolic links are not followed)`);
      }
    }
  };
  await walk(root, "", 0);
  return files;
}
