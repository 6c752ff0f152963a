/**
 * Type-level guarantees of createEraRouter (checked by `tsc -p tsconfig.json`, not run): it takes
 * the handlers of any revision's index (each revision's copy of the runtime is structurally the
 * same), gives a runtime handler (a web-standard function with `serveCall`) node:http serves as
 * it is, every route is a runtime handler (a session handler must be createSessionHttpHandler's,
 * the legacy route createLegacySseHandler's itself), and the router has no body bound of its own.
 */
import { createServer } from "node:http";
import * as R24 from "../../../../generated/2024-11-05/index.js";
import * as R0618 from "../../../../generated/2025-06-18/index.js";
import * as R25 from "../../../../generated/2025-11-25/index.js";
import * as R26 from "../../../../generated/2026-07-28/index.js";

const modern = R26.createHttpHandler(new R26.McpServer({}));
const sessions = R25.createSessionHttpHandler(new R25.McpServer({}));
const older = R0618.createSessionHttpHandler(new R0618.McpServer({}));
const legacy = R24.createLegacySseHandler(new R24.McpServer({}));

// From the 2026-07-28 index as well as from a session revision's: the same function.
const router: (request: Request) => Promise<Response> = R26.createEraRouter({ modern, sessions: { "2025-11-25": sessions, "2025-06-18": older }, legacySse: legacy });
const served: R25.ServedHandler = R25.createEraRouter({ sessions: { "2025-11-25": sessions } });
createServer(R25.toNodeListener(served));
void router;

// @ts-expect-error a session route must answer hasSession: the 2026-07-28 handler is no session handler
R25.createEraRouter({ sessions: { "2025-11-25": modern } });

// @ts-expect-error the legacy route is createLegacySseHandler's handler itself, no longer { handler, ssePath?, messagesPath? }
R25.createEraRouter({ sessions: { "2025-11-25": sessions }, legacySse: { handler: legacy } });

// @ts-expect-error a route is a runtime handler (serveCall, httpPipeline), not a bare web function
R25.createEraRouter({ modern: Object.assign(async (_request: Request) => new Response(), { httpBinding: modern.httpBinding, path: undefined }) });

// @ts-expect-error the router has no maxBodyBytes: it reads a body within the bounds of the handlers that admitted it
R25.createEraRouter({ modern, maxBodyBytes: 4096 });

// @ts-expect-error the 2024-11-05 index has no createSessionHttpHandler
void R24.createSessionHttpHandler;
