import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { StubgenError } from "../errors.js";
import { fsReason } from "../fs-reason.js";
import { nearest } from "./usage.js";
import { join as pointer } from "../load/json-pointer.js";
import { parseJson } from "../load/parse-json.js";
import { isSchemaNode } from "../load/schema-document.js";
import { REVISION_POLICIES } from "../model/policy.js";

/** What a config file may set; CLI flags win over it. Paths are relative to the config file. */
export interface StubgenConfig {
  readonly revisions?: readonly string[];
  readonly all?: boolean;
  readonly schema?: string;
  readonly out?: string;
  readonly cache?: string;
  /** The lockfile of the schema pins (a path, relative to the config file), or false for none. */
  readonly lockfile?: string | false;
  /** The schema may lack the MCP direction unions (an empty client and server is then fine). */
  readonly fragment?: boolean;
  readonly resultOverrides?: Readonly<Record<string, string>>;
  /** Extension of the generated files' imports of each other (generate). */
  readonly importExtension?: ".js" | ".ts";
  /** TypeScript sources, or JavaScript with declarations (generate). */
  readonly emit?: "ts" | "js";
  /** The runtime once in `<out>/runtime/`, or a copy in each revision folder (generate). */
  readonly runtime?: "shared" | "inline";
  /** No inherited index signatures in the generated types (generate; see --strict-objects). */
  readonly strictObjects?: boolean;
  /** Extensions to merge into each generated revision (ids of schema/revisions.json `extensions`). */
  readonly extensions?: readonly string[];
  /** Add-ons to copy into the runtime (generate; see --addon). */
  readonly addons?: readonly string[];
  /**
   * Revision label → the known revision whose prose rules (cancellation, timeouts, the HTTP
   * transport's rules) it follows, where the default choice (the nearest earlier known revision
   * of the schema's era) is not the one wanted.
   */
  readonly rulesOf?: Readonly<Record<string, string>>;
}

export const CONFIG_FILE = "mcp-stubgen.config.json";

const KEY_NAMES = ["revisions", "all", "schema", "out", "cache", "lockfile", "fragment", "resultOverrides", "importExtension", "emit", "runtime", "strictObjects", "extensions", "addons", "rulesOf"] as const;
const KEYS = KEY_NAMES.join(", ");

/** A config and the file it came from (null: no config file, the empty config). */
export interface LoadedConfig {
  readonly config: StubgenConfig;
  readonly file: string | null;
}

/**
 * Reads the config: `explicit` when given, else `mcp-stubgen.config.json` in `cwd`, else the
 * `"mcp-stubgen"` key of `cwd/package.json`, else an empty config.
 */
export function loadConfig(cwd: string, explicit?: string): StubgenConfig {
  return findConfig(cwd, explicit).config;
}

/** As `loadConfig`, and says which file the config came from. */
export function findConfig(cwd: string, explicit?: string): LoadedConfig {
  if (explicit !== undefined) {
    const file = resolve(cwd, explicit);
    return { config: readConfigFile(file, ""), file };
  }
  const file = join(cwd, CONFIG_FILE);
  if (existsSync(file)) return { config: readConfigFile(file, ""), file };
  const pkg = join(cwd, "package.json");
  if (existsSync(pkg)) {
    const json = parseJson(readFileSync(pkg, "utf8"), pkg);
    if (isSchemaNode(json) && json["mcp-stubgen"] !== undefined) {
      return { config: validateConfig(json["mcp-stubgen"], pkg, "/mcp-stubgen"), file: pkg };
    }
  }
  return { config: {}, file: null };
}

const READ_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EISDIR: "it is a folder",
  EACCES: "permission denied",
};

function readConfigFile(file: string, at: string): StubgenConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const why = fsReason(err, file, READ_ERRORS);
    throw new StubgenError(`cannot read the config file: ${why}; expected a JSON object with the keys ${KEYS}`, { file });
  }
  return validateConfig(parseJson(text, file), file, at);
}

/** Checks the config's shape, naming the file and the pointer of anything wrong. */
export function validateConfig(value: unknown, file: string, at: string): StubgenConfig {
  const fail = (where: string, expected: string): never => {
    throw new StubgenError(`invalid config: expected ${expected}`, { file, pointer: where });
  };
  if (!isSchemaNode(value)) return fail(at, "an object");
  const base = dirname(file);
  const config: { -readonly [K in keyof StubgenConfig]: StubgenConfig[K] } = {};
  for (const [key, v] of Object.entries(value)) {
    const where = pointer(at, key);
    switch (key) {
      case "revisions":
        if (!Array.isArray(v) || !v.every((r) => typeof r === "string")) fail(where, "an array of revision ids");
        config.revisions = v as string[];
        break;
      case "extensions":
        if (!Array.isArray(v) || !v.every((r) => typeof r === "string")) fail(where, 'an array of extension ids, e.g. ["tasks"]');
        config.extensions = v as string[];
        break;
      case "addons":
        if (!Array.isArray(v) || !v.every((r) => typeof r === "string")) fail(where, 'an array of add-on names, e.g. ["redis"]');
        config.addons = v as string[];
        break;
      case "all":
      case "fragment":
      case "strictObjects":
        if (typeof v !== "boolean") fail(where, "true or false");
        config[key] = v as boolean;
        break;
      case "schema":
        if (typeof v !== "string") fail(where, "a path or URL");
        config.schema = /^https?:\/\//i.test(v as string) ? (v as string) : resolve(base, v as string);
        break;
      case "out":
      case "cache":
        if (typeof v !== "string") fail(where, "a folder path");
        config[key] = resolve(base, v as string);
        break;
      case "lockfile":
        if (v !== false && (typeof v !== "string" || v === "")) fail(where, "a file path (the lockfile of the schema pins, relative to this file), or false for none");
        config.lockfile = v === false ? false : resolve(base, v as string);
        break;
      case "resultOverrides":
        if (!isSchemaNode(v) || !Object.values(v).every((t) => typeof t === "string")) {
          fail(where, 'an object of method → result type name, e.g. {"tools/call": "CallToolResult"}');
        }
        config.resultOverrides = v as Record<string, string>;
        break;
      case "rulesOf": {
        if (!isSchemaNode(v)) fail(where, 'an object of revision label → known revision, e.g. {"2027-01-01": "2026-07-28"}');
        for (const [label, known] of Object.entries(v as Record<string, unknown>)) {
          if (typeof known !== "string" || !Object.hasOwn(REVISION_POLICIES, known)) {
            fail(pointer(where, label), `a known revision (${Object.keys(REVISION_POLICIES).join(", ")})`);
          }
        }
        config.rulesOf = v as Record<string, string>;
        break;
      }
      case "importExtension":
        if (v !== ".js" && v !== ".ts") fail(where, '".js" or ".ts"');
        config.importExtension = v as ".js" | ".ts";
        break;
      case "emit":
        if (v !== "ts" && v !== "js") fail(where, '"ts" or "js"');
        config.emit = v as "ts" | "js";
        break;
      case "runtime":
        if (v !== "shared" && v !== "inline") fail(where, '"shared" or "inline"');
        config.runtime = v as "shared" | "inline";
        break;
      default: {
        // A near miss ("revision", "extention", "resultOverride") is named: the likely fix.
        const suggestion = nearest(key, KEY_NAMES);
        fail(where, `one of the keys ${KEYS}${suggestion === undefined ? "" : `; did you mean "${suggestion}"?`}`);
      }
    }
  }
  return config;
}

/** Parses `method=TypeName` pairs of --result-override. */
export function parseResultOverrides(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.lastIndexOf("=");
    if (eq <= 0 || eq === pair.length - 1) {
      throw new StubgenError(`--result-override ${JSON.stringify(pair)}: expected method=TypeName, e.g. ping=EmptyResult`);
    }
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}
