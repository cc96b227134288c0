import { describe, expect, it } from "vitest";
import {
  managedReason,
  minimumSeats,
  modeOf,
  type PlanLike,
  planFor,
  planStatus,
  plansForMode,
  quoteHref,
} from "./purchase.ts";

function plan(overrides: Partial<PlanLike> & { code: string }): PlanLike {
  return {
    name: "Power",
    tier: "personal",
    termDuration: 12,
    recurring: true,
    essentials: false,
    isTrial: false,
    currentPlan: false,
    multiUser: false,
    includedSeats: -1,
    essentialsUpgrade: null,
    essentialsDowngrade: null,
    ...overrides,
  };
}

const power1 = plan({
  code: "wv_single_1m",
  termDuration: 1,
  essentialsUpgrade: { code: "wv_single_plus_1m" },
});
const power12 = plan({ code: "wv_single_12m", essentialsUpgrade: { code: "wv_single_plus_12m" } });
const powerPlus1 = plan({
  code: "wv_single_plus_1m",
  termDuration: 1,
  essentials: true,
  essentialsDowngrade: { code: "wv_single_1m" },
});
const powerPlus12 = plan({
  code: "wv_single_plus_12m",
  essentials: true,
  essentialsDowngrade: { code: "wv_single_12m" },
});
const flex = plan({ code: "wv_flex2", name: "Flex", recurring: false });
const trial = plan({ code: "wv_unlimited_trial", name: "Unlimited", isTrial: true });
const plans = [power1, power12, powerPlus1, powerPlus12, flex, trial];

describe("plansForMode", () => {
  it("lists one card per plan for the mode, without trials or essentials variants", () => {
    expect(plansForMode(plans, "monthly").map((p) => p.code)).toEqual(["wv_single_1m", "wv_flex2"]);
    expect(plansForMode(plans, "annual").map((p) => p.code)).toEqual(["wv_single_12m", "wv_flex2"]);
  });
});

describe("planFor", () => {
  it("switches mode and the essentials add-on", () => {
    expect(planFor(plans, power1, { mode: "annual" }).code).toBe("wv_single_12m");
    expect(planFor(plans, power1, { mode: "annual", essentials: true }).code).toBe(
      "wv_single_plus_12m",
    );
    expect(planFor(plans, powerPlus12, { mode: "monthly", essentials: false }).code).toBe(
      "wv_single_1m",
    );
    expect(planFor(plans, flex, { mode: "monthly" }).code).toBe("wv_flex2");
  });
  it("knows the mode of a plan", () => {
    expect(modeOf(power1)).toBe("monthly");
    expect(modeOf(power12)).toBe("annual");
  });
});

describe("planStatus", () => {
  it("marks the current plan and the plan held with essentials", () => {
    expect(planStatus({ ...power12, currentPlan: true }, "wv_single_12m")).toBe("current");
    expect(planStatus(power12, "wv_single_plus_12m")).toBe("current-with-essentials");
    expect(planStatus(power1, "wv_single_plus_12m")).toBe("available");
  });
});

describe("seats", () => {
  it("starts multi-user plans at their included seats", () => {
    expect(minimumSeats({ multiUser: true, includedSeats: 3 })).toBe(3);
    expect(minimumSeats({ multiUser: true, includedSeats: 30 })).toBe(30);
    expect(minimumSeats({ multiUser: false, includedSeats: -1 })).toBeNull();
    expect(quoteHref(60000)).toBe("/orders?seats=60000");
  });
});

describe("managedReason", () => {
  const paying = {
    isUserEnterpriseMember: false,
    isEnterpriseAdmin: false,
    isPurchaseOrder: false,
    isManagedAccount: false,
    orderState: "automatic",
  };
  it("lets a self-serve account buy", () => {
    expect(managedReason(paying)).toBeNull();
    expect(
      managedReason({ ...paying, isUserEnterpriseMember: true, isEnterpriseAdmin: true }),
    ).toBeNull();
  });
  it("tells members, purchase-order, pilot and promo accounts why and whom to ask", () => {
    expect(managedReason({ ...paying, isUserEnterpriseMember: true })?.ask).toMatch(/owner/);
    expect(managedReason({ ...paying, isPurchaseOrder: true })?.why).toMatch(/purchase order/);
    expect(managedReason({ ...paying, orderState: "pilot" })?.why).toMatch(/pilot/);
    expect(managedReason({ ...paying, orderState: "promo" })?.why).toMatch(/promotional/);
  });
});
