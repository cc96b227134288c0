import { describe, expect, it } from "vitest";
import { makeCampaign, makePlan, makeSpecCatalog } from "../domain/testing/builders.ts";
import { type CardContext, type PlanCard, planCard } from "./plan-card.ts";
import { validityLabel } from "./price-views.ts";

const nowMs = Date.UTC(2026, 5, 1);
const ctx: CardContext = { nowMs, variant: "plans" };

function card(
  family: string,
  overrides: Partial<CardContext> = {},
  catalog = makeSpecCatalog(),
): PlanCard {
  const built = planCard(catalog, family, { ...ctx, ...overrides });
  if (built === null) throw new Error(`no card for ${family}`);
  return built;
}

const option = (c: PlanCard, mode: string) => {
  const found = c.options.find((o) => o.mode === mode);
  if (!found) throw new Error(`no ${mode} option`);
  return found;
};

describe("planCard prices", () => {
  it("shows Power annual as a monthly equivalent billed yearly, with the savings", () => {
    const annual = option(card("power"), "annual");
    expect(annual.price).toEqual({
      amount: "$4.99",
      unit: "/month",
      detail: "billed $59.88 yearly",
    });
    expect(annual.savings).toBe("Save 50%");
    expect(annual.code).toBe("wv_single_12m");
  });

  it("shows Power monthly at its monthly price, without savings", () => {
    const monthly = option(card("power"), "monthly");
    expect(monthly.price).toEqual({ amount: "$9.99", unit: "/month", detail: "billed monthly" });
    expect(monthly.savings).toBeNull();
  });

  it("offers Power with essentials for each term, with the add-on price", () => {
    const power = card("power");
    expect(option(power, "monthly").essentials).toEqual({
      text: "With Essentials: $29.98/month",
      note: "Essentials $19.99/month",
      cta: {
        href: "/cart?p=buy&product=wv_single_plus_1m&tier=personal#checkout",
        label: "Buy Power with Essentials",
      },
    });
    expect(option(power, "annual").essentials?.text).toBe("With Essentials: $179.76/year");
    expect(option(power, "annual").essentials?.note).toBe("Essentials $119.88/year");
  });

  it("shows Business seats: 3 included, extra seats per term and per month", () => {
    const business = card("business");
    expect(business.seatsIncluded).toBe("3 seats included");
    expect(option(business, "annual").price.amount).toBe("$36.99");
    expect(option(business, "annual").notes).toEqual([
      "Extra seats $239.88/year each ($19.99/month)",
    ]);
    expect(option(business, "monthly").notes).toEqual(["Extra seats $39.99/month each"]);
  });

  it("shows the sample price set when asked (both readings of spec section 9 hold)", () => {
    const professional = card("professional", { priceGroup: "sample" });
    expect(option(professional, "monthly").price.amount).toBe("$35.99");
    expect(option(professional, "annual").price.detail).toBe("billed $215.88 yearly");
    const business = card("business", { priceGroup: "sample" });
    expect(option(business, "monthly").price.amount).toBe("$59.99");
    expect(option(business, "annual").price.detail).toBe("billed $359.88 yearly");
    expect(option(business, "annual").notes).toEqual([
      "Extra seats $239.88/year each ($19.99/month)",
    ]);
  });

  it("shows Flex as a one-time price valid one year", () => {
    const flex = card("flex");
    expect(flex.options).toHaveLength(1);
    expect(option(flex, "always").price).toEqual({
      amount: "$29.99",
      unit: "one-time",
      detail: "valid 1 year",
    });
  });

  it("shows the schools plan at its 30-seat band total, bought through the calculator", () => {
    const schools = card("schools");
    const [main, half] = schools.options;
    expect(main?.code).toBe("wv_k12_12m");
    expect(main?.price).toEqual({ amount: "$374.00", unit: "/year", detail: "for 30 seats" });
    expect(main?.cta).toBeNull();
    expect(schools.calculator?.initialTotal).toBe("$374.00");
    expect(schools.seatsIncluded).toBeNull();
    expect(half?.heading).toBe("Or pay every 6 months");
    expect(half?.cta?.label).toBe("Buy Schools for 6 months");
    expect(half?.notes).toEqual(["Extra seats $4.99/6 months each ($0.83/month)"]);
  });

  it("gives the premium-templates line by the plan's rule", () => {
    expect(card("power").templates).toEqual({ text: "All premium templates", note: null });
    expect(card("business").templates.text).toBe(
      "Includes Personal, Business and Education templates",
    );
  });
});

describe("planCard calls to action", () => {
  it("buys the variant of each switch position on /plans", () => {
    const power = card("power");
    expect(option(power, "annual").cta).toEqual({
      href: "/cart?p=buy&product=wv_single_12m&tier=personal#checkout",
      label: "Buy Power",
    });
    expect(option(power, "monthly").cta?.href).toBe(
      "/cart?p=buy&product=wv_single_1m&tier=personal#checkout",
    );
  });

  it("starts the trial on /pricing when the plan has one", () => {
    const catalog = makeSpecCatalog();
    catalog.plans = catalog.plans.map((p) =>
      p.family === "business" ? { ...p, trialProduct: "wv_bizoct17_trial", trialDuration: 14 } : p,
    );
    const business = card("business", { variant: "pricing" }, catalog);
    expect(option(business, "annual").cta).toEqual({
      href: "/cart?p=trial&product=wv_bizoct17_12m&tier=business#checkout",
      label: "Try Business free for 14 days",
    });
  });

  it("signs up for the free plan", () => {
    const catalog = makeSpecCatalog({
      plans: [
        makePlan({
          code: "wv_free",
          family: "free",
          name: "Free",
          price: 0,
          recurring: false,
          showYearly: false,
        }),
      ],
    });
    const free = card("free", { variant: "pricing" }, catalog);
    expect(option(free, "always").cta).toEqual({
      href: "/cart?p=buy&product=wv_free&tier=personal#signup",
      label: "Sign up free",
    });
    expect(option(free, "always").price.amount).toBe("$0.00");
  });
});

describe("planCard campaigns", () => {
  const campaign = makeCampaign({
    name: "Black Friday",
    validFrom: Date.UTC(2026, 10, 27),
    validTo: Date.UTC(2026, 11, 1),
    prices: { wv_single_12m: 2994 },
  });
  const catalog = makeSpecCatalog({ campaigns: [campaign] });
  const window = `${campaign.validFrom} ${campaign.validTo}`;

  it("carries a campaign that opens after the build, hidden until its window", () => {
    const annual = option(card("power", { nowMs: Date.UTC(2026, 10, 20) }, catalog), "annual");
    expect(annual.campaigns).toEqual([
      {
        name: "Black Friday",
        window,
        visibleAtBuild: false,
        price: { amount: "$2.50", unit: "/month", detail: "billed $29.94 for the first year" },
        was: "$4.99",
        discount: "Save $29.94",
        offerPrice: "29.94",
        validToMs: campaign.validTo,
      },
    ]);
    expect(annual.regularHiddenDuring).toBe(window);
    // Not running at build: schema.org's offer is the regular price.
    expect(annual.offer).toMatchObject({ price: "59.88", campaign: null });
    expect(annual.regularHiddenAtBuild).toBe(false);
  });

  it("shows the campaign instead of the regular price when built inside the window", () => {
    const annual = option(card("power", { nowMs: campaign.validFrom }, catalog), "annual");
    expect(annual.campaigns[0]?.visibleAtBuild).toBe(true);
    expect(annual.regularHiddenAtBuild).toBe(true);
    expect(annual.offer).toMatchObject({
      price: "29.94",
      campaign: { validUntil: "2026-11-30", regularPrice: "59.88" },
    });
  });

  it("leaves the campaign out when built after it closed (validTo is exclusive)", () => {
    const annual = option(card("power", { nowMs: campaign.validTo }, catalog), "annual");
    expect(annual.campaigns).toEqual([]);
    expect(annual.regularHiddenDuring).toBe("");
  });

  it("ignores targeted campaigns: anonymous visitors have no coupon", () => {
    const targeted = makeSpecCatalog({ campaigns: [{ ...campaign, targeted: true }] });
    expect(
      option(card("power", { nowMs: Date.UTC(2026, 10, 20) }, targeted), "annual").campaigns,
    ).toEqual([]);
  });

  it("does not touch the other switch position", () => {
    expect(
      option(card("power", { nowMs: campaign.validFrom }, catalog), "monthly").campaigns,
    ).toEqual([]);
  });
});

describe("validityLabel", () => {
  it("words months and years", () => {
    expect([12, 24, 6, 1].map(validityLabel)).toEqual(["1 year", "2 years", "6 months", "1 month"]);
  });
});
