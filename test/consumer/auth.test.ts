/**
 * Issue 30's "done when", its auth part: from the packed package, in a project `npm init -y`
 * made (package.json never edited by hand), the generated HTTP client holding the SDK's own
 * ClientCredentialsProvider reaches a generated server that requires a bearer token
 * (test/consumer/auth-check.mjs does the steps; this asserts on what they gave).
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TEST_CACHE_DIR } from "../helpers/schemas.js";
import { SHARED_SCHEMAS } from "../prepare.mjs";
import { EXPECTED, runAuthConsumerCheck } from "./auth-check.mjs";

describe("a consumer project: an SDK auth provider against a server requiring a bearer token", () => {
  it(
    "npm pack → npm init -y → install → generate --emit js → node: 401, token from the authorization server, request passes with the principal",
    () => {
      const schemas = existsSync(SHARED_SCHEMAS) ? SHARED_SCHEMAS : TEST_CACHE_DIR;
      const r = runAuthConsumerCheck({ schemas });
      // npm init -y's package.json, only npm's own devDependencies added after it: no edit by hand.
      expect(r.initial["type"]).toBe("commonjs");
      const { devDependencies, ...rest } = r.installed;
      expect(rest).toEqual(r.initial);
      expect(Object.keys(devDependencies as object).sort()).toEqual(["@modelcontextprotocol/client", "mcp-stubgen"]);
      expect(r.emittedJs).toBe(true);
      expect(r.output).toBe(EXPECTED);
    },
    300_000,
  );
});
