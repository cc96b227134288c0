import { describe, expect, it } from "vitest";
import { paymentMethodOf } from "./payment-method.ts";
import {
  isBusinessCode,
  isEducationCode,
  resolveTier,
  tierForVertical,
  trialKindForTier,
  trialProductForTier,
} from "./tier.ts";

describe("tiers", () => {
  it("forces education and business from the product, else keeps a known tier", () => {
    expect(resolveTier({ tier: "business", productCode: "wv_k12_12m" })).toBe("education");
    expect(resolveTier({ tier: "personal", productCode: "wv_bizoct17_1m" })).toBe("business");
    expect(resolveTier({ tier: "unlimited" })).toBe("unlimited");
    expect(resolveTier({ tier: "enterprise" })).toBe("personal");
    expect(resolveTier({})).toBe("personal");
  });

  it("maps tiers to trial products", () => {
    expect(trialProductForTier("unlimited")).toBe("wv_unlimited_trial");
    expect(trialProductForTier("professional")).toBe("wv_bizindiv_trial");
    expect(trialProductForTier("business")).toBe("wv_bizoct17_trial");
    expect(trialProductForTier("education")).toBe("wv_edu_trial");
    expect(trialProductForTier("personal")).toBeNull();
    expect(trialKindForTier("education")).toBe("eduTrial");
    expect(tierForVertical("business")).toBe("business");
    expect(tierForVertical("education")).toBe("education");
  });

  it("classifies codes", () => {
    expect(isEducationCode("wv_k12_6m")).toBe(true);
    expect(isEducationCode("wv_teacher_12m")).toBe(true);
    expect(isEducationCode("wv_single_12m")).toBe(false);
    expect(isBusinessCode("wv_bizoct17_trial")).toBe(true);
    expect(isBusinessCode("wv_bizindiv_12m")).toBe(false);
  });
});

describe("payment method", () => {
  it("derives PayPal or card", () => {
    expect(paymentMethodOf({ paypalSubscriptionId: "I-1" })).toBe("paypal");
    expect(paymentMethodOf({ stripeId: "cus_1" })).toBe("cc");
    expect(paymentMethodOf({ stripeId: "cus_1", paymentMethod: "paypal" })).toBe("paypal");
    expect(paymentMethodOf({})).toBeNull();
  });
});
