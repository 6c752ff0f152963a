// The machine and runtime the numbers come from.
import { readFileSync } from "node:fs";
import { arch, cpus, platform, release, totalmem } from "node:os";

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  /** The installed SDK 1.x and 2.x versions. */
  readonly sdk1: string;
  readonly sdk2: string;
  readonly date: string;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? "unknown",
    cores: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: `${platform()} ${release()} ${arch()}`,
    node: process.version,
    sdk1: packageVersion("@modelcontextprotocol/sdk"),
    sdk2: packageVersion("@modelcontextprotocol/server"),
    date: new Date().toISOString().slice(0, 10),
  };
}

/** The installed version of a package (its package.json is not always an export). */
export function packageVersion(name: string): string {
  const url = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
  const pkg: unknown = JSON.parse(readFileSync(url, "utf8"));
  const version = typeof pkg === "object" && pkg !== null && "version" in pkg ? pkg.version : undefined;
  return typeof version === "string" ? version : "unknown";
}

export function describeMachine(m: MachineInfo): string {
  return [
    `CPU:  ${m.cpu} (${m.cores} cores), ${m.memoryGb} GB RAM, ${m.os}`,
    `Node: ${m.node}; @modelcontextprotocol/sdk ${m.sdk1}; @modelcontextprotocol/server and /client ${m.sdk2}`,
    `Date: ${m.date}`,
  ].join("\n");
}
