export interface Check {
  readonly id: string;
  readonly name?: string;
  readonly status: string;
  readonly errorMessage?: string;
}
export interface ScenarioVerdict {
  readonly name: string;
  readonly ok: boolean;
  readonly pending: boolean;
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  readonly refereeSkipped: readonly string[];
  readonly excusedFailures: number;
  readonly warnings: readonly string[];
  readonly problems: readonly string[];
}
export declare function readChecks(folder: string): Map<string, Check[]>;
export declare function judgeScenario(referee: string, name: string, checks: readonly Check[] | undefined, pending: ReadonlySet<string>): ScenarioVerdict;
export declare function judgeJob(
  referee: string,
  job: { readonly expect: ReadonlyMap<string, string> },
  folder: string,
  code: number,
  pending: ReadonlySet<string>,
): { readonly scenarios: readonly ScenarioVerdict[]; readonly ok: boolean; readonly code: number };
