/**
 * An in-memory event store for the SDK's Streamable HTTP transport: with one, every SSE event
 * gets an id, each POST stream opens with a priming event (an id and empty data), and a client
 * whose stream was closed resumes it with GET + Last-Event-ID (Transports, Resumability and
 * Redelivery; SEP-1699 polling). One store per session, bounded: the oldest events go first.
 */
import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export class InMemoryEventStore implements EventStore {
  readonly #capacity: number;
  /** In insertion order, which is the order of the events on every stream. */
  readonly #events = new Map<EventId, { readonly streamId: StreamId; readonly message: JSONRPCMessage }>();
  #counter = 0;

  constructor(capacity = 1000) {
    this.#capacity = capacity;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const eventId = String(++this.#counter);
    this.#events.set(eventId, { streamId, message });
    if (this.#events.size > this.#capacity) {
      const oldest = this.#events.keys().next();
      if (oldest.done !== true) this.#events.delete(oldest.value);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  /** Sends the events of the stream `lastEventId` belongs to that came after it. */
  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    if (last === undefined) throw new Error(`unknown event id ${lastEventId}`);
    let after = false;
    for (const [eventId, event] of this.#events) {
      if (after && event.streamId === last.streamId && isJsonRpc(event.message)) await send(eventId, event.message);
      if (eventId === lastEventId) after = true;
    }
    return last.streamId;
  }
}

/** Priming events are stored as `{}`: they only carry an id, so they are not replayed. */
const isJsonRpc = (message: JSONRPCMessage): boolean => "jsonrpc" in message;
