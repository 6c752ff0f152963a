/**
 * The transport of one POSTed request (createHttpHandler's exchange, stateless/exchange.ts),
 * driven through a server of our own (any HttpServable), on both faces of the handler (the web
 * face in process, the native one over a loopback socket): what goes on the wire when the server
 * sends a response for another id, a notification related to no request, a notification after
 * the response, or closes; a request whose client was gone before it was handled, and one whose
 * client goes while it waits. Exact status, headers and bodies.
 */
import { describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { deferred, settle } from "../../../helpers/async.js";
import { FakeRequest, FakeResponse } from "../server/node-http/stand-ins.js";
import { answer, describeFaces, headersFor, listenerFor, META } from "./support.js";

interface Opened {
  readonly transport: R.Transport;
  /** How many times the connection's close() was called. */
  closes: number;
}

/** An HttpServable whose connections are recorded, not served: the test speaks for the server. */
function scripted(onMessage: (opened: Opened, message: R.JsonRpcMessage) => void) {
  const binding = new R.McpServer({ logger: null }).httpBinding;
  const opened: Opened[] = [];
  return {
    opened,
    servable: {
      httpBinding: binding,
      openConnection(transport: R.Transport): R.Connection {
        const entry: Opened = { transport, closes: 0 };
        opened.push(entry);
        transport.onmessage = (message) => onMessage(entry, message);
        return {
          close: () => {
            entry.closes++;
            return Promise.resolve();
          },
          receive: (message) => (onMessage(entry, message), undefined),
          inFlight: { sent: 0, received: 0 },
        };
      },
    },
  };
}

// prompts/list: no Mcp-Name and no Mcp-Param-* (a tools/call would first ask the server for its tools/list).
const body = (id: number | string) => JSON.stringify({ jsonrpc: "2.0", id, method: "prompts/list", params: { _meta: META } });
const requestOf = (id: number | string, signal?: AbortSignal) =>
  new Request("http://127.0.0.1/mcp", { method: "POST", headers: headersFor("prompts/list"), body: body(id), ...(signal === undefined ? {} : { signal }) });
const result = (id: number | string, text: string): R.JsonRpcMessage => ({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text }] } }) as R.JsonRpcMessage;
const progress = (n: number): R.JsonRpcMessage => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: n } });

/** Reads an SSE body to its end, with a bound: a stream that never ends fails the test. */
async function readAll(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the stream did not end; so far: ${JSON.stringify(text)}`)), 5000).unref());
  for (;;) {
    const next = await Promise.race([reader.read(), deadline]);
    if (next.done) return text;
    text += decoder.decode(next.value, { stream: true });
  }
}

describeFaces("createHttpHandler", (face) => {
  /** The request answered by `handler` on this face. */
  const ask = (handler: R.HttpHandler, request: Request) => answer(face, handler, request);

  describe("the exchange of one POSTed request", () => {
    it("a client gone before its request is handled (right after its body arrived): the request never reaches the server, nothing is written", async () => {
      const { servable, opened } = scripted(() => undefined);
      const text = body(1);
      const request = new FakeRequest({ method: "POST", headers: { host: "127.0.0.1:3000", ...headersFor("prompts/list"), "content-length": String(Buffer.byteLength(text)) } });
      const response = new FakeResponse();
      listenerFor(face, R.createHttpHandler(servable))(request as never, response as never);
      request.send(text);
      response.disconnect();
      await settle();
      expect(response.calls).toEqual([]);
      expect(opened).toEqual([]);
    });

    it("a response for another id is not this request's: the request's own response is the one sent", async () => {
      const { servable, opened } = scripted(({ transport }, message) => {
        const id = (message as { id: R.RequestId }).id;
        void transport.send(result(99, "not yours"));
        void transport.send(result(String(id), "a string of the same digits"));
        void transport.send(result(id, "yours"));
      });
      const response = await ask(R.createHttpHandler(servable), requestOf(1));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.json()).toEqual(result(1, "yours"));
      expect(opened).toHaveLength(1);
    });

    it("on a stream, a response for another id is not written either", async () => {
      const { servable } = scripted(({ transport }, message) => {
        const id = (message as { id: R.RequestId }).id;
        void transport.send(progress(1), { relatedRequestId: id });
        void transport.send(result(2, "not yours"));
        void transport.send(result(id, "yours"));
      });
      const response = await ask(R.createHttpHandler(servable), requestOf(1));
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      expect(await readAll(response)).toBe(`data: ${JSON.stringify(progress(1))}\n\ndata: ${JSON.stringify(result(1, "yours"))}\n\n`);
    });

    it("a notification related to no request, or to another, does not open a stream: the response stays JSON", async () => {
      const { servable } = scripted(({ transport }, message) => {
        const id = (message as { id: R.RequestId }).id;
        void transport.send(progress(1));
        void transport.send(progress(2), { relatedRequestId: 42 });
        void transport.send(result(id, "plain"));
      });
      const response = await ask(R.createHttpHandler(servable), requestOf(1));
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.json()).toEqual(result(1, "plain"));
    });

    it("nothing is written after the response: a later notification or response is dropped, and the connection closes once", async () => {
      const { servable, opened } = scripted(({ transport }, message) => {
        const id = (message as { id: R.RequestId }).id;
        void transport.send(progress(1), { relatedRequestId: id });
        void transport.send(result(id, "first"));
        void transport.send(progress(2), { relatedRequestId: id });
        void transport.send(result(id, "second"));
        void transport.close();
      });
      const response = await ask(R.createHttpHandler(servable), requestOf(1));
      expect(await readAll(response)).toBe(`data: ${JSON.stringify(progress(1))}\n\ndata: ${JSON.stringify(result(1, "first"))}\n\n`);
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(opened[0]!.closes).toBe(1);
    });

    it("a JSON response closes the request's connection, and a later send writes nothing", async () => {
      let later: Promise<void> | undefined;
      const { servable, opened } = scripted(({ transport }, message) => {
        const id = (message as { id: R.RequestId }).id;
        void transport.send(result(id, "only"));
        later = transport.send(progress(3), { relatedRequestId: id });
      });
      const response = await ask(R.createHttpHandler(servable), requestOf(7));
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.json()).toEqual(result(7, "only"));
      await later;
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(opened[0]!.closes).toBe(1);
    });

    it("the server closing the connection before answering: 503 with an InternalError for the request's id", async () => {
      const { servable } = scripted(({ transport }) => void transport.close());
      const response = await ask(R.createHttpHandler(servable), requestOf("c-1"));
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(await response.json()).toEqual({ jsonrpc: "2.0", id: "c-1", error: { code: -32603, message: "the server closed the connection before answering" } });
    });

    it("the server closing while the response streams: the stream ends after what was sent, with no response", async () => {
      const { servable } = scripted(({ transport }, message) => {
        const id = (message as { id: R.RequestId }).id;
        void transport.send(progress(1), { relatedRequestId: id });
        void transport.close();
        void transport.send(result(id, "too late"));
      });
      const response = await ask(R.createHttpHandler(servable), requestOf(1));
      expect(response.status).toBe(200);
      expect(await readAll(response)).toBe(`data: ${JSON.stringify(progress(1))}\n\n`);
    });

    it("the client going while the response is pending: the server hears the stream close once (the web face settles with 499)", async () => {
      const ac = new AbortController();
      const closed: R.RequestId[] = [];
      const heard = deferred<void>();
      const { servable, opened } = scripted(({ transport }) => {
        transport.onrequeststreamclose = (id) => (closed.push(id), heard.resolve());
        ac.abort();
        ac.abort();
      });
      const response = ask(R.createHttpHandler(servable), requestOf(5, ac.signal)).then(
        (r) => r.status,
        (e: unknown) => (e as Error).name,
      );
      await heard.promise;
      // In process the handler still answers (nobody reads it); over a socket the client's fetch was aborted.
      expect(await response).toBe(face === "web" ? 499 : "AbortError");
      await settle();
      expect(closed).toEqual([5]);
      expect(opened[0]!.closes).toBe(1);
    });

    it("the client aborting after the JSON response: the server hears nothing", async () => {
      const ac = new AbortController();
      const closed: R.RequestId[] = [];
      const { servable, opened } = scripted(({ transport }, message) => {
        transport.onrequeststreamclose = (id) => closed.push(id);
        void transport.send(result((message as { id: R.RequestId }).id, "done"));
      });
      const response = await ask(R.createHttpHandler(servable), requestOf(6, ac.signal));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(result(6, "done"));
      ac.abort();
      await settle();
      expect(closed).toEqual([]);
      expect(opened[0]!.closes).toBe(1);
    });

    it("keepAliveMs 0: an open stream carries no comment lines", async () => {
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
      try {
        let transport: R.Transport | undefined;
        const { servable } = scripted((o, message) => {
          transport = o.transport;
          void o.transport.send(progress(1), { relatedRequestId: (message as { id: R.RequestId }).id });
        });
        const response = await ask(R.createHttpHandler(servable, { keepAliveMs: 0 }), requestOf(1));
        expect(vi.getTimerCount()).toBe(0);
        vi.advanceTimersByTime(60_000);
        void transport!.send(result(1, "end"));
        expect(await readAll(response)).toBe(`data: ${JSON.stringify(progress(1))}\n\ndata: ${JSON.stringify(result(1, "end"))}\n\n`);
      } finally {
        vi.useRealTimers();
      }
    });

    it("by default an open stream carries a comment line every 15 s while its reader keeps up, and none after its end", async () => {
      vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
      // The reader takes what is written before each tick: a comment goes only on a stream with
      // nothing unread (issue 28: a stream waits for its reader, comments included).
      const caughtUp = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
      try {
        let transport: R.Transport | undefined;
        const { servable } = scripted((o, message) => {
          transport = o.transport;
          void o.transport.send(progress(1), { relatedRequestId: (message as { id: R.RequestId }).id });
        });
        const response = await ask(R.createHttpHandler(servable), requestOf(1));
        const all = readAll(response);
        await caughtUp();
        vi.advanceTimersByTime(14_999);
        void transport!.send(progress(2), { relatedRequestId: 1 });
        await caughtUp();
        vi.advanceTimersByTime(1);
        await caughtUp();
        vi.advanceTimersByTime(15_000);
        await caughtUp();
        void transport!.send(result(1, "end"));
        expect(vi.getTimerCount()).toBe(0);
        vi.advanceTimersByTime(15_000);
        expect(await all).toBe(
          `data: ${JSON.stringify(progress(1))}\n\ndata: ${JSON.stringify(progress(2))}\n\n:\n\n:\n\ndata: ${JSON.stringify(result(1, "end"))}\n\n`,
        );
      } finally {
        vi.useRealTimers();
      }
    });
  });
});

describe("the web face called in process", () => {
  it("a Request whose signal has aborted already is answered 499, and the request is never handed to the server", async () => {
    const { servable, opened } = scripted(() => undefined);
    const response = await answer("web", R.createHttpHandler(servable), requestOf(1, AbortSignal.abort()));
    expect(response.status).toBe(499);
    expect(await response.text()).toBe("");
    expect(opened).toEqual([]);
  });
});
