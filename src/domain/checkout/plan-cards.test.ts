// One card per plan on the plans screen (issue 22, item 9).
import { describe, expect, it } from "vitest";
import { planCards } from "./plan-cards.ts";
import type { PlanLike } from "./purchase.ts";

function plan(overrides: Partial<PlanLike> & { code: string }): PlanLike {
  return {
    name: "Schools",
    tier: "education",
    termDuration: 12,
    recurring: true,
    essentials: false,
    isTrial: false,
    currentPlan: false,
    multiUser: true,
    includedSeats: -1,
    essentialsUpgrade: null,
    essentialsDowngrade: null,
    ...overrides,
  };
}

const k12 = plan({ code: "wv_k12_12m" });
const k6 = plan({ code: "wv_k12_6m", termDuration: 6 });

describe("planCards", () => {
  it("lists a plan sold in 12 and 6 months once, the longest", () => {
    for (const mode of ["monthly", "annual"] as const) {
      expect(planCards([k12, k6], mode).map((p) => p.code)).toEqual(["wv_k12_12m"]);
      expect(planCards([k6, k12], mode).map((p) => p.code)).toEqual(["wv_k12_12m"]);
    }
  });

  it("shows the account's current one", () => {
    const current = { ...k6, currentPlan: true };
    expect(planCards([k12, current], "annual").map((p) => p.code)).toEqual(["wv_k12_6m"]);
  });

  it("keeps plans of other names and the mode's term of plans sold in both", () => {
    const teacher = plan({ code: "wv_teacher_12m", name: "Teacher" });
    const power1 = plan({ code: "wv_single_1m", name: "Power", tier: "personal", termDuration: 1 });
    const power12 = plan({ code: "wv_single_12m", name: "Power", tier: "personal" });
    expect(planCards([power1, power12, teacher, k12, k6], "monthly").map((p) => p.code)).toEqual([
      "wv_single_1m",
      "wv_teacher_12m",
      "wv_k12_12m",
    ]);
  });
});
