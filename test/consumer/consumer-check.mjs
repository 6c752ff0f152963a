// The consumer-project check: does what README.md's "Use it in your project" section tells a
// new user to do, with the package packed as npm would publish it, in a fresh folder.
//
//   1. npm pack this package into a temporary folder (which runs `prepare`, i.e. the build);
//   2. npm init -y a consumer project beside a `shared/mcp-schema` folder (the published
//      schemas, so the README's `--from ../shared/mcp-schema` is used as written);
//   3. npm install --save-dev the tarball and typescript;
//   4. write package.json's additions, mcp-stubgen.config.json, tsconfig.json, src/server.ts and
//      src/client.ts exactly as the README shows them (taken from its code blocks);
//   5. npm run build (prebuild: schema pull + generate; then tsc) and npm start; then
//      npm run build again, which must leave the generated files and the cache untouched.
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
  "npm install --save-dev mcp-stubgen typescript",
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

function run(cmd, args, cwd, log) {
  log(`$ ${[cmd, ...args].join(" ")}    (in ${cwd})`);
  try {
    return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
  } catch (err) {
    throw new Error(`${cmd} ${args.join(" ")} failed (exit ${err.status}):\n${err.stdout ?? ""}\n${err.stderr ?? ""}`);
  }
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
    run("npm", ["install", "--save-dev", tarball, "typescript", ...NPM_FLAGS], app, log);

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
    const installed = join(app, "node_modules", "mcp-stubgen");
    return {
      packedFiles,
      build,
      start,
      expectedStart: block(blocks, "output"),
      licenseInstalled: existsSync(join(installed, "LICENSE")),
      cacheInProject: existsSync(join(app, config.cache, "2025-11-25", "schema.json")),
      cacheInPackage: existsSync(join(installed, "schema", "2025-11-25")),
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
