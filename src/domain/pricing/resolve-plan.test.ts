import { describe, expect, it } from "vitest";
import { makeCatalog, makePlan, makeSpecCatalog } from "../testing/builders.ts";
import { planLabel, resolvePlan } from "./resolve-plan.ts";

const catalog = makeSpecCatalog();
const codeOf = (result: ReturnType<typeof resolvePlan>) =>
  result.ok ? result.value.code : result.error;

describe("resolvePlan", () => {
  it("finds a code", () => {
    expect(codeOf(resolvePlan(catalog, "wv_single_1m"))).toBe("wv_single_1m");
  });

  it("switches a code to its other term when the mode asks", () => {
    expect(codeOf(resolvePlan(catalog, "wv_single_1m", "annual"))).toBe("wv_single_12m");
    expect(codeOf(resolvePlan(catalog, "wv_single_plus_12m", "monthly"))).toBe("wv_single_plus_1m");
  });

  it("picks a family's plain variant, annual unless asked", () => {
    expect(codeOf(resolvePlan(catalog, "power"))).toBe("wv_single_12m");
    expect(codeOf(resolvePlan(catalog, "power", "monthly"))).toBe("wv_single_1m");
    expect(codeOf(resolvePlan(catalog, "flex"))).toBe("wv_flex2");
  });

  it("prefers current variants to legacy ones", () => {
    const withLegacy = makeCatalog({
      plans: [
        makePlan({ code: "wv_unlimited_12m", legacy: true }),
        makePlan({ code: "wv_unloct17_12m" }),
      ],
    });
    expect(codeOf(resolvePlan(withLegacy, "power"))).toBe("wv_unloct17_12m");
  });

  it("says when there is no such plan or term", () => {
    expect(resolvePlan(catalog, "wv_nope")).toEqual({
      ok: false,
      error: { code: "UNKNOWN_PLAN", message: "Unknown plan 'wv_nope'." },
    });
    expect(resolvePlan(catalog, "flex", "monthly")).toEqual({
      ok: false,
      error: { code: "NO_VARIANT", message: "Flex is not sold monthly." },
    });
    expect(resolvePlan(catalog, "wv_flex2", "monthly")).toMatchObject({
      ok: false,
      error: { code: "NO_VARIANT" },
    });
  });
});

describe("planLabel", () => {
  it("names the plan and how it bills", () => {
    expect(planLabel(makePlan())).toBe("Power (billed annually)");
    expect(planLabel(makePlan({ code: "wv_k12_6m", name: "Schools" }))).toBe(
      "Schools (billed semi-annually)",
    );
    expect(planLabel(makePlan({ name: "Flex", recurring: false }))).toBe("Flex (one-time)");
  });
});
