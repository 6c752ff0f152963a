/**
 * templates/runtime/http/server/pipeline.ts on a fake HttpCall (fake-call.ts) with fake stages:
 * admit runs the stages in order and stops at the first answer (synchronously when every stage
 * is), runPipeline goes admission → body (only for a method with one, within the bounds) →
 * routing, answers a refusal, reports what the server's own code throws and answers 500 unless
 * it had answered, and releases what the request held once; serveAdmitted and failed. The shared
 * stages: Host/Origin, authenticate (a Principal, a Response, or the application's TypeError),
 * and the envelope (405 with Allow, an empty 405 to a HEAD, 415, 406, whether a body is read).
 */
import { describe, expect, it } from "vitest";
import {
  admit,
  authenticateStage,
  CallState,
  envelopeStage,
  failed,
  hostOriginStage,
  readBody,
  runPipeline,
  serveAdmitted,
  type Pipeline,
  type Stage,
  type StageResult,
} from "../../../../templates/runtime/http/server/pipeline.js";
import type { HttpCall } from "../../../../templates/runtime/http/server/call.js";
import { BROKEN, FakeCall, TOO_LARGE, type FakeCallInit } from "./fake-call.js";

const INTERNAL = '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}';

/** A stage that records its name in `log` and answers `result` (a function: computed from the call and state). */
function stage(name: string, log: string[], result: StageResult | Promise<StageResult> | ((call: HttpCall, state: CallState) => StageResult | Promise<StageResult>) = undefined): Stage<CallState> {
  return {
    name,
    run(call, state) {
      log.push(name);
      return typeof result === "function" ? result(call, state) : result;
    },
  };
}

/** A held resource that counts its releases. */
function holding(): { release(): void; released: number } {
  return {
    released: 0,
    release() {
      this.released++;
    },
  };
}

interface Run {
  readonly call: FakeCall;
  readonly log: string[];
  readonly errors: Error[];
  readonly served: CallState[];
}

/** runPipeline over `stages` (readsBody set by a stage, or by `readsBody`) with `serve`, on a fake call. */
async function run(init: FakeCallInit, stages: (log: string[]) => Stage<CallState>[], serve?: (call: HttpCall, state: CallState) => void | Promise<void>, options: { readsBody?: boolean; maxBodyBytes?: number; maxJsonDepth?: number } = {}): Promise<Run> {
  const call = new FakeCall(init);
  const log: string[] = [];
  const errors: Error[] = [];
  const served: CallState[] = [];
  const pipeline: Pipeline<CallState> = {
    admission: [...stages(log), stage("body?", log, (_c, state) => void (state.readsBody = options.readsBody ?? true))],
    settings: { maxBodyBytes: options.maxBodyBytes ?? 1024, maxJsonDepth: options.maxJsonDepth ?? 8, onError: (error) => void errors.push(error) },
    state: () => new CallState(),
    serve: (c, state) => {
      log.push("serve");
      served.push(state);
      return serve === undefined ? c.respond(200, {}, "served") : serve(c, state);
    },
  };
  await runPipeline(pipeline, call);
  return { call, log, errors, served };
}

describe("admit", () => {
  it("runs every stage in order and answers undefined, synchronously when every stage is synchronous", () => {
    const log: string[] = [];
    const result = admit([stage("a", log), stage("b", log), stage("c", log)], new FakeCall(), new CallState());
    expect(result).toBeUndefined();
    expect(log).toEqual(["a", "b", "c"]);
  });

  it("stops at the first answer: later stages do not run", () => {
    const log: string[] = [];
    const refused = { status: 403, message: "no" };
    expect(admit([stage("a", log), stage("b", log, refused), stage("c", log)], new FakeCall(), new CallState())).toBe(refused);
    expect(log).toEqual(["a", "b"]);
  });

  it("an asynchronous stage: the rest run after it settles, in order; its answer stops them", async () => {
    const log: string[] = [];
    const pending = admit([stage("a", log), stage("b", log, Promise.resolve(undefined)), stage("c", log), stage("d", log, Promise.resolve(undefined)), stage("e", log)], new FakeCall(), new CallState());
    expect(log).toEqual(["a", "b"]);
    expect(await pending).toBeUndefined();
    expect(log).toEqual(["a", "b", "c", "d", "e"]);
    const stopped: string[] = [];
    const refused = { status: 401, message: "who?" };
    expect(await admit([stage("a", stopped, Promise.resolve(refused)), stage("b", stopped)], new FakeCall(), new CallState())).toBe(refused);
    expect(stopped).toEqual(["a"]);
  });

  it("the stages share one state", () => {
    const log: string[] = [];
    const state = new CallState();
    admit([stage("set", log, (_c, s) => void (s.body = "seen")), stage("read", log, (_c, s) => (s.body === "seen" ? undefined : { status: 500, message: "lost" }))], new FakeCall(), state);
    expect(state.body).toBe("seen");
  });
});

describe("runPipeline", () => {
  it("admission, then the body read within maxBodyBytes and parsed, then routing with the parsed body", async () => {
    const { call, log, served } = await run({ body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' }, (l) => [stage("a", l), stage("b", l)], undefined, { maxBodyBytes: 4096 });
    expect(log).toEqual(["a", "b", "body?", "serve"]);
    expect(call.reads).toEqual([4096]);
    expect(served[0]!.body).toEqual({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(call.responded).toMatchObject({ status: 200, body: "served" });
  });

  it("a method without a body (readsBody false): the body is never read", async () => {
    const { call, served } = await run({ method: "GET", body: "ignored" }, () => [], undefined, { readsBody: false });
    expect(call.reads).toEqual([]);
    expect(served[0]!.body).toBeUndefined();
  });

  it("a stage's refusal is answered as a JSON-RPC error; no body read, no routing", async () => {
    const { call, log } = await run({ body: "{}" }, (l) => [stage("guard", l, { status: 403, message: "Forbidden: no" }), stage("later", l)]);
    expect(log).toEqual(["guard"]);
    expect(call.reads).toEqual([]);
    expect(call.responded).toEqual({ status: 403, headers: { "content-type": "application/json" }, body: '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Forbidden: no"}}', json: expect.anything() });
  });

  it.each([
    ["over maxBodyBytes", "x".repeat(2000), 413, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Payload Too Large: the body exceeds 1024 bytes"}}'],
    ["declared over it (never read)", TOO_LARGE, 413, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Payload Too Large: the body exceeds 1024 bytes"}}'],
    ["broken", BROKEN, 400, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request: the body could not be read"}}'],
    ["deeper than maxJsonDepth", `${"[".repeat(9)}${"]".repeat(9)}`, 400, '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Bad Request: the body nests deeper than 8 levels (maxJsonDepth)"}}'],
    ["no JSON", "{nope", 400, '{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}'],
  ] as const)("a body %s: answered, no routing", async (_label, body, status, text) => {
    const { call, log } = await run({ body }, () => []);
    expect(log).toEqual(["body?"]);
    expect([call.responded.status, call.responded.body]).toEqual([status, text]);
    if (status === 413) expect(call.responded.headers).toEqual({ "content-type": "application/json", connection: "close" });
  });

  it("routing that throws before answering: reported to onError, answered 500", async () => {
    const { call, errors } = await run({ body: "{}" }, () => [], () => {
      throw new Error("routing broke");
    });
    expect(errors.map((e) => e.message)).toEqual(["routing broke"]);
    expect([call.responded.status, call.responded.body]).toEqual([500, INTERNAL]);
  });

  it("routing that rejects after it answered: reported, no second answer", async () => {
    const { call, errors } = await run({ body: "{}" }, () => [], async (c) => {
      c.respond(202, {});
      throw new Error("after the answer");
    });
    expect(errors.map((e) => e.message)).toEqual(["after the answer"]);
    expect(call.answers).toHaveLength(1);
    expect(call.responded.status).toBe(202);
  });

  it("a stage that throws (the server's own failure): reported, 500, later stages not run", async () => {
    const { call, log, errors } = await run({ body: "{}" }, (l) => [
      stage("boom", l, () => {
        throw new TypeError("stage broke");
      }),
      stage("later", l),
    ]);
    expect(log).toEqual(["boom"]);
    expect(errors.map((e) => `${e.name}: ${e.message}`)).toEqual(["TypeError: stage broke"]);
    expect(call.responded.status).toBe(500);
  });

  it("what the request held is released once: after routing, after a refusal, after a failure; not when its owner took it over", async () => {
    const cases: Array<[string, (l: string[], held: ReturnType<typeof holding>) => Stage<CallState>[], ((c: HttpCall, s: CallState) => void) | undefined, number]> = [
      ["served", (l, held) => [stage("hold", l, (_c, s) => void (s.held = held))], undefined, 1],
      ["refused after it was taken", (l, held) => [stage("hold", l, (_c, s) => void (s.held = held)), stage("refuse", l, { status: 400, message: "x" })], undefined, 1],
      ["routing threw", (l, held) => [stage("hold", l, (_c, s) => void (s.held = held))], () => {
        throw new Error("x");
      }, 1],
      ["taken over by its owner", (l, held) => [stage("hold", l, (_c, s) => void (s.held = held))], (c, s) => {
        s.held = undefined; // a stream owns it now, and releases it when it ends
        c.respond(200, {});
      }, 0],
    ];
    for (const [label, stages, serve, released] of cases) {
      const held = holding();
      await run({ body: "{}" }, (l) => stages(l, held), serve);
      expect(held.released, label).toBe(released);
    }
  });
});

describe("readBody, serveAdmitted and failed", () => {
  it("readBody: nothing for a method without a body; the parsed value in state.body, or the refusal", async () => {
    const settings = { maxBodyBytes: 1024, maxJsonDepth: 8, onError: undefined };
    const none = new CallState();
    expect(await readBody(new FakeCall({ body: "[1]" }), none, settings)).toBeUndefined();
    expect(none.body).toBeUndefined();
    const state = Object.assign(new CallState(), { readsBody: true });
    expect(await readBody(new FakeCall({ body: "[1]" }), state, settings)).toBeUndefined();
    expect(state.body).toEqual([1]);
    expect(await readBody(new FakeCall({ body: "[" }), Object.assign(new CallState(), { readsBody: true }), settings)).toEqual({ status: 400, message: "Parse error", code: -32700 });
  });

  it("serveAdmitted: routing only (no stage, no body read), its failure answered 500 and reported, what was held released", async () => {
    const errors: Error[] = [];
    const held = holding();
    const pipeline: Pipeline<CallState> = {
      admission: [{ name: "never", run: () => ({ status: 418, message: "ran" }) }],
      settings: { maxBodyBytes: 1024, maxJsonDepth: 8, onError: (error) => void errors.push(error) },
      state: () => new CallState(),
      serve: (_call, state) => {
        expect(state.body).toEqual({ handed: "over" });
        throw new Error("serve broke");
      },
    };
    const call = new FakeCall({ body: "never read" });
    await serveAdmitted(pipeline, call, Object.assign(new CallState(), { body: { handed: "over" }, held }));
    expect(call.reads).toEqual([]);
    expect([call.responded.status, call.responded.body]).toEqual([500, INTERNAL]);
    expect(errors.map((e) => e.message)).toEqual(["serve broke"]);
    expect(held.released).toBe(1);
  });

  it("failed: reports (a non-Error too, and a throwing onError is contained), answers 500 only when nothing was answered", () => {
    const errors: Error[] = [];
    const call = new FakeCall();
    failed(call, (error) => void errors.push(error), "a string");
    expect(errors.map((e) => e.message)).toEqual(["a string"]);
    expect(call.responded.body).toBe(INTERNAL);
    const answered = new FakeCall();
    answered.respond(200, {}, "done");
    failed(answered, () => {
      throw new Error("onError broke");
    }, new Error("late"));
    expect(answered.answers).toHaveLength(1);
  });
});

describe("the shared stages", () => {
  it("hostOriginStage: a Host that is no host[:port] is 400, a refused Host or Origin 403, a loopback one passes", () => {
    const host = hostOriginStage({});
    const state = new CallState();
    expect(host.run(new FakeCall({ headers: { host: "a b" }, localAddress: "127.0.0.1" }), state)).toEqual({ status: 400, message: 'Bad Request: Host "a b" is not a valid host[:port]' });
    expect(host.run(new FakeCall({ headers: { host: "evil.example" }, localAddress: "127.0.0.1" }), state)).toEqual({ status: 403, message: 'Forbidden: Host "evil.example" is not a loopback host' });
    expect(host.run(new FakeCall({ headers: { host: "localhost:3000", origin: "https://evil.example" }, localAddress: "127.0.0.1" }), state)).toEqual({ status: 403, message: 'Forbidden: Origin "https://evil.example" is not a loopback origin' });
    expect(host.run(new FakeCall({ headers: { host: "localhost:3000", origin: "http://localhost:5173" }, localAddress: "127.0.0.1" }), state)).toBeUndefined();
    expect(hostOriginStage({ dnsRebindingProtection: false }).run(new FakeCall({ headers: { host: "evil.example" }, localAddress: "127.0.0.1" }), state)).toBeUndefined();
  });

  it("authenticateStage: none set passes as nobody; a Principal is kept; a Response is the answer; given the call's head", async () => {
    const state = new CallState();
    expect(authenticateStage(undefined).run(new FakeCall(), state)).toBeUndefined();
    expect(state.principal).toBeUndefined();
    const heads: string[] = [];
    const alice = authenticateStage((head) => (heads.push(`${head.method} ${head.url} ${head.headers.get("Authorization")}`), { id: "alice", role: "admin" }));
    expect(alice.run(new FakeCall({ headers: { authorization: "Bearer a" } }), state)).toBeUndefined();
    expect(state.principal).toEqual({ id: "alice", role: "admin" });
    expect(heads).toEqual(["POST http://127.0.0.1/mcp Bearer a"]);
    const refusedWith = new Response(null, { status: 401 });
    expect(authenticateStage(() => refusedWith).run(new FakeCall(), new CallState())).toBe(refusedWith);
    const later = new CallState();
    expect(await authenticateStage(async () => ({ id: "bob" })).run(new FakeCall(), later)).toBeUndefined();
    expect(later.principal).toEqual({ id: "bob" });
  });

  it("authenticateStage without authenticate: the first request that arrived at an address other than loopback logs one warning; loopback, unknown addresses and a null logger log none", () => {
    const lines: string[] = [];
    const anonymous = authenticateStage(undefined, (line) => lines.push(line));
    for (const localAddress of ["127.0.0.1", "::1", "::ffff:127.0.0.1", undefined]) expect(anonymous.run(new FakeCall(localAddress === undefined ? {} : { localAddress }), new CallState())).toBeUndefined();
    expect(lines).toEqual([]);
    for (const localAddress of ["192.0.2.2", "10.0.0.1", "192.0.2.2"]) expect(anonymous.run(new FakeCall({ localAddress }), new CallState())).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("without authenticate serves requests arriving at 192.0.2.2, not a loopback address");
    // Once per stage (per handler); a throwing logger does not fail the request; with authenticate, nothing.
    const throwing = authenticateStage(undefined, () => {
      throw new Error("log down");
    });
    expect(throwing.run(new FakeCall({ localAddress: "192.0.2.2" }), new CallState())).toBeUndefined();
    const authenticated = authenticateStage(() => ({ id: "a" }), (line) => lines.push(line));
    expect(authenticated.run(new FakeCall({ localAddress: "192.0.2.2" }), new CallState())).toBeUndefined();
    expect(authenticateStage(undefined, null).run(new FakeCall({ localAddress: "192.0.2.2" }), new CallState())).toBeUndefined();
    expect(lines).toHaveLength(1);
  });

  it.each([
    ["nothing", undefined, "undefined"],
    ["null", null, "null"],
    ["an empty id", { id: "" }, "an object"],
    ["a number id", { id: 7 }, "an object"],
    ["a string", "alice", '"alice"'],
  ])("authenticateStage: %s is the application's TypeError, never a request served as nobody (runPipeline: 500, reported)", async (_label, who, described) => {
    const message = `authenticate must return a Principal (an object with a non-empty string id) or a Response, got ${described}`;
    expect(() => authenticateStage(() => who as never).run(new FakeCall(), new CallState())).toThrow(new TypeError(message));
    await expect(authenticateStage(async () => who as never).run(new FakeCall(), new CallState())).rejects.toThrow(message);
    const { call, log, errors } = await run({ body: "{}" }, (l) => [authenticateStage(async () => who as never), stage("later", l)]);
    expect(log).toEqual([]);
    expect(errors.map((e) => e.message)).toEqual([message]);
    expect(call.responded.status).toBe(500);
  });

  describe("envelopeStage", () => {
    const table = { POST: { contentType: "application/json", accept: "both", body: true }, GET: { accept: "sse", body: false }, DELETE: { body: false } } as const;
    const envelope = envelopeStage(table, "the MCP endpoint");
    const JSON_BOTH = { "content-type": "application/json", accept: "application/json, text/event-stream" };

    it("a method the table lacks: 405 naming what is accepted, with Allow; a HEAD gets the 405 without a body; Object.prototype's names are no methods", () => {
      expect(envelope.run(new FakeCall({ method: "PUT" }), new CallState())).toEqual({ status: 405, message: "Method not allowed: PUT; the MCP endpoint accepts POST, GET, DELETE", headers: { allow: "POST, GET, DELETE" } });
      expect(envelope.run(new FakeCall({ method: "HEAD" }), new CallState())).toEqual({ status: 405, message: "", headers: { allow: "POST, GET, DELETE" }, empty: true });
      expect(envelope.run(new FakeCall({ method: "constructor" }), new CallState())).toMatchObject({ status: 405 });
      expect(envelope.run(new FakeCall({ method: "__proto__" }), new CallState())).toMatchObject({ status: 405 });
      expect(envelopeStage({ POST: { body: true } }).run(new FakeCall({ method: "GET" }), new CallState())).toMatchObject({ message: "Method not allowed: GET; this endpoint accepts POST" });
    });

    it("415 for another media type (parameters allowed), 406 for an Accept without what the answer may be", () => {
      expect(envelope.run(new FakeCall({ headers: { ...JSON_BOTH, "content-type": "text/plain" } }), new CallState())).toEqual({ status: 415, message: "Unsupported Media Type: the body must be application/json" });
      expect(envelope.run(new FakeCall({ headers: { accept: JSON_BOTH.accept } }), new CallState())).toMatchObject({ status: 415 });
      expect(envelope.run(new FakeCall({ headers: { ...JSON_BOTH, "content-type": "Application/JSON; charset=utf-8" } }), new CallState())).toBeUndefined();
      expect(envelope.run(new FakeCall({ headers: { ...JSON_BOTH, accept: "application/json" } }), new CallState())).toEqual({ status: 406, message: "Not Acceptable: the Accept header must list application/json and text/event-stream" });
      expect(envelope.run(new FakeCall({ headers: { ...JSON_BOTH, accept: "*/*" } }), new CallState())).toBeUndefined();
      expect(envelope.run(new FakeCall({ method: "GET", headers: { accept: "application/json" } }), new CallState())).toEqual({ status: 406, message: "Not Acceptable: the Accept header must list text/event-stream" });
      expect(envelope.run(new FakeCall({ method: "GET", headers: { accept: "text/event-stream;q=0, application/json" } }), new CallState())).toMatchObject({ status: 406 });
    });

    it("says whether the method's body is read", () => {
      const post = new CallState();
      expect(envelope.run(new FakeCall({ headers: JSON_BOTH }), post)).toBeUndefined();
      expect(post.readsBody).toBe(true);
      const del = new CallState();
      expect(envelope.run(new FakeCall({ method: "DELETE" }), del)).toBeUndefined();
      expect(del.readsBody).toBe(false);
    });
  });
});
