// The machine and runtime the numbers come from.
import { readFileSync } from "node:fs";
import { arch, cpus, platform, release, totalmem } from "node:os";

export interface MachineInfo {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  readonly sdk: string;
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
    sdk: sdkVersion(),
    date: new Date().toISOString().slice(0, 10),
  };
}

/** The installed @modelcontextprotocol/sdk version (its package.json is not an export). */
export function sdkVersion(): string {
  const url = new URL("../../node_modules/@modelcontextprotocol/sdk/package.json", import.meta.url);
  const pkg: unknown = JSON.parse(readFileSync(url, "utf8"));
  const version = typeof pkg === "object" && pkg !== null && "version" in pkg ? pkg.version : undefined;
  return typeof version === "string" ? version : "unknown";
}

export function describeMachine(m: MachineInfo): string {
  return [
    `CPU:  ${m.cpu} (${m.cores} cores), ${m.memoryGb} GB RAM, ${m.os}`,
    `Node: ${m.node}; @modelcontextprotocol/sdk ${m.sdk}`,
    `Date: ${m.date}`,
  ].join("\n");
}
