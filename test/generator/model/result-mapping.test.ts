import { describe, expect, it } from "vitest";
import { deriveResult, linkTargets, resultResponses, resultsNamingMethod } from "../../../generator/model/result-mapping.js";
import { catchStubgenError, docFrom, loadFixture, request } from "../support.js";

const obj = (description?: string) => ({ type: "object", ...(description === undefined ? {} : { description }) });

/** A `…ResultResponse`: `{ id, jsonrpc, result }` with the given result schema. */
const response = (result: unknown, description?: string) => ({
  type: "object",
  ...(description === undefined ? {} : { description }),
  properties: { id: { type: "integer" }, jsonrpc: { const: "2.0", type: "string" }, result },
  required: ["id", "jsonrpc", "result"],
});
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });

describe("deriveResult", () => {
  describe("by name", () => {
    it("maps FooRequest to FooResult when that definition exists", () => {
      const doc = docFrom({ FooRequest: obj(), FooResult: obj(), EmptyResult: obj() });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult"], rule: "name" });
    });

    it("prefers the name over a description naming the method", () => {
      const doc = docFrom({ FooResult: obj(), OtherResult: obj("The response to a foo request.") });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult"], rule: "name" });
    });

    it("skips the name rule when FooResult is not a definition, and for a type named just Request", () => {
      const doc = docFrom({ Result: obj(), EmptyResult: obj() });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["EmptyResult"], rule: "default" });
      expect(deriveResult(doc, { method: "foo", typeName: "Request" }, {})).toEqual({ types: ["EmptyResult"], rule: "default" });
    });

    it("skips the name rule when the type name does not end in Request, or there is none", () => {
      const doc = docFrom({ FooResult: obj(), Result: obj() });
      expect(deriveResult(doc, { method: "foo", typeName: "FooCall" }, {}).rule).toBe("default");
      expect(deriveResult(doc, { method: "foo", typeName: null }, {}).rule).toBe("default");
    });
  });

  describe("by description", () => {
    const doc = docFrom({
      Result: obj(),
      EmptyResult: obj(),
      DoneResult: obj("The response to a things/do request."),
      MoreResult: obj("The response to a things/do/more request."),
      QuotedResult: obj("Returned for `things/quote`."),
      NotAResultType: obj("The response to a things/other request."),
    });

    it("finds the Result whose description names the method", () => {
      expect(deriveResult(doc, { method: "things/do", typeName: "DoThingsRequest" }, {})).toEqual({ types: ["DoneResult"], rule: "description" });
    });

    it("matches the method as a whole token, not as the start of a longer method", () => {
      expect(deriveResult(doc, { method: "things/do/more", typeName: "MoreThingsRequest" }, {})).toEqual({
        types: ["MoreResult"],
        rule: "description",
      });
      expect(resultsNamingMethod(doc, "things/do")).toEqual(["DoneResult"]);
    });

    it("does not match the method inside a longer word or path", () => {
      const d = docFrom({ AResult: obj("About things/done and xthings/do and other/things/do.") });
      expect(resultsNamingMethod(d, "things/do")).toEqual([]);
    });

    it("matches a method at the start or end of the description and in backticks", () => {
      expect(resultsNamingMethod(doc, "things/quote")).toEqual(["QuotedResult"]);
      const d = docFrom({ StartResult: obj("things/go returns this"), EndResult: obj("returned by things/end") });
      expect(resultsNamingMethod(d, "things/go")).toEqual(["StartResult"]);
      expect(resultsNamingMethod(d, "things/end")).toEqual(["EndResult"]);
    });

    it("matches a method followed by a sentence's full stop, but not one continued by a dot and more name", () => {
      const d = docFrom({
        StopResult: obj("Returned for things/do."),
        DottedResult: obj("Not about things/do.more or things/do.x."),
        StopThenSpaceResult: obj("Sent for things/list. Then more text."),
      });
      expect(resultsNamingMethod(d, "things/do")).toEqual(["StopResult"]);
      expect(resultsNamingMethod(d, "things/list")).toEqual(["StopThenSpaceResult"]);
      expect(deriveResult(d, { method: "things/do", typeName: "DoThingsRequest" }, {})).toEqual({ types: ["StopResult"], rule: "description" });
    });

    it("does not match a method right after a dot", () => {
      const d = docFrom({ AfterDotResult: obj("See x.things/do for that.") });
      expect(resultsNamingMethod(d, "things/do")).toEqual([]);
    });

    it("only considers definitions whose name ends in Result", () => {
      expect(deriveResult(doc, { method: "things/other", typeName: "OtherThingsRequest" }, {})).toEqual({
        types: ["EmptyResult"],
        rule: "default",
      });
    });

    it("treats regular-expression characters in the method literally", () => {
      const d = docFrom({ DotResult: obj("The response to a aXb request.") });
      expect(resultsNamingMethod(d, "a.b")).toEqual([]);
      const literal = docFrom({ DotResult: obj("The response to a a.b request."), PlusResult: obj("Sent for (x+y)?.") });
      expect(resultsNamingMethod(literal, "a.b")).toEqual(["DotResult"]);
      expect(resultsNamingMethod(literal, "(x+y)?")).toEqual(["PlusResult"]);
    });

    it("rejects two results naming the method, suggesting --result-override", () => {
      const d = docFrom({
        OneResult: obj("The response to a things/do request."),
        TwoResult: obj("Also sent in reply to things/do."),
      });
      const err = catchStubgenError(() => deriveResult(d, { method: "things/do", typeName: "DoThingsRequest" }, {}));
      expect(err.message).toContain("OneResult");
      expect(err.message).toContain("TwoResult");
      expect(err.message).toBe("cannot tell the result of things/do: OneResult, TwoResult all name it in their description; expected one, add --result-override things/do=TypeName");
      expect(err.location).toEqual({ file: "inline.json", pointer: "/$defs" });
    });
  });

  describe("from the response that answers the request (…ResultResponse)", () => {
    it("is what the response's result allows: a union keeps every member, the request's own result first", () => {
      const doc = docFrom({
        FooRequest: request("foo"),
        FooResult: obj(),
        InputRequiredResult: obj(),
        FooResultResponse: response({ anyOf: [ref("InputRequiredResult"), ref("FooResult")] }),
      });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult", "InputRequiredResult"], rule: "response" });
    });

    it("keeps the schema's order when the request has no …Result of its own among them, and reads oneOf too", () => {
      const doc = docFrom({
        FooRequest: request("foo"),
        BResult: obj(),
        AResult: obj(),
        FooResultResponse: response({ oneOf: [ref("BResult"), ref("AResult"), ref("BResult")] }),
      });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["BResult", "AResult"], rule: "response" });
    });

    it("wins over the name rule: the response says JobPage, not FooResult", () => {
      const doc = docFrom({ FooRequest: request("foo"), FooResult: obj(), JobPage: obj(), FooResultResponse: response(ref("JobPage")) });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["JobPage"], rule: "response" });
    });

    it("follows the response's description link over its name (both {@link} forms)", () => {
      const doc = docFrom({
        FooRequest: request("foo"),
        BarRequest: request("bar"),
        FooResult: obj(),
        BarResult: obj(),
        OtherResult: obj(),
        // Named after foo, but its description says it answers bar.
        FooResultResponse: response(ref("OtherResult"), "A successful response for a {@link BarRequestbar} request."),
        AnswerResultResponse: response(ref("FooResult"), "Sent for a {@link FooRequest | foo} request."),
      });
      expect(resultResponses(doc).map((r) => [r.name, r.answers])).toEqual([
        ["FooResultResponse", ["BarRequest"]],
        ["AnswerResultResponse", ["FooRequest"]],
      ]);
      expect(deriveResult(doc, { method: "bar", typeName: "BarRequest" }, {})).toEqual({ types: ["OtherResult"], rule: "response" });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult"], rule: "response" });
    });

    it("reads `result` through allOf, the nearest declaration first (a response extending JSONRPCResultResponse)", () => {
      const doc = docFrom({
        Result: obj(),
        FooRequest: request("foo"),
        FooResult: obj(),
        JSONRPCResultResponse: response(ref("Result"), "A successful (non-error) response to a request."),
        FooResultResponse: { allOf: [ref("JSONRPCResultResponse"), { type: "object", properties: { result: ref("FooResult") } }] },
        BareResultResponse: { allOf: [ref("JSONRPCResultResponse")] },
        BareRequest: request("bare"),
      });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult"], rule: "response" });
      // Only the inherited `result` (any Result) is left: still the schema's word.
      expect(deriveResult(doc, { method: "bare", typeName: "BareRequest" }, {})).toEqual({ types: ["Result"], rule: "response" });
    });

    it("links nothing to the generic JSONRPCResultResponse (JSONRPCRequest is no method's message)", () => {
      const doc = docFrom({
        Result: obj(),
        EmptyResult: obj(),
        JSONRPCRequest: { type: "object", properties: { method: { type: "string" } } },
        JSONRPCResultResponse: response(ref("Result"), "A successful (non-error) response to a request."),
      });
      expect(resultResponses(doc)).toEqual([
        { name: "JSONRPCResultResponse", answers: [], result: { node: ref("Result"), pointer: "/$defs/JSONRPCResultResponse/properties/result", name: null } },
      ]);
      expect(deriveResult(doc, { method: "ping", typeName: "PingRequest" }, {})).toEqual({ types: ["EmptyResult"], rule: "default" });
    });

    it("ignores definitions named …ResultResponse without a result property, and requests without a type name", () => {
      const doc = docFrom({ FooRequest: request("foo"), FooResult: obj(), FooResultResponse: obj() });
      expect(resultResponses(doc)).toEqual([]);
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult"], rule: "name" });
      const withResponse = docFrom({ Result: obj(), FooResult: obj(), FooResultResponse: response(ref("FooResult"), "For a {@link FooRequest}.") });
      expect(deriveResult(withResponse, { method: "foo", typeName: null }, {})).toEqual({ types: ["Result"], rule: "default" });
    });

    it("accepts two responses that agree, and rejects two that do not, suggesting --result-override", () => {
      const agree = docFrom({
        FooRequest: request("foo"),
        FooResult: obj(),
        FooResultResponse: response(ref("FooResult")),
        AlsoResultResponse: response(ref("FooResult"), "For a {@link FooRequestfoo} request."),
      });
      expect(deriveResult(agree, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult"], rule: "response" });
      const disagree = docFrom({
        FooRequest: request("foo"),
        FooResult: obj(),
        OtherResult: obj(),
        FooResultResponse: response(ref("FooResult")),
        AlsoResultResponse: response(ref("OtherResult"), "For a {@link FooRequestfoo} request."),
      });
      const err = catchStubgenError(() => deriveResult(disagree, { method: "foo", typeName: "FooRequest" }, {}));
      expect(err.message).toBe(
        "cannot tell the result of foo: FooResultResponse, AlsoResultResponse all answer FooRequest with different results; add --result-override foo=TypeName",
      );
      expect(err.location).toEqual({ file: "inline.json", pointer: "/$defs" });
      expect(deriveResult(disagree, { method: "foo", typeName: "FooRequest" }, { foo: "OtherResult" })).toEqual({ types: ["OtherResult"], rule: "override" });
    });

    it("rejects an anyOf result with an inline member; ignores a definition named just ResultResponse", () => {
      const mixed = docFrom({ FooRequest: request("foo"), FooResult: obj(), FooResultResponse: response({ anyOf: [ref("FooResult"), { type: "object" }] }) });
      expect(catchStubgenError(() => deriveResult(mixed, { method: "foo", typeName: "FooRequest" }, {})).location.pointer).toBe("/$defs/FooResultResponse/properties/result");
      const generic = docFrom({ Request: request("x"), FooResult: obj(), ResultResponse: response(ref("FooResult"), "For a {@link Request}.") });
      expect(resultResponses(generic)).toEqual([]);
    });

    it("finds result through allOf members that refer to each other without looping", () => {
      const doc = docFrom({
        FooRequest: request("foo"),
        FooResult: obj(),
        Base: { allOf: [{ $ref: "#/$defs/FooResultResponse" }] },
        FooResultResponse: { allOf: [{ $ref: "#/$defs/Base" }, { properties: { result: ref("FooResult") } }] },
      });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ types: ["FooResult"], rule: "response" });
      const none = docFrom({ FooRequest: request("foo"), FooResult: obj(), Loop: { allOf: [{ $ref: "#/$defs/FooResultResponse" }] }, FooResultResponse: { allOf: [{ $ref: "#/$defs/Loop" }] } });
      expect(resultResponses(none)).toEqual([]);
    });

    it("rejects a result that names no definition, pointing at it", () => {
      const doc = docFrom({ FooRequest: request("foo"), FooResultResponse: response({ type: "object", properties: { x: { type: "string" } } }) });
      const err = catchStubgenError(() => deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {}));
      expect(err.message).toContain("FooResultResponse answers foo, but its \"result\" is not");
      expect(err.message).toContain("--result-override foo=TypeName");
      expect(err.location).toEqual({ file: "inline.json", pointer: "/$defs/FooResultResponse/properties/result" });
    });
  });

  describe("{@link} tags", () => {
    const doc = docFrom({ FooRequest: obj(), FooRequestParams: obj(), Root: obj() });

    it("name their target in every form: separated by |, by a space, alone, and flattened as schema.json has it", () => {
      expect(linkTargets(doc, "a {@link FooRequest | foo/bar} b")).toEqual(["FooRequest"]);
      expect(linkTargets(doc, "a {@link FooRequest foo/bar} b")).toEqual(["FooRequest"]);
      expect(linkTargets(doc, "{@link FooRequest}")).toEqual(["FooRequest"]);
      expect(linkTargets(doc, "{@link FooRequestfoo/bar} and {@link Root}")).toEqual(["FooRequest", "Root"]);
      // The longest definition the flattened text starts with.
      expect(linkTargets(doc, "{@link FooRequestParams}")).toEqual(["FooRequestParams"]);
    });

    it("name nothing when the target is not a definition", () => {
      expect(linkTargets(doc, "{@link https://example.com | the site} {@link Missing} {@link Nothing | x}")).toEqual([]);
      // A separated target is taken whole, not as the definition it starts with.
      expect(linkTargets(doc, "{@link FooRequestX | y} {@link FooRequestX y}")).toEqual([]);
    });

    it("allow spaces around the target and the label, and {@linkcode} and {@linkplain}", () => {
      expect(linkTargets(doc, "{@link   FooRequest  |  foo/bar } {@linkcode Root} {@linkplain FooRequest}")).toEqual(["FooRequest", "Root", "FooRequest"]);
    });

    it("take the longest definition a flattened tag starts with, whatever the order of the definitions", () => {
      const reversed = docFrom({ FooRequestParams: obj(), FooRequest: obj() });
      expect(linkTargets(reversed, "{@link FooRequestParamsx} {@link FooRequestfoo/bar}")).toEqual(["FooRequestParams", "FooRequest"]);
    });

    it("let the description rule find 2026-07-28's `{@link DiscoverRequestserver/discover}` by the method or by the request", () => {
      const d = docFrom({
        Result: obj(),
        DiscoverRequest: request("server/discover"),
        FoundResult: obj("The result returned by the server for a {@link DiscoverRequestserver/discover} request."),
        LinkedResult: obj("The result of a {@link DiscoverRequest}."),
        OtherResult: obj("The result of a {@link OtherRequestserver/discover/more} request."),
      });
      expect(resultsNamingMethod(d, "server/discover")).toEqual(["FoundResult"]);
      expect(resultsNamingMethod(d, "server/discover", "DiscoverRequest")).toEqual(["FoundResult", "LinkedResult"]);
    });
  });

  describe("no rule applies", () => {
    it("is an error naming what was looked for, at the definitions", () => {
      const doc = docFrom({ Other: obj() }, { key: "definitions", file: "none.json" });
      const named = catchStubgenError(() => deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {}));
      expect(named.message).toBe("cannot tell the result of foo: expected FooResult, a result whose description names it, EmptyResult or Result; add --result-override foo=TypeName");
      expect(named.location).toEqual({ file: "none.json", pointer: "/definitions" });
      expect(catchStubgenError(() => deriveResult(doc, { method: "foo", typeName: null }, {})).message).toContain("expected a …Result, a result whose");
    });
  });

  describe("default", () => {
    it("is EmptyResult when the schema has one", () => {
      const doc = loadFixture("draft07-lifecycle.json");
      expect(deriveResult(doc, { method: "ping", typeName: "PingRequest" }, {})).toEqual({ types: ["EmptyResult"], rule: "default" });
    });

    it("is Result when the schema has no EmptyResult", () => {
      const doc = loadFixture("2020-12-inline.json");
      expect(doc.defs.has("EmptyResult")).toBe(false);
      expect(deriveResult(doc, { method: "things/list", typeName: "ListThingsRequest" }, {})).toEqual({ types: ["Result"], rule: "default" });
    });
  });

  describe("overrides", () => {
    const doc = docFrom({ FooRequest: obj(), FooResult: obj(), BarResult: obj(), EmptyResult: obj() }, { key: "definitions", file: "o.json" });

    it("wins over the name rule", () => {
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { foo: "BarResult" })).toEqual({ types: ["BarResult"], rule: "override" });
    });

    it("only applies to its own method", () => {
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { bar: "BarResult" }).rule).toBe("name");
    });

    it("resolves a description ambiguity", () => {
      const d = docFrom({ OneResult: obj("a things/do reply"), TwoResult: obj("a things/do reply") });
      expect(deriveResult(d, { method: "things/do", typeName: null }, { "things/do": "TwoResult" })).toEqual({
        types: ["TwoResult"],
        rule: "override",
      });
    });

    it("may be a union, names joined by |", () => {
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { foo: "FooResult | BarResult" })).toEqual({
        types: ["FooResult", "BarResult"],
        rule: "override",
      });
      const err = catchStubgenError(() => deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { foo: "FooResult|NoSuchResult" }));
      expect(err.message).toContain("foo=FooResult|NoSuchResult");
    });

    it("rejects an override naming a definition the schema does not have", () => {
      const err = catchStubgenError(() => deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { foo: "NoSuchResult" }));
      expect(err.message).toContain("foo=NoSuchResult");
      expect(err.location).toEqual({ file: "o.json", pointer: "/definitions" });
    });
  });
});
