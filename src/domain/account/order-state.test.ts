import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  effectiveOrderState,
  isCancelled,
  isExpiredTrial,
  isManagedAccount,
  ORDER_STATES,
  parseOrderState,
  remainingDays,
  upgradesDisabled,
} from "./order-state.ts";

const DAY = 86_400_000;
const now = Date.UTC(2026, 0, 15, 12);

describe("order state", () => {
  it("defaults anything unknown to unknown", () => {
    expect(parseOrderState("automatic")).toBe("automatic");
    expect(parseOrderState("AUTOMATIC")).toBe("unknown");
    expect(parseOrderState(undefined)).toBe("unknown");
  });

  it("treats a covid pilot as a trial", () => {
    expect(effectiveOrderState("pilot", true)).toBe("trial");
    expect(effectiveOrderState("pilot", false)).toBe("pilot");
    expect(effectiveOrderState("promo", true)).toBe("promo");
  });
});

describe("remaining days", () => {
  it("counts whole days, a part of a day as a day", () => {
    expect(remainingDays(now + 14 * DAY, now)).toBe(14);
    expect(remainingDays(now + 13 * DAY + 1, now)).toBe(14);
    expect(remainingDays(now, now)).toBe(0);
    expect(remainingDays(now - 1, now)).toBe(0);
    expect(remainingDays(now - DAY - 1, now)).toBe(-1);
    expect(remainingDays(null, now)).toBeNull();
  });
});

describe("expired trial", () => {
  const base = {
    orderState: "trial" as const,
    hasProductInfo: true,
    remainingDays: 5,
    orderEndDate: now + 5 * DAY,
    now,
  };

  it("is never expired for automatic orders", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.boolean(), fc.integer({ min: -100, max: 100 }), (a, b, days) => {
        expect(
          isExpiredTrial({
            ...base,
            orderState: "automatic",
            hasProductInfo: a,
            expiredAccount: b,
            remainingDays: days,
          }),
        ).toBe(false);
      }),
    );
  });

  it("follows each condition of spec section 4", () => {
    expect(isExpiredTrial(base)).toBe(false);
    expect(isExpiredTrial({ ...base, hasProductInfo: false })).toBe(true);
    expect(isExpiredTrial({ ...base, expiredAccount: true })).toBe(true);
    expect(isExpiredTrial({ ...base, expiredTrialFlag: true })).toBe(true);
    expect(isExpiredTrial({ ...base, remainingDays: 0 })).toBe(true);
    expect(
      isExpiredTrial({
        ...base,
        remainingDays: null,
        professionalTrial: true,
        orderEndDate: now - 1,
      }),
    ).toBe(true);
    expect(
      isExpiredTrial({
        ...base,
        remainingDays: null,
        professionalTrial: false,
        orderEndDate: now - 1,
      }),
    ).toBe(false);
  });
});

describe("cancelled", () => {
  it("is cancelled by state, or by negative days when not automatic", () => {
    expect(isCancelled({ orderState: "cancelled", remainingDays: 10 })).toBe(true);
    expect(isCancelled({ orderState: "trial", remainingDays: -1 })).toBe(true);
    expect(isCancelled({ orderState: "trial", remainingDays: 0 })).toBe(false);
    expect(isCancelled({ orderState: "automatic", remainingDays: -3 })).toBe(false);
  });
});

describe("managed accounts", () => {
  it("covers enterprise members, purchase orders, pilot and promo", () => {
    const managed = ORDER_STATES.filter((orderState) =>
      isManagedAccount({ enterpriseMember: false, orderState }),
    );
    expect(managed).toEqual(["pilot", "promo", "purchaseOrder"]);
    expect(isManagedAccount({ enterpriseMember: true, orderState: "automatic" })).toBe(true);
    expect(
      isManagedAccount({
        enterpriseMember: true,
        enterpriseAccountOwner: true,
        orderState: "automatic",
      }),
    ).toBe(false);
  });

  it("disables upgrades for mobile stores and the account flag", () => {
    const none = {
      disableAccountUpgrades: false,
      itunesSubscription: false,
      androidSubscription: false,
    };
    expect(upgradesDisabled(none)).toBe(false);
    expect(upgradesDisabled({ ...none, itunesSubscription: true })).toBe(true);
    expect(upgradesDisabled({ ...none, googleWalletSubscription: true })).toBe(true);
    expect(upgradesDisabled({ ...none, disableAccountUpgrades: true })).toBe(true);
  });
});
