export interface Listed {
  readonly kind: "server" | "client" | "authorization";
  readonly name: string;
  readonly versions: readonly string[];
}
export declare const EXCLUDED_KINDS: Readonly<Record<string, string>>;
export declare const REFEREE_SKIPS: ReadonlyArray<{ readonly referee: string; readonly scenario: string; readonly check: string; readonly name?: string; readonly status?: string; readonly reason: string }>;
export declare function parseList(text: string): Listed[];
export declare function referees(): Array<{ readonly version: string; readonly entry: string }>;
export declare function plan(referee: { readonly version: string; readonly entry: string }): Promise<{
  readonly jobs: ReadonlyArray<{ readonly kind: "server" | "client"; readonly title: string; readonly args: readonly string[]; readonly folder: string; readonly version?: string; readonly expect: ReadonlyMap<string, string> }>;
  readonly excluded: readonly Listed[];
  readonly counts: { readonly server: number; readonly client: number };
}>;
