/**
 * runtime/http/auth.ts's reading of a server's WWW-Authenticate value (RFC 9110 §11.6.1,
 * RFC 6750 §3, RFC 9728 §5.1): only the Bearer challenge counts, quoted strings unescape, a bad
 * `resource_metadata` is dropped, the read is bounded and never throws; and the scope union of
 * step-up (SEP-2350).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_CHALLENGE_LENGTH, parseBearerChallenge, scopeUnion } from "../../../../templates/runtime/http/auth.js";

describe("parseBearerChallenge", () => {
  it("reads the Bearer challenge's parameters, names case-insensitive, quoted values unescaped", () => {
    const challenge = parseBearerChallenge('Bearer realm="mcp", Error="insufficient_scope", scope="files:read files:write", error_description="needs \\"write\\"", resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp"');
    expect(challenge).toEqual({
      error: "insufficient_scope",
      errorDescription: 'needs "write"',
      scope: "files:read files:write",
      resourceMetadataUrl: new URL("https://mcp.example/.well-known/oauth-protected-resource/mcp"),
    });
  });

  it("skips other schemes' challenges, before and after, token68 included", () => {
    expect(parseBearerChallenge('Basic realm="x", DPoP algs="ES256", Bearer scope=a, Negotiate abc==').scope).toBe("a");
    expect(parseBearerChallenge('Basic realm="x", scope="not-bearer"').scope).toBeUndefined();
    expect(parseBearerChallenge("Negotiate YWJj==, Bearer error=invalid_token").error).toBe("invalid_token");
  });

  it("drops a resource_metadata that is no absolute http(s) URL", () => {
    expect(parseBearerChallenge('Bearer resource_metadata="/relative"').resourceMetadataUrl).toBeUndefined();
    expect(parseBearerChallenge('Bearer resource_metadata="file:///etc/passwd"').resourceMetadataUrl).toBeUndefined();
    expect(parseBearerChallenge(null)).toEqual({});
  });

  it("reads at most MAX_CHALLENGE_LENGTH characters: a parameter past it is not seen", () => {
    const padding = "x".repeat(MAX_CHALLENGE_LENGTH);
    expect(parseBearerChallenge(`Bearer realm="${padding}", scope="late"`).scope).toBeUndefined();
    expect(parseBearerChallenge(`Bearer scope="early", realm="${padding}"`).scope).toBe("early");
  });

  it("never throws, whatever the server sends", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const challenge = parseBearerChallenge(text);
        expect(typeof challenge).toBe("object");
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom("Bearer", " ", ",", "=", '"', "\\", "scope", "a", "\t"), { maxLength: 40 }), (parts) => {
        expect(() => parseBearerChallenge(parts.join(""))).not.toThrow();
      }),
      { numRuns: 2000 },
    );
  });
});

describe("scopeUnion", () => {
  it("each scope once, in order of first appearance; undefined for none", () => {
    expect(scopeUnion("a b", undefined, "b c", "")).toBe("a b c");
    expect(scopeUnion(undefined, "")).toBeUndefined();
    expect(scopeUnion("a  b")).toBe("a b");
  });
});
