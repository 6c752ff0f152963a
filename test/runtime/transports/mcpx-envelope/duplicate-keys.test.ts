/**
 * duplicateTopLevelKey (transports/mcpx-envelope.ts): the key a frame gives twice at its top level
 * (issue 41: JSON.parse keeps the last, other parsers the first), keys compared decoded, nested
 * objects and strings that look like keys ignored; one pass, linear in the frame's length (the
 * gateway's wire test is test/runtime/addons/mcpx-ws/gateway.test.ts).
 */
import { describe, expect, it } from "vitest";
import { duplicateTopLevelKey } from "../../../../templates/runtime/transports/mcpx-envelope.js";

describe("duplicateTopLevelKey", () => {
  it("finds a top-level key given twice, written plainly or with escapes", () => {
    expect(duplicateTopLevelKey('{"from":"a","kind":"chat","from":"b"}')).toBe("from");
    expect(duplicateTopLevelKey('{ "kind" : "x" , "payload" : {} , "kind" : "y" }')).toBe("kind");
    expect(duplicateTopLevelKey('{"from":"a","\\u0066rom":"b"}')).toBe("from");
    expect(duplicateTopLevelKey('{"a\\"b":1,"a\\u0022b":2}')).toBe('a"b');
    expect(duplicateTopLevelKey('{"":1,"":2}')).toBe("");
  });

  it("ignores keys below the top level, strings that look like keys, and a top level that is not an object", () => {
    expect(duplicateTopLevelKey('{"from":"a","payload":{"from":"b","from":"c"},"to":["from","from"]}')).toBeUndefined();
    expect(duplicateTopLevelKey('{"a":"\\",\\"a\\":","b":"{\\"a\\":1}","c":"\\\\","d":[{"a":1},[{"a":2}]]}')).toBeUndefined();
    expect(duplicateTopLevelKey('["a","a"]')).toBeUndefined();
    expect(duplicateTopLevelKey('"a"')).toBeUndefined();
    expect(duplicateTopLevelKey("{}")).toBeUndefined();
  });

  it("scans a 1 MiB frame of nested arrays, escapes and many keys in one pass (< 50 ms)", () => {
    const nested = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const escaped = JSON.stringify('\\"'.repeat(100_000));
    const keys = Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(",");
    const frame = `{"payload":${nested},"text":${escaped},${keys},"k7":0}`;
    expect(frame.length).toBeGreaterThan(700_000);
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      const started = performance.now();
      expect(duplicateTopLevelKey(frame)).toBe("k7");
      best = Math.min(best, performance.now() - started);
    }
    expect(best).toBeLessThan(50);
  });
});
