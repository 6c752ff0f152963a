// The consumer-project check: does what README.md's "Use it in your project" section tells a
// new user to do, with the package packed as npm would publish it, in a fresh folder.
//
//   1. npm pack this package into a temporary folder (as built: `prepack` builds dist/ on a real
//      pack; the packed manifest has no `prepare`, which npm would flag when installing a tarball);
//   2. npm init -y a consumer project beside a `shared/mcp-schema` folder (the published
//      schemas, so the README's `--from ../shared/mcp-schema` is used as written);
//   3. npm install --save-dev the tarball and typescript;
//   4. write package.json's additions, mcp-stubgen.config.json, tsconfig.json, src/server.ts and
//      src/client.ts exactly as the README shows them (taken from its code blocks);
//   5. npm run build (prebuild: schema pull + generate; then tsc) and npm start; then
//      npm run build again, which must leave the generated files and the cache untouched.
//   6. A second project as `npm init -y` leaves it ("type": "commonjs", package.json never
//      edited): the tarball installed, `generate --emit js`, and a CommonJS client that imports
//      the output and starts examples/stdio-server.ts with StdioClientTransport (plainConsumer).
// The third part of the first-day check, an HTTP client with an SDK auth provider against a
// server that requires a bearer token (also from the tarball, in an untouched `npm init -y`
// project), is test/consumer/auth-check.mjs, run by test/consumer/auth.test.ts.
//
// Run it alone with `npm run check:consumer`; test/consumer/consumer.test.ts runs it under
// vitest and asserts on what it returns. Needs the npm registry (or npm's cache) for
// typescript and the package's dependencies.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SECTION = "## Use it in your project";

/** The README section's fenced code blocks: `{ lang, name, text }` (name: the word after the language). */
export function readmeBlocks(readme = readFileSync(join(root, "README.md"), "utf8")) {
  const start = readme.indexOf(`\n${SECTION}\n`);
  if (start === -1) throw new Error(`README.md has no "${SECTION}" section`);
  const end = readme.indexOf("\n## ", start + SECTION.length + 2);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks = [];
  for (const m of section.matchAll(/^```(\w+)(?: ([^\n]+))?\n([\s\S]*?)^```$/gm)) {
    blocks.push({ lang: m[1], name: m[2] ?? null, text: m[3] });
  }
  return { section, blocks };
}

/** The one block of the section named `name`. */
function block(blocks, name) {
  const found = blocks.filter((b) => b.name === name);
  if (found.length !== 1) throw new Error(`README.md "${SECTION}": expected one code block named ${name}, found ${found.length}`);
  return found[0].text;
}

/** The commands the check runs in the consumer project, as the README writes them. */
export const README_COMMANDS = [
  "npm init -y",
  "npm install --save-dev mcp-stubgen typescript @types/node",
  "npm run build",
  "npm start",
];

const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund"];

/** Path, inode and mtime of everything below `dir`, as one string. */
function stamps(dir) {
  return readdirSync(dir, { recursive: true })
    .sort()
    .map((rel) => {
      const st = statSync(join(dir, rel));
      return `${rel} ${st.ino} ${st.mtimeMs}`;
    })
    .join("\n");
}

/** Runs a command; its stdout (with `both`, stdout and stderr: npm warns on stderr). */
function run(cmd, args, cwd, log, both = false) {
  log(`$ ${[cmd, ...args].join(" ")}    (in ${cwd})`);
  try {
    const options = { cwd, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } };
    if (!both) return execFileSync(cmd, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    // stderr into the same pipe, through a shell that merges it (execFileSync returns stdout only)
    return execFileSync("sh", ["-c", '"$0" "$@" 2>&1', cmd, ...args], { ...options, stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${err.status}):\n${err.stdout ?? ""}\n${err.stderr ?? ""}`);
  }
}

/**
 * The client of step 6, CommonJS as a default project's .js files are: it imports the
 * `--emit js` output (ES modules, which the output's own package.json marks as such), starts
 * examples/stdio-server.ts from this repository with StdioClientTransport, calls `echo`, cancels
 * `sleep`, closes, and prints one line per step.
 */
const PLAIN_CLIENT = `"use strict";
async function main() {
  const { McpClient } = await import("./mcp/2025-11-25/index.js");
  const { StdioClientTransport } = await import("./mcp/2025-11-25/stdio-spawn.js");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "examples/stdio-server.ts"],
    cwd: process.argv[2],
    stderr: "ignore",
  });
  const client = new McpClient({ logger: null });
  await client.connect(transport, { initialize: false });
  const init = await client.initialize({ protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "plain", version: "1.0.0" } });
  console.log("connected to " + init.serverInfo.name + " (pid " + (typeof transport.pid) + ")");
  const echoed = await client.callTool({ name: "echo", arguments: { text: "from a commonjs project" } });
  console.log("echo: " + echoed.content[0].text);
  const stop = new AbortController();
  const sleeping = client.callTool({ name: "sleep", arguments: { ms: 60000 } }, { signal: stop.signal });
  stop.abort("enough");
  await sleeping.catch((err) => console.log("sleep: " + err.name));
  await client.close();
  console.log("server exit: " + JSON.stringify(transport.exit));
}
main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
`;

/** Step 6: a project exactly as `npm init -y` leaves it, the tarball, `--emit js`, the CommonJS client above. */
function plainConsumer(tmp, tarball, log) {
  const dir = join(tmp, "plain");
  mkdirSync(dir);
  run("npm", ["init", "-y"], dir, log);
  const pkgText = readFileSync(join(dir, "package.json"), "utf8");
  run("npm", ["install", "--save-dev", tarball, ...NPM_FLAGS], dir, log);
  const bin = join(dir, "node_modules", ".bin", "mcp-stubgen");
  const pulled = run(bin, ["schema", "pull", "2025-11-25", "--from", "../shared/mcp-schema"], dir, log);
  const generated = run(bin, ["generate", "-r", "2025-11-25", "--emit", "js", "--out", "mcp"], dir, log);
  writeFileSync(join(dir, "client.js"), PLAIN_CLIENT);
  const client = run(process.execPath, ["client.js", root], dir, log);
  return {
    // as npm init -y wrote it, and after: only npm install's devDependencies may differ
    packageJsonBefore: JSON.parse(pkgText),
    packageJsonAfter: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")),
    pulled,
    generated,
    client,
  };
}

/**
 * Runs the check; returns what the consumer's build and start printed, and where. Removes its
 * temporary folder unless `keep`.
 */
export function runConsumerCheck({ schemas, log = () => {}, keep = false } = {}) {
  const { blocks } = readmeBlocks();
  const tmp = mkdtempSync(join(tmpdir(), "mcp-stubgen-consumer-"));
  try {
    // 1. the package as npm would publish it (dist/ as built: `prepare` is not run again, so
    //    tests running beside this one never see dist/ half rewritten)
    const packed = JSON.parse(run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", tmp, ...NPM_FLAGS], root, log));
    const tarball = join(tmp, packed[0].filename);
    const packedFiles = packed[0].files.map((f) => f.path).sort();

    // 2. a consumer project beside shared/mcp-schema
    mkdirSync(join(tmp, "shared"));
    symlinkSync(schemas, join(tmp, "shared", "mcp-schema"), "dir");
    const app = join(tmp, "app");
    mkdirSync(app);
    run("npm", ["init", "-y"], app, log);

    // 3. the tarball instead of the registry's mcp-stubgen
    const installed = run("npm", ["install", "--save-dev", tarball, "typescript", "@types/node", ...NPM_FLAGS], app, log, true);

    // 4. the README's files
    const pkgPath = join(app, "package.json");
    const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
    // The offline variant (no network here but the npm registry); it differs from the
    // README's first package.json block only by `--from`, which the test asserts.
    const additions = JSON.parse(block(blocks, "package.json offline"));
    writeFileSync(pkgPath, `${JSON.stringify({ ...pkg, ...additions, scripts: { ...pkg.scripts, ...additions.scripts } }, null, 2)}\n`);
    for (const name of ["mcp-stubgen.config.json", "tsconfig.json", "src/server.ts", "src/client.ts"]) {
      mkdirSync(dirname(join(app, name)), { recursive: true });
      writeFileSync(join(app, name), block(blocks, name));
    }

    // 5. build and run
    const build = run("npm", ["run", "build"], app, log);
    const start = run("npm", ["start", "--silent"], app, log);
    // a second build changes nothing in the generated folder and the cache (file watchers stay quiet)
    const watched = () => stamps(join(app, "src", "generated")) + stamps(join(app, "build"));
    const before = watched();
    run("npm", ["run", "build"], app, log);
    const rebuildTouchedNothing = watched() === before;
    const config = JSON.parse(block(blocks, "mcp-stubgen.config.json"));
    const installedDir = join(app, "node_modules", "mcp-stubgen");
    const manifest = JSON.parse(readFileSync(join(installedDir, "package.json"), "utf8"));
    return {
      installOutput: installed,
      installedScripts: Object.keys(manifest.scripts ?? {}).sort(),
      plain: plainConsumer(tmp, tarball, log),
      packedFiles,
      build,
      start,
      expectedStart: block(blocks, "output"),
      licenseInstalled: existsSync(join(installedDir, "LICENSE")),
      cacheInProject: existsSync(join(app, config.cache, "2025-11-25", "schema.json")),
      cacheInPackage: existsSync(join(installedDir, "schema", "2025-11-25")),
      compiled: ["client.js", "server.js"].filter((f) => existsSync(join(app, "dist", f))),
      rebuildTouchedNothing,
    };
  } finally {
    if (!keep) rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const shared = resolve(root, "..", "shared", "mcp-schema");
  const schemas = existsSync(shared) ? shared : join(root, "node_modules", ".cache", "mcp-stubgen-test", "schema");
  const result = runConsumerCheck({ schemas, log: (line) => console.error(line) });
  process.stdout.write(result.start);
  console.error(result.start === result.expectedStart ? "consumer check: ok" : "consumer check: npm start printed something else than the README shows");
  process.exitCode = result.start === result.expectedStart ? 0 : 1;
}
