/**
 * templates/runtime/http/server/web-face.ts: the web-standard face. withFaces makes a core (a
 * CallHandler) a function `(request, info?) => Promise<Response>` that keeps `serveCall` and the
 * extras; the core sees the Request as an HttpCall (call.ts): its head, path, query, local
 * address, body read within a bound (a declared length over it never read), and what it answers
 * becomes the Response: whole (respond, respondWith), or streamed through a ReadableStream whose
 * queue counts bytes (`buffered`, the drain, end, the overflow's error). The client going away
 * (the request's signal, the reader's cancel) runs `onclose` once while the response is not
 * complete. A core that fails before answering is a 500, never a rejection.
 */
import { describe, expect, it } from "vitest";
import { BROKEN, TOO_LARGE, type HttpCall, type ResponseBody } from "../../../../templates/runtime/http/server/call.js";
import { STREAM_OVERFLOW, withFaces } from "../../../../templates/runtime/http/server/web-face.js";

const INTERNAL = { jsonrpc: "2.0", error: { code: -32603, message: "Internal error" } };

/** A web face over a core that runs `serve` with the call (and keeps it for the test). */
function face(serve: (call: HttpCall) => void | Promise<void>) {
  const calls: HttpCall[] = [];
  const handler = withFaces(
    {
      serveCall: async (call) => {
        calls.push(call);
        await serve(call);
      },
    },
    { extra: "kept" },
  );
  return { handler, calls };
}

const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

describe("withFaces", () => {
  it("the function is the web face; serveCall and the extras are kept", async () => {
    const seen: HttpCall[] = [];
    const core = { serveCall: async (call: HttpCall) => void (seen.push(call), call.respond(204, {})) };
    const handler = withFaces(core, { path: "/mcp", extra: 1 });
    expect(typeof handler).toBe("function");
    expect([handler.path, handler.extra]).toEqual(["/mcp", 1]);
    const fake = { respond: () => undefined } as unknown as HttpCall;
    await handler.serveCall(fake);
    expect(seen).toEqual([fake]);
    expect((await handler(new Request("http://127.0.0.1/mcp"))).status).toBe(204);
  });

  it("a core that throws or rejects before answering: 500 Internal error, not a rejection", async () => {
    const { handler } = face(() => {
      throw new Error("broke");
    });
    const response = await handler(new Request("http://127.0.0.1/mcp"));
    expect([response.status, response.headers.get("content-type"), await response.json()]).toEqual([500, "application/json", INTERNAL]);
  });

  it("a core that fails after answering: the answer stands", async () => {
    const { handler } = face((call) => {
      call.respond(202, {});
      throw new Error("late");
    });
    expect((await handler(new Request("http://127.0.0.1/mcp"))).status).toBe(202);
  });
});

describe("the request as an HttpCall", () => {
  it("method, url, path, query (the first of a name), headers by any case, localAddress from info, hasBody", async () => {
    const { handler, calls } = face((call) => call.respond(200, {}));
    await handler(new Request("http://example.test:8080/a/b%20c?x=1&x=2&y=", { method: "POST", headers: { "X-Thing": "v", "content-type": "application/json" }, body: "{}" }), { localAddress: "127.0.0.1" });
    await handler(new Request("http://example.test/mcp"));
    const [post, get] = calls as [HttpCall, HttpCall];
    expect([post.method, post.url, post.path, post.query("x"), post.query("y"), post.query("z")]).toEqual(["POST", "http://example.test:8080/a/b%20c?x=1&x=2&y=", "/a/b%20c", "1", "", null]);
    expect([post.headers.get("x-thing"), post.headers.get("X-THING"), post.headers.has("content-type"), post.headers.has("nope")]).toEqual(["v", "v", true, false]);
    expect([post.localAddress, post.hasBody, get.localAddress, get.hasBody]).toEqual(["127.0.0.1", true, undefined, false]);
  });

  it("peer: the client's address and port from info (Deno's remoteAddr, Bun's requestIP); none without them", async () => {
    const { handler, calls } = face((call) => call.respond(200, {}));
    await handler(new Request("http://example.test/mcp"), { remoteAddress: "203.0.113.7", remotePort: 52311 });
    await handler(new Request("http://example.test/mcp"), { remoteAddress: "2001:db8::1", remotePort: 443 });
    await handler(new Request("http://example.test/mcp"), { localAddress: "127.0.0.1" });
    await handler(new Request("http://example.test/mcp"));
    expect((calls as HttpCall[]).map((call) => call.peer)).toEqual(["203.0.113.7:52311", "[2001:db8::1]:443", undefined, undefined]);
  });

  it("readBody: the bytes within the bound; past it TOO_LARGE; a declared length past it is not read at all; none: empty; a failing stream: BROKEN", async () => {
    const reads: unknown[] = [];
    const { handler } = face(async (call) => {
      reads.push(await call.readBody(8));
      call.respond(200, {});
    });
    await handler(new Request("http://127.0.0.1/mcp", { method: "POST", body: "12345678" }));
    await handler(new Request("http://127.0.0.1/mcp", { method: "POST", body: "123456789" }));
    // A streamed body (no declared length) past the bound.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("12345"));
        controller.enqueue(new TextEncoder().encode("6789"));
        controller.close();
      },
    });
    await handler(new Request("http://127.0.0.1/mcp", { method: "POST", body: chunks, duplex: "half" } as RequestInit));
    // A declared length past the bound: nothing is read (the body would never come).
    let pulled = false;
    const never = new ReadableStream<Uint8Array>({
      pull() {
        pulled = true;
        return new Promise(() => undefined);
      },
    }, { highWaterMark: 0 });
    await handler(new Request("http://127.0.0.1/mcp", { method: "POST", headers: { "content-length": "4194304" }, body: never, duplex: "half" } as RequestInit));
    await handler(new Request("http://127.0.0.1/mcp", { method: "POST" }));
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error("the client went away"));
      },
    });
    await handler(new Request("http://127.0.0.1/mcp", { method: "POST", body: failing, duplex: "half" } as RequestInit));
    expect(reads.map((r) => (r instanceof Uint8Array ? text(r) : r))).toEqual(["12345678", TOO_LARGE, TOO_LARGE, TOO_LARGE, "", BROKEN]);
    expect(pulled).toBe(false);
  });
});

describe("the answer as the Response", () => {
  it("respond: status, headers and the body text; no body: a null body", async () => {
    const { handler } = face((call) => call.respond(404, { "content-type": "application/json", "x-a": "1" }, '{"a":1}'));
    const response = await handler(new Request("http://127.0.0.1/mcp"));
    expect([response.status, response.headers.get("content-type"), response.headers.get("x-a"), await response.text()]).toEqual([404, "application/json", "1", '{"a":1}']);
    const empty = await face((call) => call.respond(202, {})).handler(new Request("http://127.0.0.1/mcp"));
    expect([empty.status, empty.body]).toEqual([202, null]);
  });

  it("respondWith: that Response itself", async () => {
    const own = new Response("mine", { status: 401 });
    expect(await face((call) => call.respondWith(own)).handler(new Request("http://127.0.0.1/mcp"))).toBe(own);
  });

  it("one answer: a second respond throws, and `answered` says it started", async () => {
    const outcomes: unknown[] = [];
    const { handler } = face((call) => {
      outcomes.push(call.answered);
      call.respond(200, {});
      outcomes.push(call.answered);
      for (const again of [() => call.respond(200, {}), () => call.stream(200, {}, 16), () => void call.respondWith(new Response())]) {
        try {
          again();
        } catch (error) {
          outcomes.push((error as Error).message);
        }
      }
    });
    expect((await handler(new Request("http://127.0.0.1/mcp"))).status).toBe(200);
    expect(outcomes).toEqual([false, true, "the response has already started", "the response has already started", "the response has already started"]);
  });

  describe("stream", () => {
    /** A streamed answer: the body the core writes to, the Response, and its reader. */
    async function streamed(highWater = 16) {
      let body!: ResponseBody;
      let call!: HttpCall;
      const closed = { count: 0 };
      const controller = new AbortController();
      const { handler } = face((c) => {
        call = c;
        c.onclose = () => void closed.count++;
        body = c.stream(200, { "content-type": "text/event-stream" }, highWater);
      });
      const response = await handler(new Request("http://127.0.0.1/mcp", { signal: controller.signal }));
      return { body, call, closed, response, reader: response.body!.getReader(), abort: () => controller.abort() };
    }
    const bytes = (s: string) => new TextEncoder().encode(s);

    it("the head at once; writes delivered in order; end ends the body", async () => {
      const { body, response, reader } = await streamed();
      expect([response.status, response.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
      body.write(bytes("data: 1\n\n"));
      body.write(bytes("data: 2\n\n"));
      body.end();
      let got = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        got += text(value);
      }
      expect(got).toBe("data: 1\n\ndata: 2\n\n");
      body.write(bytes("late")); // after the end: nothing, no throw
      body.end();
    });

    it("buffered counts the bytes the reader has not taken; its read reports the drain", async () => {
      const { body, reader } = await streamed(16);
      let drains = 0;
      body.ondrain = () => void drains++;
      body.write(bytes("0123456789"));
      body.write(bytes("abcdefghij"));
      expect(body.buffered).toBe(20);
      const before = drains;
      expect(text((await reader.read()).value)).toBe("0123456789");
      expect(body.buffered).toBe(10);
      expect(drains).toBeGreaterThan(before); // below the high-water mark again: room
      expect(text((await reader.read()).value)).toBe("abcdefghij");
      expect(body.buffered).toBe(0);
    });

    it("abort: the body errors with the overflow's error (a foreign adapter drops the connection); onclose is not the server's to hear", async () => {
      const { body, reader, closed } = await streamed();
      body.write(bytes("unread"));
      body.abort();
      await expect(reader.read()).rejects.toMatchObject({ name: STREAM_OVERFLOW, message: "response stream overflow: the client does not read its stream" });
      expect(STREAM_OVERFLOW).toBe("StreamOverflowError");
      expect(closed.count).toBe(0);
      body.abort();
      body.end();
    });

    it("the reader cancelling is the client going away: onclose once, gone, writes dropped, nothing buffered", async () => {
      const { body, call, closed, reader, abort } = await streamed();
      body.write(bytes("x"));
      await reader.cancel();
      expect([closed.count, call.gone, body.buffered]).toEqual([1, true, 0]);
      body.write(bytes("dropped"));
      abort(); // the signal after the cancel: still once
      expect(closed.count).toBe(1);
    });

    it("the request's signal aborting while the stream is open: onclose once, gone", async () => {
      const { call, closed, abort } = await streamed();
      expect(call.gone).toBe(false);
      abort();
      expect([closed.count, call.gone]).toEqual([1, true]);
    });
  });

  it("after a whole answer the signal aborting is no cancel: no onclose", async () => {
    const controller = new AbortController();
    let closes = 0;
    let call!: HttpCall;
    const { handler } = face((c) => {
      call = c;
      c.onclose = () => void closes++;
      c.respond(200, {}, "done");
    });
    await handler(new Request("http://127.0.0.1/mcp", { signal: controller.signal }));
    controller.abort();
    expect([closes, call.gone]).toEqual([0, true]);
  });

  it("a request whose signal had already aborted: gone from the start", async () => {
    let gone: boolean | undefined;
    const { handler } = face((call) => {
      gone = call.gone;
      call.respond(200, {});
    });
    await handler(new Request("http://127.0.0.1/mcp", { signal: AbortSignal.abort() }));
    expect(gone).toBe(true);
  });
});
