export interface ReadmeBlock {
  readonly lang: string;
  readonly name: string | null;
  readonly text: string;
}
export declare function readmeBlocks(readme?: string): { section: string; blocks: ReadmeBlock[] };
export declare const README_COMMANDS: readonly string[];
export interface PlainConsumerResult {
  readonly packageJsonBefore: Record<string, unknown>;
  readonly packageJsonAfter: Record<string, unknown>;
  readonly pulled: string;
  readonly generated: string;
  readonly client: string;
}
export interface ConsumerCheckResult {
  readonly installOutput: string;
  readonly installedScripts: string[];
  readonly plain: PlainConsumerResult;
  readonly packedFiles: string[];
  readonly build: string;
  readonly start: string;
  readonly expectedStart: string;
  readonly licenseInstalled: boolean;
  readonly cacheInProject: boolean;
  readonly cacheInPackage: boolean;
  readonly compiled: string[];
  readonly rebuildTouchedNothing: boolean;
}
export declare function runConsumerCheck(options: {
  readonly schemas: string;
  readonly log?: (line: string) => void;
  readonly keep?: boolean;
}): ConsumerCheckResult;
