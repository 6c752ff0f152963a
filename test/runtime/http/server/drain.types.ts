/**
 * Type-level guarantees of the graceful drain (checked by `tsc -p tsconfig.json`, not run): the
 * stateless handler, the session handler and the every-era handler each have close({ drainMs })
 * and `draining`; drainMs is a number of milliseconds, and `draining` is read-only.
 */
import * as R25 from "../../../generated/2025-11-25/index.js";
import * as R26 from "../../../generated/2026-07-28/index.js";

const modern = R26.createHttpHandler(new R26.McpServer({}));
const sessions = R25.createSessionHttpHandler(new R25.McpServer({}));

const closed: Promise<void>[] = [modern.close({ drainMs: 10_000 }), sessions.close({ drainMs: 0 }), sessions.close(), modern.close({})];
const draining: boolean = modern.draining && sessions.draining;
void closed;
void draining;

// @ts-expect-error drainMs is a number of milliseconds, not a string
void modern.close({ drainMs: "10s" });

// @ts-expect-error close takes its options as an object, not a bare number
void sessions.close(5000);

// @ts-expect-error whether it drains is the handler's to say
sessions.draining = true;

// @ts-expect-error close({ drainMs }) names no other option
void modern.close({ drainMs: 1, force: true });
