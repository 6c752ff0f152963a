// The conformance client scenarios of the session revisions (2025-11-25), on the generated
// 2025-11-25 McpClient over the Streamable HTTP session transport.
import type { ScenarioTable } from "./scenario.js";

export const SCENARIOS: ScenarioTable = {};
