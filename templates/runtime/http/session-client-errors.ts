// The errors of the session client (http-session-client.ts) that name a session or a stream of it.

import { describeValue, type RequestId } from "../core/protocol.js";

/**
 * The server answered 404 to a request that carried the session id: the session is over
 * ("When a client receives HTTP 404 in response to a request containing an Mcp-Session-Id, it
 * MUST start a new session by sending a new InitializeRequest without a session ID attached",
 * Session Management 4). Every pending request rejects with it; a new transport starts anew.
 */
export class SessionExpiredError extends Error {
  override name = "SessionExpiredError";
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(`the server ended MCP session ${describeValue(sessionId)} (HTTP 404): initialize a new session`);
    this.sessionId = sessionId;
  }
}

/** A request's stream broke and could not be resumed within the attempts allowed. */
export class StreamResumptionError extends Error {
  override name = "StreamResumptionError";
  readonly method: string;
  readonly requestId: RequestId;
  readonly attempts: number;
  constructor(method: string, requestId: RequestId, attempts: number, problem: string) {
    super(`the response stream of ${method} (id ${String(requestId)}) could not be resumed after ${attempts} attempt(s): ${problem}`);
    this.method = method;
    this.requestId = requestId;
    this.attempts = attempts;
  }
}
