// The account page's plan in words (issue 22, item 1; issue 33, items 7 and 9).
import { describe, expect, it } from "vitest";
import { afterPurchaseNote } from "../domain/account/after-purchase.ts";
import { accountPlan } from "./account-plan.ts";

const base = {
  productCode: "wv_unloct17_12m",
  subscriptionName: "Unlimited",
  TermDurationMonths: 12,
  orderState: "automatic",
  nextRenewal: { at: Date.UTC(2027, 10, 25), amount: 9588, tax: 0, termMonths: 12 },
  validUntil: null,
  FreeProduct: "wv_free",
};

const flex = {
  ...base,
  productCode: "wv_flex2",
  subscriptionName: "Flex",
  nextRenewal: null,
  validUntil: Date.UTC(2027, 11, 7),
};

describe("accountPlan", () => {
  it("names a paying plan and how it is billed, with the next renewal", () => {
    expect(accountPlan(base)).toEqual({
      name: "Unlimited",
      plan: "Unlimited, billed annually",
      status: "renews automatically",
      renewsOn: "November 25, 2027",
      renewalAmount: "$95.88 every year (no tax)",
      validUntil: null,
      essentialsUntil: null,
    });
    expect(
      accountPlan({ ...base, productCode: "wv_unloct17_1m", TermDurationMonths: 1 }).plan,
    ).toBe("Unlimited, billed monthly");
  });

  it("says the renewal amount with its tax, as one number (issue 33, item 9)", () => {
    const taxed = { ...base, nextRenewal: { ...base.nextRenewal, amount: 150515, tax: 10175 } };
    expect(accountPlan(taxed).renewalAmount).toBe("$1,505.15 every year (tax included)");
    expect(afterPurchaseNote(taxed)).toBe(
      "Next renewal: November 25, 2027, $1,505.15 every year (tax included). Cancel any time from your account.",
    );
  });

  it("says Free for the free plan, and no renewal for a plan that does not renew", () => {
    expect(accountPlan({ ...base, productCode: "wv_free", subscriptionName: "Free" })).toEqual({
      name: "Free",
      plan: "Free",
      status: "free",
      renewsOn: null,
      renewalAmount: null,
      validUntil: null,
      essentialsUntil: null,
    });
    expect(accountPlan({ ...base, orderState: "cancelled" })).toEqual({
      name: "Unlimited",
      plan: "Unlimited",
      status: "cancelled",
      renewsOn: null,
      renewalAmount: null,
      validUntil: null,
      essentialsUntil: null,
    });
  });

  it("says Flex is paid once and valid until a day, with no renewal (issue 33, item 7)", () => {
    expect(accountPlan(flex)).toEqual({
      name: "Flex",
      plan: "Flex, paid once",
      status: "paid once, does not renew",
      renewsOn: null,
      renewalAmount: null,
      validUntil: "December 7, 2027",
      essentialsUntil: null,
    });
    expect(afterPurchaseNote(flex)).toBe(
      "Paid once: valid until December 7, 2027. It does not renew and nothing more is charged.",
    );
  });

  it("says until when a cancelled Essentials stays (issue 33, item 8)", () => {
    const cancelled = {
      ...base,
      productCode: "wv_unloct17_plus_12m",
      essentialsInfo: { hasEssentials: true, endsAt: Date.UTC(2027, 10, 25) },
    };
    expect(accountPlan(cancelled).essentialsUntil).toBe(
      "Until November 25, 2027; your plan then renews without it",
    );
    expect(
      accountPlan({ ...cancelled, essentialsInfo: { hasEssentials: true, endsAt: null } })
        .essentialsUntil,
    ).toBeNull();
  });

  it("never shows a code", () => {
    expect(accountPlan({ ...base, subscriptionName: "wv_unloct17_12m" }).plan).toBe(
      "Your plan, billed annually",
    );
  });
});
