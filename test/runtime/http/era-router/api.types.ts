/**
 * Type-level guarantees of createEraRouter (checked by `tsc -p tsconfig.json`, not run): it takes
 * the handlers of any revision's index (each revision's copy of the runtime is structurally the
 * same), gives a web-standard handler node:http serves as it is, and a session handler must be
 * createSessionHttpHandler's (it answers hasSession), not a bare HttpHandler.
 */
import { createServer } from "node:http";
import * as R24 from "../../../generated/2024-11-05/index.js";
import * as R0618 from "../../../generated/2025-06-18/index.js";
import * as R25 from "../../../generated/2025-11-25/index.js";
import * as R26 from "../../../generated/2026-07-28/index.js";

const modern = R26.createHttpHandler(new R26.McpServer({}));
const sessions = R25.createSessionHttpHandler(new R25.McpServer({}));
const older = R0618.createSessionHttpHandler(new R0618.McpServer({}));
const legacy = R24.createLegacySseHandler(new R24.McpServer({}));

// From the 2026-07-28 index as well as from a session revision's: the same function.
const router: (request: Request) => Promise<Response> = R26.createEraRouter({ modern, sessions: { "2025-11-25": sessions, "2025-06-18": older }, legacySse: { handler: legacy } });
createServer(R25.toNodeListener(R25.createEraRouter({ sessions: { "2025-11-25": sessions } })));
void router;

// @ts-expect-error a session route must answer hasSession: the 2026-07-28 handler is no session handler
R25.createEraRouter({ sessions: { "2025-11-25": modern } });

// @ts-expect-error the legacy route is { handler, ssePath?, messagesPath? }, not a bare handler
R25.createEraRouter({ sessions: { "2025-11-25": sessions }, legacySse: legacy });

// @ts-expect-error maxBodyBytes is a number
R25.createEraRouter({ modern, maxBodyBytes: "4 MiB" });

// @ts-expect-error the 2024-11-05 index has no createSessionHttpHandler
void R24.createSessionHttpHandler;
