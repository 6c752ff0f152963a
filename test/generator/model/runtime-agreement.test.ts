/**
 * The tables the generator writes into the output and the runtime reads are declared twice: in
 * generator/model/ (what the generator builds) and in templates/runtime/ (what the runtime
 * accepts). The runtime is copied verbatim into the output and imports nothing of the
 * generator, and the generator's build (tsconfig.build.json, include: generator) does not
 * compile the runtime, so neither can import the other's declaration. These checks keep the
 * two declarations of each table the same type: `tsc -p tsconfig.json` (npm run typecheck)
 * fails on any difference, and the tests below check a built table against the runtime's type
 * at run time too.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import type * as GeneratorInputs from "../../../generator/model/input-requests.js";
import { finishModel, modelRevision } from "../../../generator/model/revision.js";
import type * as GeneratorSubscriptions from "../../../generator/model/subscriptions.js";
import type * as RuntimeMrtr from "../../../templates/runtime/features/mrtr-rules.js";
import type * as RuntimeSubscriptions from "../../../templates/runtime/features/subscriptions.js";
import { TEST_CACHE_DIR } from "../../helpers/schemas.js";

describe("the generator's and the runtime's declarations of the same table", () => {
  it("SubCapabilityRule (INPUT_REQUIRED.inputs[].subCapabilities) is one type", () => {
    expectTypeOf<GeneratorInputs.SubCapabilityRule>().toEqualTypeOf<RuntimeMrtr.SubCapabilityRule>();
  });

  it("SubscriptionTable and SubscriptionKind (SUBSCRIPTIONS; runtime subscriptions.ts SubscriptionHub) are one type each", () => {
    expectTypeOf<GeneratorSubscriptions.SubscriptionKind>().toEqualTypeOf<RuntimeSubscriptions.SubscriptionKind>();
    expectTypeOf<GeneratorSubscriptions.SubscriptionTable>().toEqualTypeOf<RuntimeSubscriptions.SubscriptionTable>();
  });

  it("2026-07-28: the finished model's tables are values of the runtime's types", async () => {
    const model = finishModel(await modelRevision("2026-07-28", { cacheDir: TEST_CACHE_DIR }));
    const table: RuntimeSubscriptions.SubscriptionTable | null = model.subscriptions;
    expect(table?.kinds.map((k) => k.field)).toEqual(["toolsListChanged", "promptsListChanged", "resourcesListChanged", "resourceSubscriptions"]);
    // The answers to input requests are checked by the generated validators (VALIDATORS.inputs), one per input.
    expect(model.validation.inputs.map((input) => input.method)).toEqual(model.inputRequests?.inputs.map((input) => input.method));
    expect(model.inputRequests?.inputs.find((input) => input.method === "elicitation/create")?.result).toBe("ElicitResult");
  });
});
