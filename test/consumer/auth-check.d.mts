export declare const DEMO: string;
export declare const EXPECTED: string;
export interface AuthConsumerCheckResult {
  /** package.json as `npm init -y` wrote it. */
  readonly initial: Record<string, unknown>;
  /** package.json after `npm install --save-dev` (npm's own additions only). */
  readonly installed: Record<string, unknown>;
  readonly generated: string;
  readonly output: string;
  readonly emittedJs: boolean;
}
export declare function runAuthConsumerCheck(options: {
  readonly schemas: string;
  readonly log?: (line: string) => void;
  readonly keep?: boolean;
}): AuthConsumerCheckResult;
