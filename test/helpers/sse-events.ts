/**
 * A test-side reader of SSE bodies, independent of the runtime's parser (http/sse.ts) so that
 * the wire is checked by other code than the code under test.
 */

/** One SSE event as sent: its id, retry and data fields (data lines joined by "\n"). */
export interface SseEvent {
  readonly id: string | undefined;
  readonly retry: string | undefined;
  readonly data: string;
}

/** The events of an SSE body as they arrive (comment lines skipped); ends with the body, or when it breaks. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for await (const chunk of body) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let id: string | undefined;
        let retry: string | undefined;
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith("id:")) id = line.slice(3).trim();
          else if (line.startsWith("retry:")) retry = line.slice(6).trim();
          else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        }
        if (id !== undefined || retry !== undefined || data.length > 0) yield { id, retry, data: data.join("\n") };
      }
    }
  } catch {
    // The stream broke (a server went away, or the test stopped): it simply ends.
  }
}
