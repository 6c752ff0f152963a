/**
 * The Streamable HTTP rules of 2026-07-28 at the wire, against a real node:http server on
 * 127.0.0.1 (createHttpHandler on each face: the native one toNodeListener takes, and the web one
 * bridged): HTTP method, Content-Type, Accept, body bounds, one JSON-RPC request or notification
 * per POST, the request `_meta`, the MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-*
 * headers, unknown and removed methods, error statuses, JSON or SSE per request, serverInfo in
 * results, and Host/Origin validation (a LAN address shown to the handler as the socket's; the
 * web face called in process without one). Exact status, headers and JSON-RPC bodies.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as R from "../../../generated/2026-07-28/index.js";
import { answer, arrivingAt, call, deferred, describeFaces, headersFor, META, post, raw, send, SERVER_INFO_META, serve, sseMessages, VERSION, type Served } from "./support.js";

const ECHO = { name: "echo", arguments: { text: "hi" } };
const echoResult = { resultType: "complete", content: [{ type: "text", text: "hi" }], _meta: SERVER_INFO_META };
const rpcError = (id: number | string | undefined, code: number, message: string, data?: unknown) => ({
  jsonrpc: "2.0",
  ...(id === undefined ? {} : { id }),
  error: data === undefined ? { code, message } : { code, message, data },
});
const HEADER_MISMATCH = -32020;

describeFaces("the Streamable HTTP rules", (face) => {
  let s: Served;
  beforeAll(async () => {
    s = await serve(face);
  });
  afterAll(async () => {
    await s.close();
  });

  describe("a request answered with JSON", () => {
    it("200, application/json, the JSON-RPC response with serverInfo in the result _meta; no session id", async () => {
      const answer = await call(s.url, 1, "tools/call", ECHO, { "mcp-session-id": "abc" });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(answer.headers.get("mcp-session-id")).toBeNull();
      expect(answer.json).toEqual({ jsonrpc: "2.0", id: 1, result: echoResult });
    });

    it("string ids are echoed; clientInfo is optional", async () => {
      const meta = { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} };
      const answer = await post(s.url, { jsonrpc: "2.0", id: "a-1", method: "tools/call", params: { ...ECHO, _meta: meta } }, headersFor("tools/call", ECHO));
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ jsonrpc: "2.0", id: "a-1", result: echoResult });
    });

    it("server/discover: supported versions, capabilities, serverInfo", async () => {
      const answer = await call(s.url, 2, "server/discover");
      expect(answer.json).toEqual({
        jsonrpc: "2.0",
        id: 2,
        result: {
          resultType: "complete",
          supportedVersions: [VERSION],
          capabilities: { tools: {}, prompts: {} },
          cacheScope: "public",
          ttlMs: 0,
          _meta: SERVER_INFO_META,
        },
      });
    });

    it("a handler's own error stays in-band on 200 (an unknown tool: -32602)", async () => {
      const answer = await call(s.url, 3, "tools/call", { name: "nope", arguments: {} });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual(rpcError(3, -32602, "Unknown tool: nope"));
    });

    it("MissingRequiredClientCapabilityError from a handler: 400 with its data", async () => {
      const answer = await call(s.url, 4, "tools/call", { name: "test_missing_capability", arguments: {} });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(4, -32021, "Missing required client capability: sampling", { requiredCapabilities: { sampling: {} } }));
    });
  });

  describe("a request answered with an SSE stream", () => {
    it("a handler that notifies before answering gets text/event-stream: the notification, then the response, then the end", async () => {
      const params = { name: "test_streaming_elicitation", arguments: {} };
      const answer = await call(s.url, 5, "tools/call", params);
      expect(answer.status).toBe(200);
      expect(answer.headers.get("content-type")).toBe("text/event-stream");
      expect(answer.headers.get("cache-control")).toBe("no-cache, no-transform");
      expect(answer.headers.get("x-accel-buffering")).toBe("no");
      expect(answer.text).toBe(
        `data: ${JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } })}\n\n` +
          `data: ${JSON.stringify({ jsonrpc: "2.0", id: 5, result: { resultType: "complete", content: [{ type: "text", text: "streamed" }], _meta: SERVER_INFO_META } })}\n\n`,
      );
    });

    it("no log message for a request that set no log level; with one, the log rides the stream", async () => {
      const quiet = await call(s.url, 6, "tools/call", { name: "test_logging_tool", arguments: {} });
      expect(quiet.headers.get("content-type")).toBe("application/json");
      const loud = await call(s.url, 7, "tools/call", { name: "test_logging_tool", arguments: {}, _meta: { "io.modelcontextprotocol/logLevel": "info" } });
      expect(loud.headers.get("content-type")).toBe("text/event-stream");
      expect(sseMessages(loud.text)).toEqual([
        { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "logged" } },
        { jsonrpc: "2.0", id: 7, result: { resultType: "complete", content: [{ type: "text", text: "done" }], _meta: SERVER_INFO_META } },
      ]);
    });
  });

  describe("long-lived streams (subscriptions/listen)", () => {
    const LISTEN = { notifications: { toolsListChanged: true } };
    const ack = { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" } } };

    it("an idle stream carries SSE comment lines (keepAliveMs), then the response ends it", async () => {
      const release = deferred<void>();
      const listening = await serve(face, 
        {
          handlers: {
            "subscriptions/listen": async (_p, ctx) => {
              await ctx.notify("notifications/subscriptions/acknowledged", ack.params);
              await release.promise;
              return { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" } };
            },
          },
        },
        { keepAliveMs: 1000 },
      );
      try {
        const response = await fetch(listening.url, { method: "POST", headers: headersFor("subscriptions/listen"), body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "subscriptions/listen", params: { ...LISTEN, _meta: META } }) });
        expect(response.headers.get("content-type")).toBe("text/event-stream");
        const reader = response.body!.getReader();
        const decoder = new TextDecoder();
        let text = "";
        while (!text.includes(":\n\n")) text += decoder.decode((await reader.read()).value, { stream: true });
        release.resolve();
        for (let next = await reader.read(); next.done !== true; next = await reader.read()) text += decoder.decode(next.value, { stream: true });
        const first = `data: ${JSON.stringify(ack)}\n\n`;
        const last = `data: ${JSON.stringify({ jsonrpc: "2.0", id: 9, result: { resultType: "complete", _meta: { ...SERVER_INFO_META, "io.modelcontextprotocol/subscriptionId": "sub-1" } } })}\n\n`;
        expect(text.slice(0, first.length)).toBe(first);
        expect(text.slice(-last.length)).toBe(last);
        expect(text.slice(first.length, text.length - last.length)).toMatch(/^(?::\n\n)+$/);
      } finally {
        await listening.close();
      }
    });

    it("the server ending the listen (ctx.end): its notifications/cancelled is the last frame, no response follows", async () => {
      const listening = await serve(face, {
        handlers: {
          "subscriptions/listen": async (_p, ctx) => {
            await ctx.notify("notifications/subscriptions/acknowledged", ack.params);
            await ctx.end("shutting down");
            return { resultType: "complete", _meta: { "io.modelcontextprotocol/subscriptionId": "sub-1" } };
          },
        },
      });
      try {
        const answer = await call(listening.url, 10, "subscriptions/listen", LISTEN);
        expect(answer.headers.get("content-type")).toBe("text/event-stream");
        expect(sseMessages(answer.text)).toEqual([ack, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10, reason: "shutting down" } }]);
      } finally {
        await listening.close();
      }
    });
  });

  describe("HTTP method, Content-Type and Accept", () => {
    it.each(["GET", "DELETE", "PUT", "PATCH"])("%s: 405 with Allow: POST and an id-less JSON-RPC error", async (method) => {
      const answer = await send(s.url, { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.get("allow")).toBe("POST");
      expect(answer.json).toEqual(rpcError(undefined, -32600, `Method not allowed: ${method}; the MCP endpoint accepts POST`));
    });

    it("HEAD: 405 without a body", async () => {
      const answer = await send(s.url, { method: "HEAD" });
      expect(answer.status).toBe(405);
      expect(answer.text).toBe("");
    });

    it.each([
      ["text/plain", "text/plain"],
      ["missing", undefined],
      ["form", "application/x-www-form-urlencoded"],
    ])("Content-Type %s: 415", async (_label, contentType) => {
      const headers: Record<string, string> = { ...headersFor("tools/list") };
      delete headers["content-type"];
      if (contentType !== undefined) headers["content-type"] = contentType;
      const answer = await raw(s.url, "POST", headers, "{}");
      expect(answer.status).toBe(415);
      expect(answer.json).toEqual(rpcError(undefined, -32600, "Unsupported Media Type: the body must be application/json"));
    });

    it("Content-Type application/json with parameters and in another case is accepted", async () => {
      const answer = await call(s.url, 8, "tools/call", ECHO, { "content-type": "Application/JSON; charset=utf-8" });
      expect(answer.status).toBe(200);
    });

    it.each([
      ["missing", undefined],
      ["JSON only", "application/json"],
      ["SSE only", "text/event-stream"],
      ["SSE refused with q=0", "application/json, text/event-stream;q=0"],
    ])("Accept %s: 406", async (_label, accept) => {
      const headers: Record<string, string> = { ...headersFor("tools/list") };
      delete headers["accept"];
      if (accept !== undefined) headers["accept"] = accept;
      const answer = await raw(s.url, "POST", headers, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: META } }));
      expect(answer.status).toBe(406);
      expect(answer.json).toEqual(rpcError(undefined, -32600, "Not Acceptable: the Accept header must list application/json and text/event-stream"));
    });

    it.each(["*/*", "application/*, text/*", "text/event-stream;q=0.5, application/json;q=0.9"])("Accept %s is enough", async (accept) => {
      const answer = await call(s.url, 9, "tools/call", ECHO, { accept });
      expect(answer.status).toBe(200);
    });
  });

  describe("one JSON-RPC request or notification per POST", () => {
    const h = headersFor("tools/list");
    it.each([
      ["bad JSON", "{", -32700, "Parse error"],
      ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0x7d]), -32700, "Parse error"],
      ["a batch", JSON.stringify([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]), -32600, "Invalid Request: JSON-RPC batches are not supported"],
      ["an empty batch", "[]", -32600, "Invalid Request: JSON-RPC batches are not supported"],
      ["a string", '"tools/list"', -32600, "Invalid Request: the body must be a JSON-RPC request or notification"],
      ["null", "null", -32600, "Invalid Request: the body must be a JSON-RPC request or notification"],
      ["a result response", JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), -32600, "Invalid Request: a client MUST NOT send JSON-RPC responses"],
      ["an error response", JSON.stringify({ jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" } }), -32600, "Invalid Request: a client MUST NOT send JSON-RPC responses"],
      ["a null id", JSON.stringify({ jsonrpc: "2.0", id: null, method: "tools/list" }), -32600, "Invalid Request: the id must be a string or an integer"],
      ["a fractional id", JSON.stringify({ jsonrpc: "2.0", id: 1.5, method: "tools/list" }), -32600, "Invalid Request: the id must be a string or an integer"],
    ])("%s: 400 and an id-less error", async (_label, body, code, message) => {
      const answer = await post(s.url, body, h);
      expect(answer.status).toBe(400);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(answer.json).toEqual(rpcError(undefined, code, message));
    });

    it("no jsonrpc member, or params that are not an object: 400 with the request's id", async () => {
      expect((await post(s.url, { id: 7, method: "tools/list" }, h)).json).toEqual(rpcError(7, -32600, 'Invalid Request: jsonrpc must be "2.0"'));
      const answer = await post(s.url, { jsonrpc: "2.0", id: 8, method: "tools/list", params: [1] }, h);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(8, -32600, "Invalid Request: params must be an object"));
    });

    it("a notification: 202 Accepted and no body", async () => {
      const answer = await post(s.url, { jsonrpc: "2.0", method: "notifications/anything" }, headersFor("notifications/anything"));
      expect(answer.status).toBe(202);
      expect(answer.text).toBe("");
    });

    it("a notification whose headers disagree with it: 400 (Mcp-Method) or UnsupportedProtocolVersion (a version not served)", async () => {
      const mismatch = await post(s.url, { jsonrpc: "2.0", method: "notifications/x" }, headersFor("notifications/y"));
      expect(mismatch.status).toBe(400);
      expect(mismatch.json).toEqual(rpcError(undefined, HEADER_MISMATCH, 'Header mismatch: Mcp-Method "notifications/y" does not match the body method "notifications/x"'));
      const old = await post(s.url, { jsonrpc: "2.0", method: "notifications/x" }, { ...headersFor("notifications/x"), "mcp-protocol-version": "2025-11-25" });
      expect(old.status).toBe(400);
      expect(old.json).toEqual(rpcError(undefined, -32022, "Unsupported protocol version", { supported: [VERSION], requested: "2025-11-25" }));
    });
  });

  describe("the request _meta (basic/index): 400 and -32602 with the request's id", () => {
    const h = headersFor("server/discover");
    const versions = "(protocol versions: 2026-07-28)";
    it.each([
      ["no params", undefined, `every request carries _meta with io.modelcontextprotocol/clientCapabilities and io.modelcontextprotocol/protocolVersion ${versions}`],
      ["no _meta", {}, `every request carries _meta with io.modelcontextprotocol/clientCapabilities and io.modelcontextprotocol/protocolVersion ${versions}`],
      ["_meta not an object", { _meta: [] }, `every request carries _meta with io.modelcontextprotocol/clientCapabilities and io.modelcontextprotocol/protocolVersion ${versions}`],
      ["no protocol version", { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } }, `_meta lacks io.modelcontextprotocol/protocolVersion ${versions}`],
      ["no client capabilities", { _meta: { "io.modelcontextprotocol/protocolVersion": VERSION } }, `_meta lacks io.modelcontextprotocol/clientCapabilities ${versions}`],
      [
        "a protocol version that is not a string",
        { _meta: { "io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": {} } },
        "_meta io.modelcontextprotocol/protocolVersion must be a string",
      ],
      [
        "capabilities that are not an object",
        { _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": true } },
        "_meta io.modelcontextprotocol/clientCapabilities must be an object",
      ],
      [
        "a clientInfo without a version",
        { _meta: { ...META, "io.modelcontextprotocol/clientInfo": { name: "x" } } },
        "_meta io.modelcontextprotocol/clientInfo must be an object with a string name and version",
      ],
    ])("%s", async (_label, params, problem) => {
      const answer = await post(s.url, { jsonrpc: "2.0", id: 11, method: "server/discover", ...(params === undefined ? {} : { params }) }, h);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(11, -32602, `Invalid params: ${problem}`));
    });
  });

  describe("MCP-Protocol-Version (HTTP, Protocol Version Header)", () => {
    it("missing: 400 HeaderMismatch naming the versions served", async () => {
      const answer = await call(s.url, 21, "server/discover", {}, { "mcp-protocol-version": undefined });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(21, HEADER_MISMATCH, "Header mismatch: the MCP-Protocol-Version header is missing (protocol versions: 2026-07-28)"));
    });

    it("different from the _meta version: 400 HeaderMismatch", async () => {
      const answer = await call(s.url, 22, "server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": "v999.0.0" } });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(22, HEADER_MISMATCH, 'Header mismatch: MCP-Protocol-Version header value "2026-07-28" does not match body value "v999.0.0"'));
    });

    it("both naming a version not served: 400 UnsupportedProtocolVersion with the supported list and the requested one", async () => {
      const answer = await call(s.url, 23, "server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": "2025-11-25" } }, { "mcp-protocol-version": "2025-11-25" });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(23, -32022, "Unsupported protocol version", { supported: [VERSION], requested: "2025-11-25" }));
    });

    it("the versions served are the server's protocolVersions, in discover and in the error alike", async () => {
      const two = await serve(face, { protocolVersions: ["2027-01-01", VERSION] });
      try {
        const discover = await call(two.url, 1, "server/discover");
        expect((discover.json as { result: { supportedVersions: string[] } }).result.supportedVersions).toEqual(["2027-01-01", VERSION]);
        const answer = await call(two.url, 2, "server/discover", { _meta: { "io.modelcontextprotocol/protocolVersion": "1900-01-01" } }, { "mcp-protocol-version": "1900-01-01" });
        expect(answer.json).toEqual(rpcError(2, -32022, "Unsupported protocol version", { supported: ["2027-01-01", VERSION], requested: "1900-01-01" }));
        const other = await call(two.url, 3, "tools/call", { ...ECHO, _meta: { "io.modelcontextprotocol/protocolVersion": "2027-01-01" } }, { "mcp-protocol-version": "2027-01-01" });
        expect(other.status).toBe(200);
      } finally {
        await two.close();
      }
    });
  });

  describe("Mcp-Method and Mcp-Name (HTTP, Standard Request Headers)", () => {
    it.each([
      ["missing Mcp-Method", "tools/list", {}, { "mcp-method": undefined }, "the Mcp-Method header is missing"],
      ["another method", "tools/list", {}, { "mcp-method": "prompts/list" }, 'Mcp-Method header value "prompts/list" does not match body value "tools/list"'],
      ["the method in another case", "tools/list", {}, { "mcp-method": "TOOLS/LIST" }, 'Mcp-Method header value "TOOLS/LIST" does not match body value "tools/list"'],
      ["missing Mcp-Name", "tools/call", ECHO, { "mcp-name": undefined }, "the Mcp-Name header is missing; the body carries params.name"],
      ["another tool name", "tools/call", ECHO, { "mcp-name": "other" }, 'Mcp-Name header value "other" does not match body value "echo"'],
      ["a resource URI that differs", "resources/read", { uri: "file:///a" }, { "mcp-name": "file:///b" }, 'Mcp-Name header value "file:///b" does not match body value "file:///a"'],
      ["a prompt name that differs", "prompts/get", { name: "p" }, { "mcp-name": "q" }, 'Mcp-Name header value "q" does not match body value "p"'],
      ["a broken Base64 sentinel", "tools/call", ECHO, { "mcp-name": "=?base64?ZWNobw?=" }, "the Mcp-Name header has an invalid value"],
    ])("%s: 400 HeaderMismatch", async (_label, method, params, headers, problem) => {
      const answer = await call(s.url, 31, method, params, headers);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(31, HEADER_MISMATCH, `Header mismatch: ${problem}`));
    });

    it("header names in any case, values with surrounding whitespace, a Base64-encoded name", async () => {
      const lower = await post(s.url, { jsonrpc: "2.0", id: 32, method: "tools/call", params: { ...ECHO, _meta: META } }, {
        "CONTENT-TYPE": "application/json",
        ACCEPT: "application/json, text/event-stream",
        "MCP-PROTOCOL-VERSION": VERSION,
        "MCP-METHOD": "tools/call",
        "mcp-name": "  echo  ",
      });
      expect(lower.json).toEqual({ jsonrpc: "2.0", id: 32, result: echoResult });
      const encoded = await call(s.url, 33, "tools/call", ECHO, { "mcp-name": `=?base64?${btoa("echo")}?=` });
      expect(encoded.json).toEqual({ jsonrpc: "2.0", id: 33, result: echoResult });
    });

    it("a non-ASCII tool name travels Base64-encoded and is compared decoded", async () => {
      const answer = await call(s.url, 34, "tools/call", { name: "héllo", arguments: {} }, { "mcp-name": "=?base64?aMOpbGxv?=" });
      expect(answer.json).toEqual(rpcError(34, -32602, "Unknown tool: héllo"));
    });
  });

  describe("Mcp-Param-* from x-mcp-header (HTTP, Custom Headers from Tool Parameters)", () => {
    const echo = (args: Record<string, unknown>) => ({ name: "echo", arguments: { text: "hi", ...args } });
    it.each([
      ["the value in the header", { region: "us-west1" }, { "mcp-param-region": "us-west1" }],
      ["a Base64 value", { region: "Hello, 世界" }, { "mcp-param-region": "=?base64?SGVsbG8sIOS4lueVjA==?=" }],
      ["a value shaped like the sentinel, encoded", { region: "=?base64?literal?=" }, { "mcp-param-region": "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=" }],
      ["an unwrapped Base64-looking value, taken literally", { region: "SGVsbG8=" }, { "mcp-param-region": "SGVsbG8=" }],
      ["an integer compared numerically", { count: 42 }, { "mcp-param-count": "42.0" }],
      ["a nested boolean", { options: { verbose: true } }, { "mcp-param-verbose": "true" }],
      ["a null value: no header expected", { region: null }, {}],
      ["no value: a header present is ignored", {}, { "mcp-param-region": "anything" }],
    ])("accepted: %s", async (_label, args, headers) => {
      const answer = await call(s.url, 41, "tools/call", echo(args), headers);
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ jsonrpc: "2.0", id: 41, result: echoResult });
    });

    it.each([
      ["missing while the body has a value", { region: "us-west1" }, {}, "the Mcp-Param-Region header is missing; the body carries region"],
      ["a different value", { region: "us-west1" }, { "mcp-param-region": "eu-west1" }, 'the Mcp-Param-Region header value "eu-west1" does not match the body value "us-west1"'],
      ["the value in another case", { region: "us-west1" }, { "mcp-param-region": "US-WEST1" }, 'the Mcp-Param-Region header value "US-WEST1" does not match the body value "us-west1"'],
      ["invalid Base64 padding", { region: "Hello" }, { "mcp-param-region": "=?base64?SGVsbG8?=" }, "the Mcp-Param-Region header has an invalid value"],
      ["invalid Base64 characters", { region: "Hello" }, { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }, "the Mcp-Param-Region header has an invalid value"],
      ["Base64 of invalid UTF-8", { region: "x" }, { "mcp-param-region": "=?base64?/w==?=" }, "the Mcp-Param-Region header has an invalid value"],
      ["another integer", { count: 42 }, { "mcp-param-count": "43" }, 'the Mcp-Param-Count header value "43" does not match the body value 42'],
      ["a nested value missing", { options: { verbose: false } }, {}, "the Mcp-Param-Verbose header is missing; the body carries options.verbose"],
    ])("400 HeaderMismatch: %s", async (_label, args, headers, problem) => {
      const answer = await call(s.url, 42, "tools/call", echo(args), headers);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(42, HEADER_MISMATCH, `Header mismatch: ${problem}`));
    });

    it("a plain value with characters a header may not carry: 400", async () => {
      // node:http sends latin-1 bytes as they are; the server sees a non-ASCII character.
      const body = JSON.stringify({ jsonrpc: "2.0", id: 43, method: "tools/call", params: { ...echo({ region: "é" }), _meta: META } });
      const answer = await raw(s.url, "POST", { ...headersFor("tools/call", { name: "echo" }), "mcp-param-region": "\u00e9" }, body);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(43, HEADER_MISMATCH, "Header mismatch: the Mcp-Param-Region header has an invalid value"));
    });

    it("the annotations come from the server's own tools/list, read once while its ttlMs holds", async () => {
      let lists = 0;
      const counted = await serve(face, {
        handlers: {
          "tools/list": () => (lists++, { resultType: "complete", tools: [{ name: "t", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": "A" } } } }], ttlMs: 60_000, cacheScope: "public" }),
          "tools/call": () => ({ resultType: "complete", content: [] }),
        },
      });
      try {
        const params = { name: "t", arguments: { a: "1" } };
        expect((await call(counted.url, 1, "tools/call", params)).status).toBe(400);
        expect((await call(counted.url, 2, "tools/call", params, { "mcp-param-a": "1" })).status).toBe(200);
        await Promise.all([3, 4, 5].map((id) => call(counted.url, id, "tools/call", params, { "mcp-param-a": "1" })));
        expect(lists).toBe(1);
      } finally {
        await counted.close();
      }
    });

    it("ttlMs 0 (or toolHeadersTtlMs 0): read again for each call, so a changed annotation applies at once", async () => {
      let header = "A";
      const changing = await serve(face, {
        handlers: {
          "tools/list": () => ({ resultType: "complete", tools: [{ name: "t", inputSchema: { type: "object", properties: { a: { type: "string", "x-mcp-header": header } } } }], ttlMs: 0, cacheScope: "public" }),
          "tools/call": () => ({ resultType: "complete", content: [] }),
        },
      });
      try {
        const params = { name: "t", arguments: { a: "1" } };
        expect((await call(changing.url, 1, "tools/call", params, { "mcp-param-a": "1" })).status).toBe(200);
        header = "B";
        expect((await call(changing.url, 2, "tools/call", params, { "mcp-param-a": "1" })).status).toBe(400);
        expect((await call(changing.url, 3, "tools/call", params, { "mcp-param-b": "1" })).status).toBe(200);
      } finally {
        await changing.close();
      }
    });

    it("a tools/list handler that fails: no annotations are known, the failure goes to onError, calls are served, it is asked again a second later", async () => {
      const failing = await serve(face, {
        handlers: {
          "tools/list": () => {
            throw new Error("list broke");
          },
          "tools/call": () => ({ resultType: "complete", content: [] }),
        },
      });
      // Only Date is faked: the retry after a failure is due RETRY_FAILED_LIST_MS (1 s) later.
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        expect((await call(failing.url, 1, "tools/call", { name: "t", arguments: { a: "1" } })).status).toBe(200);
        expect((await call(failing.url, 2, "tools/call", { name: "t", arguments: { a: "1" } })).status).toBe(200);
        expect(failing.errors.map((e) => e.message)).toEqual(["tools/list failed: list broke"]);
        vi.setSystemTime(Date.now() + 1000);
        expect((await call(failing.url, 3, "tools/call", { name: "t", arguments: { a: "1" } })).status).toBe(200);
        expect(failing.errors.map((e) => e.message)).toEqual(["tools/list failed: list broke", "tools/list failed: list broke"]);
      } finally {
        vi.useRealTimers();
        await failing.close();
      }
    });
  });

  describe("a tools/list handler that never answers", () => {
    it("is given up after 10 s: its signal aborts, the failure goes to onError, the waiting call is served", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      try {
        const errors: Error[] = [];
        let listSignal: AbortSignal | undefined;
        const listing = deferred<void>();
        const server = new R.McpServer({
          logger: null,
          handlers: {
            "tools/list": async (_p, ctx) => {
              listSignal = ctx.signal;
              listing.resolve();
              await new Promise(() => undefined);
              return { resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" };
            },
            "tools/call": () => ({ resultType: "complete", content: [] }),
          },
        });
        const handler = R.createHttpHandler(server, { onError: (e) => errors.push(e) });
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: { a: "1" }, _meta: META } });
        const answered = answer(face, handler, new Request("http://127.0.0.1/mcp", { method: "POST", headers: headersFor("tools/call", { name: "t" }), body }));
        // The 10 s start when the list is asked for (on the native face, once the request crossed the socket).
        await listing.promise;
        await vi.advanceTimersByTimeAsync(10_000);
        expect((await answered).status).toBe(200);
        expect(errors.map((e) => e.message)).toEqual(["tools/list did not answer within 10000 ms"]);
        expect(listSignal?.aborted).toBe(true);
        expect(listSignal?.reason).toBe("Connection closed");
        expect(server.inFlight).toEqual({ sent: 0, received: 0 });
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe("unknown and removed methods (HTTP, Protocol Version Header): 404 and -32601", () => {
    it.each(["unknown/method", "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "constructor", "__proto__"])("%s", async (method) => {
      const answer = await call(s.url, 51, method);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual(rpcError(51, -32601, `Method not found: ${method}`));
    });

    it("a capability the server has no handler for (resources/list here)", async () => {
      const answer = await call(s.url, 52, "resources/list");
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual(rpcError(52, -32601, "Method not found: resources/list"));
    });
  });

  describe("serverInfo in result _meta (basic/index, per-response fields)", () => {
    it("a handler's own _meta keys are kept beside it, and its own serverInfo wins", async () => {
      const custom = await serve(face, {
        handlers: {
          "tools/call": (params) =>
            params.name === "own"
              ? { resultType: "complete", content: [], _meta: { "io.modelcontextprotocol/serverInfo": { name: "own", version: "2" } } }
              : { resultType: "complete", content: [], _meta: { "com.example/trace": "t1" } },
        },
      });
      try {
        expect((await call(custom.url, 1, "tools/call", { name: "x", arguments: {} })).json).toEqual({
          jsonrpc: "2.0",
          id: 1,
          result: { resultType: "complete", content: [], _meta: { ...SERVER_INFO_META, "com.example/trace": "t1" } },
        });
        expect((await call(custom.url, 2, "tools/call", { name: "own", arguments: {} })).json).toEqual({
          jsonrpc: "2.0",
          id: 2,
          result: { resultType: "complete", content: [], _meta: { "io.modelcontextprotocol/serverInfo": { name: "own", version: "2" } } },
        });
      } finally {
        await custom.close();
      }
    });

    it("serverInfoInResults: false leaves results as the handler made them", async () => {
      const plain = await serve(face, { serverInfoInResults: false });
      try {
        expect((await call(plain.url, 1, "tools/call", ECHO)).json).toEqual({ jsonrpc: "2.0", id: 1, result: { resultType: "complete", content: [{ type: "text", text: "hi" }] } });
      } finally {
        await plain.close();
      }
    });
  });

  describe("Host and Origin (DNS rebinding protection, on by default for loopback)", () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 61, method: "tools/call", params: { ...ECHO, _meta: META } });
    const port = () => new URL(s.url).port;
    it.each([
      ["a foreign Host", { host: "evil.example.com" }, 'Forbidden: Host "evil.example.com" is not a loopback host'],
      ["a foreign Host with the port", { host: `evil.example.com:${"$PORT"}` }, 'Forbidden: Host "evil.example.com:$PORT" is not a loopback host'],
      ["a foreign Origin", { origin: "http://evil.example.com" }, 'Forbidden: Origin "http://evil.example.com" is not a loopback origin'],
      ["Origin null", { origin: "null" }, 'Forbidden: Origin "null" is not a loopback origin'],
    ])("%s: 403", async (_label, extra, message) => {
      const headers = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, v.replace("$PORT", port())]));
      const answer = await raw(s.url, "POST", { ...headersFor("tools/call", ECHO), ...headers }, body);
      expect(answer.status).toBe(403);
      expect(answer.json).toEqual(rpcError(undefined, -32600, message.replace("$PORT", port())));
    });

    it.each([`localhost:${"$PORT"}`, "127.0.0.1", `[::1]:${"$PORT"}`])("Host %s with a loopback Origin is served", async (host) => {
      const h = host.replace("$PORT", port());
      const answer = await raw(s.url, "POST", { ...headersFor("tools/call", ECHO), host: h, origin: `http://${h}` }, body);
      expect(answer.status).toBe(200);
    });

    it("allowedHosts and allowedOrigins replace the loopback rule", async () => {
      const named = await serve(face, {}, { allowedHosts: ["mcp.example.com"], allowedOrigins: ["https://app.example.com"] });
      try {
        const h = headersFor("tools/call", ECHO);
        expect((await raw(named.url, "POST", { ...h, host: "mcp.example.com:8080", origin: "https://app.example.com" }, body)).status).toBe(200);
        expect((await raw(named.url, "POST", { ...h, host: "127.0.0.1" }, body)).status).toBe(403);
        expect((await raw(named.url, "POST", { ...h, host: "mcp.example.com", origin: "https://other.example.com" }, body)).status).toBe(403);
      } finally {
        await named.close();
      }
    });

    it("a request that arrived at a non-loopback address: a Host of allowedHosts, and an Origin only of the same host", async () => {
      const listed = await serve(face, {}, { allowedHosts: ["mcp.example.com"] }, { wrap: arrivingAt("10.0.0.5") });
      const unlisted = await serve(face, {}, {}, { wrap: arrivingAt("10.0.0.5") });
      const mapped = await serve(face, {}, {}, { wrap: arrivingAt("::ffff:127.0.0.1") });
      try {
        const h = headersFor("tools/call", ECHO);
        expect((await raw(listed.url, "POST", { ...h, host: "mcp.example.com" }, body)).status).toBe(200);
        expect((await raw(listed.url, "POST", { ...h, host: "mcp.example.com", origin: "https://mcp.example.com" }, body)).status).toBe(200);
        expect((await raw(listed.url, "POST", { ...h, host: "mcp.example.com", origin: "https://evil.example.com" }, body)).status).toBe(403);
        // ::ffff:127.0.0.1 is loopback: the loopback rule applies, and mcp.example.com is no loopback host.
        expect((await raw(mapped.url, "POST", { ...h, host: "mcp.example.com" }, body)).json).toEqual(rpcError(undefined, -32600, 'Forbidden: Host "mcp.example.com" is not a loopback host'));
        // Without allowedHosts no Host is accepted there (issue 28: DNS rebinding off loopback).
        const refused = await raw(unlisted.url, "POST", { ...h, host: "mcp.example.com" }, body);
        expect(refused.status).toBe(403);
        expect(refused.text).toContain("allowedHosts");
      } finally {
        await Promise.all([listed.close(), unlisted.close(), mapped.close()]);
      }
    });

    it("dnsRebindingProtection: false checks neither", async () => {
      const open = await serve(face, {}, { dnsRebindingProtection: false });
      try {
        expect((await raw(open.url, "POST", { ...headersFor("tools/call", ECHO), host: "evil.example.com", origin: "http://evil.example.com" }, body)).status).toBe(200);
      } finally {
        await open.close();
      }
    });
  });

  describe("a client of the initialize era (basic/versioning, Backward Compatibility: a modern-only server names its versions)", () => {
    const plain = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const initialize = (id: number, protocolVersion: unknown) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "legacy", version: "1" } } });

    it("initialize without _meta or version header: 400 UnsupportedProtocolVersion, the versions served and the one it asked for", async () => {
      const answer = await post(s.url, initialize(41, "2025-11-25"), plain);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(41, -32022, "Unsupported protocol version", { supported: [VERSION], requested: "2025-11-25" }));
      const zero = await post(s.url, initialize(0, "2025-03-26"), plain);
      expect(zero.json).toEqual(rpcError(0, -32022, "Unsupported protocol version", { supported: [VERSION], requested: "2025-03-26" }));
    });

    it("a request without _meta whose header names a session-era version: the same, naming that version", async () => {
      const answer = await post(s.url, { jsonrpc: "2.0", id: 42, method: "tools/list" }, { ...plain, "mcp-protocol-version": "2025-06-18", "mcp-method": "tools/list" });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual(rpcError(42, -32022, "Unsupported protocol version", { supported: [VERSION], requested: "2025-06-18" }));
    });

    it("an initialize without a version of its own, or one that claims 2026-07-28, keeps the modern answers (-32602, then -32601)", async () => {
      const bare = await post(s.url, { jsonrpc: "2.0", id: 43, method: "initialize" }, plain);
      expect(bare.status).toBe(400);
      expect(bare.json).toMatchObject({ id: 43, error: { code: -32602 } });
      const modern = await call(s.url, 44, "initialize", { protocolVersion: "2025-11-25" });
      expect(modern.status).toBe(404);
      expect(modern.json).toMatchObject({ id: 44, error: { code: -32601 } });
    });
  });
});

describe("the web face called without a local address (a fetch runtime that knows none)", () => {
  it("applies the loopback rule: a Host that is no loopback name is refused", async () => {
    const handler = R.createHttpHandler(new R.McpServer({ logger: null, handlers: { "tools/call": () => ({ resultType: "complete", content: [] }) } }));
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { ...ECHO, _meta: META } });
    const refused = await answer("web", handler, new Request("http://mcp.example.com/mcp", { method: "POST", headers: { ...headersFor("tools/call", ECHO), host: "mcp.example.com" }, body }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual(rpcError(undefined, -32600, 'Forbidden: Host "mcp.example.com" is not a loopback host'));
  });
});
