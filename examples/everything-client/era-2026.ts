// The conformance client scenarios of the stateless revision (2026-07-28), on the generated
// 2026-07-28 McpClient over the Streamable HTTP client transport.
import type { ScenarioTable } from "./scenario.js";

export const SCENARIOS: ScenarioTable = {};
