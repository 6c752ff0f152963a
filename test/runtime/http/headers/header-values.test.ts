/**
 * decodeHeaderValue (templates/runtime/http/http-server.ts, HTTP "Value Encoding"): the value a client
 * meant by an `Mcp-Param-*` or `Mcp-Name` header. Plain values must be visible ASCII, space or
 * tab; a `=?base64?…?=` sentinel must hold canonical Base64 of UTF-8. Anything else is null, which
 * the server rejects. Each row here is one way a lenient decoder (atob ignores whitespace and
 * missing padding) or a loose pattern would accept what the rule refuses.
 */
import { describe, expect, it } from "vitest";
import { decodeHeaderValue } from "../../../../templates/runtime/http/headers.js";

describe("decodeHeaderValue", () => {
  it("keeps a plain value of visible ASCII, space and tab", () => {
    for (const value of ["", "hello world", "tab\there", "~!@#$%^&*()_+{}|:<>?", "=?base64?=", "=?base64?SGk=?=x"]) expect(decodeHeaderValue(value), value).toBe(value);
  });

  it("refuses control characters and anything beyond ASCII, wherever they are", () => {
    for (const value of ["a\nb", "\nab", "ab\n", "ab\r", "\u007f", "caf\u00e9", "\u0000"]) expect(decodeHeaderValue(value), JSON.stringify(value)).toBeNull();
  });

  it("decodes a sentinel of canonical Base64 of UTF-8", () => {
    expect(decodeHeaderValue("=?base64?Y2Fmw6k=?=")).toBe("café");
    expect(decodeHeaderValue("=?base64?SGk=?=")).toBe("Hi");
    expect(decodeHeaderValue("=?base64?SGVsbG8=?=")).toBe("Hello");
    expect(decodeHeaderValue("=?base64?SGVsbA==?=")).toBe("Hell");
    expect(decodeHeaderValue("=?base64?SGVsbG8g?=")).toBe("Hello ");
    expect(decodeHeaderValue("=?base64??=")).toBe("");
  });

  it("refuses a sentinel whose Base64 is not canonical, or whose bytes are not UTF-8", () => {
    const refused = [
      "=?base64?SGk?=", // padding missing
      "=?base64?SGVsbA?=", // padding missing (atob would accept it)
      "=?base64? SGk=?=", // whitespace before (atob ignores it)
      "=?base64?SGk= ?=", // whitespace after
      "=?base64?S=Gk?=", // padding inside
      "=?base64?SGk=SGk=?=", // padding before more data
      "=?base64?SG!k?=", // a character outside the alphabet
      "=?base64?/w==?=", // the byte 0xFF: not UTF-8
    ];
    for (const value of refused) expect(decodeHeaderValue(value), value).toBeNull();
  });
});
