// A tiny stdio "server" for the spawning transport's tests, its behaviour chosen by argv:
//   echo             answers each request line with a result { method, env, cwd } (default)
//   stay             keeps running after stdin ends (close() must signal it)
//   ignore-term      also ignores SIGTERM (close() must SIGKILL it)
//   exit=N           exits with code N after the first request
//   stderr=TEXT      writes TEXT to stderr (\n and \r escapes allowed) at start
//   long-stderr=N    writes N bytes of "x" then a newline to stderr at start
// It writes "ready" to stderr once its handlers are in place.
import { createInterface } from "node:readline";

const flags = new Map(process.argv.slice(2).map((a) => [a.split("=")[0], a.includes("=") ? a.slice(a.indexOf("=") + 1) : ""]));
if (flags.has("ignore-term")) process.on("SIGTERM", () => {});
if (flags.has("stay") || flags.has("ignore-term")) setInterval(() => {}, 1000);
if (flags.has("stderr")) process.stderr.write(flags.get("stderr").replaceAll("\\n", "\n").replaceAll("\\r", "\r"));
if (flags.has("long-stderr")) process.stderr.write(`${"x".repeat(Number(flags.get("long-stderr")))}\nafter\n`);

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const result = { method: message.method, env: process.env, cwd: process.cwd() };
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`);
  if (flags.has("exit")) process.exit(Number(flags.get("exit")));
});
process.stderr.write("ready\n");
