// The seam between the conformance client (examples/everything-client.ts) and the scenarios of
// each era: a table from the suite's scenario name to a function that plays it against the
// suite's server.

/** Plays one scenario against the server at `url`; resolves when done, rejects on a failure. */
export type ScenarioRunner = (url: string, context: ScenarioContext) => Promise<void>;

/** What the suite passes beside the URL (MCP_CONFORMANCE_CONTEXT, when a scenario sets it). */
export type ScenarioContext = Readonly<Record<string, unknown>>;

/** Scenario name → runner, one table per era. */
export type ScenarioTable = Readonly<Record<string, ScenarioRunner>>;
