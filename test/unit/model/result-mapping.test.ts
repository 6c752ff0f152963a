import { describe, expect, it } from "vitest";
import { deriveResult, resultsNamingMethod } from "../../../generator/model/result-mapping.js";
import { catchStubgenError, docFrom, loadFixture } from "../support.js";

const obj = (description?: string) => ({ type: "object", ...(description === undefined ? {} : { description }) });

describe("deriveResult", () => {
  describe("by name", () => {
    it("maps FooRequest to FooResult when that definition exists", () => {
      const doc = docFrom({ FooRequest: obj(), FooResult: obj(), EmptyResult: obj() });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ type: "FooResult", rule: "name" });
    });

    it("prefers the name over a description naming the method", () => {
      const doc = docFrom({ FooResult: obj(), OtherResult: obj("The response to a foo request.") });
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, {})).toEqual({ type: "FooResult", rule: "name" });
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
      expect(deriveResult(doc, { method: "things/do", typeName: "DoThingsRequest" }, {})).toEqual({ type: "DoneResult", rule: "description" });
    });

    it("matches the method as a whole token, not as the start of a longer method", () => {
      expect(deriveResult(doc, { method: "things/do/more", typeName: "MoreThingsRequest" }, {})).toEqual({
        type: "MoreResult",
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
      expect(deriveResult(d, { method: "things/do", typeName: "DoThingsRequest" }, {})).toEqual({ type: "StopResult", rule: "description" });
    });

    it("does not match a method right after a dot", () => {
      const d = docFrom({ AfterDotResult: obj("See x.things/do for that.") });
      expect(resultsNamingMethod(d, "things/do")).toEqual([]);
    });

    it("only considers definitions whose name ends in Result", () => {
      expect(deriveResult(doc, { method: "things/other", typeName: "OtherThingsRequest" }, {})).toEqual({
        type: "EmptyResult",
        rule: "default",
      });
    });

    it("treats regular-expression characters in the method literally", () => {
      const d = docFrom({ DotResult: obj("The response to a aXb request.") });
      expect(resultsNamingMethod(d, "a.b")).toEqual([]);
    });

    it("rejects two results naming the method, suggesting --result-override", () => {
      const d = docFrom({
        OneResult: obj("The response to a things/do request."),
        TwoResult: obj("Also sent in reply to things/do."),
      });
      const err = catchStubgenError(() => deriveResult(d, { method: "things/do", typeName: "DoThingsRequest" }, {}));
      expect(err.message).toContain("OneResult");
      expect(err.message).toContain("TwoResult");
      expect(err.message).toContain("--result-override things/do=");
      expect(err.location).toEqual({ file: "inline.json", pointer: "/$defs" });
    });
  });

  describe("default", () => {
    it("is EmptyResult when the schema has one", () => {
      const doc = loadFixture("draft07-lifecycle.json");
      expect(deriveResult(doc, { method: "ping", typeName: "PingRequest" }, {})).toEqual({ type: "EmptyResult", rule: "default" });
    });

    it("is Result when the schema has no EmptyResult", () => {
      const doc = loadFixture("2020-12-inline.json");
      expect(doc.defs.has("EmptyResult")).toBe(false);
      expect(deriveResult(doc, { method: "things/list", typeName: "ListThingsRequest" }, {})).toEqual({ type: "Result", rule: "default" });
    });
  });

  describe("overrides", () => {
    const doc = docFrom({ FooRequest: obj(), FooResult: obj(), BarResult: obj(), EmptyResult: obj() }, { key: "definitions", file: "o.json" });

    it("wins over the name rule", () => {
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { foo: "BarResult" })).toEqual({ type: "BarResult", rule: "override" });
    });

    it("only applies to its own method", () => {
      expect(deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { bar: "BarResult" }).rule).toBe("name");
    });

    it("resolves a description ambiguity", () => {
      const d = docFrom({ OneResult: obj("a things/do reply"), TwoResult: obj("a things/do reply") });
      expect(deriveResult(d, { method: "things/do", typeName: null }, { "things/do": "TwoResult" })).toEqual({
        type: "TwoResult",
        rule: "override",
      });
    });

    it("rejects an override naming a definition the schema does not have", () => {
      const err = catchStubgenError(() => deriveResult(doc, { method: "foo", typeName: "FooRequest" }, { foo: "NoSuchResult" }));
      expect(err.message).toContain("foo=NoSuchResult");
      expect(err.location).toEqual({ file: "o.json", pointer: "/definitions" });
    });
  });
});
