/**
 * Helpers of the HTTP client tests: a fetch that records every POST it makes (URL, headers, body
 * as parsed JSON) and a generated 2026-07-28 McpClient over the HTTP client transport.
 */
import * as R from "../../../generated/2026-07-28/index.js";

export interface Posted {
  readonly headers: Record<string, string>;
  readonly body: Record<string, unknown>;
}

/** The global fetch, recording each call's headers (lower-cased names) and JSON body. */
export function recordingFetch(): { fetch: R.FetchLike; posted: Posted[] } {
  const posted: Posted[] = [];
  const wrapped: R.FetchLike = (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    posted.push({ headers, body: JSON.parse(String(init.body)) as Record<string, unknown> });
    return fetch(input, init);
  };
  return { fetch: wrapped, posted };
}

export const CLIENT_INFO = { name: "http-client-test", version: "1.0.0" } as const;

export interface Connected {
  readonly client: R.McpClient;
  readonly transport: R.HttpClientTransport;
  readonly posted: Posted[];
  readonly events: R.CancellationEvent[];
  readonly errors: Error[];
}

/** A 2026-07-28 McpClient connected to `url` over HttpClientTransport with a recording fetch. */
export async function connectClient(
  url: string,
  options: R.McpClientOptions = {},
  transportOptions: Partial<R.HttpClientTransportOptions> = {},
): Promise<Connected> {
  const { fetch, posted } = recordingFetch();
  const events: R.CancellationEvent[] = [];
  const errors: Error[] = [];
  const transport = R.createHttpClientTransport({ url, fetch, ...transportOptions });
  const client = new R.McpClient({
    clientInfo: CLIENT_INFO,
    logger: null,
    onCancellation: (e) => events.push(e),
    onError: (e) => errors.push(e),
    ...options,
  });
  await client.connect(transport, { initialize: false });
  return { client, transport, posted, events, errors };
}
