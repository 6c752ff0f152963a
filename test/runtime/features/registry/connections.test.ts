/**
 * One 2025-11-25 McpServer serving several in-memory connections (connect() and openConnection):
 * a registration's list_changed reaches every one of them, a closed one leaves the set and hears
 * nothing more, and resources/updated goes to the connections subscribed to its URI only (issue
 * 44 item 4: subscriptions are kept per connection, per session on the session server).
 */
import { describe, expect, it } from "vitest";
import * as R from "../../../generated/2025-11-25/index.js";
import { connectPair, settle, TapTransport } from "../../../helpers/harness.js";
import { INITIALIZE_PARAMS } from "../../../helpers/fixtures.js";

/** A second client on `server`, over a connection of its own (openConnection). */
async function secondClient(server: R.McpServer): Promise<{ client: R.McpClient; wire: TapTransport; connection: R.Connection }> {
  const [a, b] = R.createInMemoryTransportPair();
  const wire = new TapTransport(b);
  const connection = server.openConnection(wire);
  const client = new R.McpClient({ logger: null });
  await client.connect(a, { initialize: false });
  await client.initialize(INITIALIZE_PARAMS);
  return { client, wire, connection };
}

const methodsOf = (wire: TapTransport): string[] => wire.sent.flatMap((m) => ("method" in m ? [m.method] : []));

describe("registrations announce to every connection of the server", () => {
  it("list_changed goes to connect()'s connection and every open one; a closed one leaves the set and hears nothing", async () => {
    const { client, server, serverWire } = await connectPair();
    await client.initialize(INITIALIZE_PARAMS);
    const second = await secondClient(server);
    const third = await secondClient(server);
    expect(server.openConnections).toBe(2);

    server.registerTool("one", {}, () => ({ content: [] }));
    await settle();
    for (const wire of [serverWire, second.wire, third.wire]) expect(methodsOf(wire)).toEqual(["notifications/tools/list_changed"]);

    await third.connection.close();
    expect(server.openConnections).toBe(1);
    server.registerPrompt("p", {}, () => ({ messages: [] }));
    await settle();
    expect(methodsOf(serverWire)).toEqual(["notifications/tools/list_changed", "notifications/prompts/list_changed"]);
    expect(methodsOf(second.wire)).toEqual(["notifications/tools/list_changed", "notifications/prompts/list_changed"]);
    expect(methodsOf(third.wire)).toEqual(["notifications/tools/list_changed"]);
  });

  it("a connection whose transport throws on send costs the others nothing, and the registration nothing", async () => {
    const { client, server, serverWire } = await connectPair();
    await client.initialize(INITIALIZE_PARAMS);
    const broken: R.Transport = {
      start: () => Promise.resolve(),
      send: () => {
        throw new Error("broken pipe");
      },
      close: () => Promise.resolve(),
    };
    server.openConnection(broken);
    const second = await secondClient(server);
    expect(server.openConnections).toBe(2);
    expect(() => server.registerTool("one", {}, () => ({ content: [] }))).not.toThrow();
    await settle();
    expect(methodsOf(serverWire)).toEqual(["notifications/tools/list_changed"]);
    expect(methodsOf(second.wire)).toEqual(["notifications/tools/list_changed"]);
  });

  it("resources/updated is not broadcast: it keeps to connect()'s connection, where the subscription was made", async () => {
    const { client, server, serverWire } = await connectPair();
    server.registerResource("r", "x://r", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    await client.initialize(INITIALIZE_PARAMS);
    const second = await secondClient(server);
    await client.subscribe({ uri: "x://r" });
    server.resourceUpdated("x://r");
    await settle();
    expect(methodsOf(serverWire)).toContain("notifications/resources/updated");
    expect(methodsOf(second.wire)).not.toContain("notifications/resources/updated");
  });

  it("subscriptions are per connection: an update reaches the connections subscribed to its URI and no other; unsubscribe stops it", async () => {
    const { client, server, serverWire } = await connectPair();
    server.registerResource("r", "x://r", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    server.registerResource("s", "x://s", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    await client.initialize(INITIALIZE_PARAMS);
    const second = await secondClient(server);
    const third = await secondClient(server);
    await second.client.subscribe({ uri: "x://r" });
    await third.client.subscribe({ uri: "x://s" });
    const updates = (wire: TapTransport): unknown[] => wire.sent.flatMap((m) => ("method" in m && m.method === "notifications/resources/updated" ? [m.params] : []));
    server.resourceUpdated("x://r");
    await settle();
    expect([updates(serverWire), updates(second.wire), updates(third.wire)]).toEqual([[], [{ uri: "x://r" }], []]);
    server.resourceUpdated("x://s");
    await settle();
    expect([updates(serverWire), updates(second.wire), updates(third.wire)]).toEqual([[], [{ uri: "x://r" }], [{ uri: "x://s" }]]);
    await second.client.unsubscribe({ uri: "x://r" });
    server.resourceUpdated("x://r");
    await settle();
    expect(updates(second.wire)).toEqual([{ uri: "x://r" }]);
  });

  it("a connection's subscriptions are bounded (1024 URIs): one more is -32602, other connections unaffected", async () => {
    const { client, server } = await connectPair();
    server.registerResource("r", "x://r", {}, (uri) => ({ contents: [{ uri, text: "" }] }));
    await client.initialize(INITIALIZE_PARAMS);
    const second = await secondClient(server);
    for (let i = 0; i < 1024; i++) await client.subscribe({ uri: `x://r/${i}` });
    await expect(client.subscribe({ uri: "x://r/more" })).rejects.toMatchObject({ code: -32602 });
    await expect(second.client.subscribe({ uri: "x://r/more" })).resolves.toEqual({});
  });
});
