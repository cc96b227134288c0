import { describe, expect, it } from "vitest";
import { makePlan, makeSpecCatalog } from "../domain/testing/builders.ts";
import { plansPageModel } from "./plans-page.ts";

const nowMs = Date.UTC(2026, 5, 1);
const free = makePlan({
  code: "wv_free",
  family: "free",
  name: "Free",
  price: 0,
  recurring: false,
  order: -1,
});
const base = makeSpecCatalog();
const catalog = makeSpecCatalog({
  plans: [free, ...base.plans],
  testimonials: {
    personal: [{ quote: "Personal quote", role: "Creator" }],
    business: [{ quote: "Business quote", role: "Manager" }],
    teacher: [{ quote: "Teacher quote", role: "Teacher" }],
  },
});

describe("plansPageModel", () => {
  const model = plansPageModel(catalog, nowMs, { variant: "plans", tab: "business" });
  const tab = (id: string) => model.tabs.find((t) => t.id === id);

  it("has the personal, business and education tabs, with the asked one open", () => {
    expect(model.tabs.map((t) => t.id)).toEqual(["personal", "business", "education"]);
    expect(model.openTab).toBe("business");
    expect(plansPageModel(catalog, nowMs, { variant: "plans" }).openTab).toBe("personal");
  });

  it("puts each family on its category's tab, once, without the free plan on /plans", () => {
    expect(tab("personal")?.cards.map((c) => c.id)).toEqual([
      "power",
      "unlimited",
      "professional",
      "flex",
    ]);
    expect(tab("business")?.cards.map((c) => c.id)).toEqual(["business"]);
    expect(tab("education")?.cards.map((c) => c.id)).toEqual(["schools"]);
  });

  it("adds the free plan on the logged-out pricing page", () => {
    const pricing = plansPageModel(catalog, nowMs, { variant: "pricing" });
    expect(pricing.tabs[0]?.cards[0]?.id).toBe("free");
    expect(pricing.heading).toBe("Pricing");
  });

  it("shows each audience's testimonials on its tab", () => {
    expect(tab("personal")?.testimonials.map((t) => t.quote)).toEqual(["Personal quote"]);
    expect(tab("education")?.testimonials.map((t) => t.quote)).toEqual(["Teacher quote"]);
  });

  it("says which tabs have a monthly/annual choice and the best yearly saving", () => {
    expect(model.tabs.map((t) => t.hasBillingSwitch)).toEqual([true, true, false]);
    expect(model.billing.options.map((o) => [o.id, o.hint])).toEqual([
      ["annual", "save up to 50%"],
      ["monthly", null],
    ]);
  });

  it("lists single exports with a checkout link and the export upgrades", () => {
    expect(model.extras.singleExports.items).toEqual([
      {
        name: "HD export",
        price: "$2.99",
        cta: {
          href: "/cart?p=buy&product=single_export_hd&tier=personal#checkout_single_export",
          label: "Buy HD export",
        },
      },
      {
        name: "4K export",
        price: "$4.99",
        cta: {
          href: "/cart?p=buy&product=single_export_4k&tier=personal#checkout_single_export",
          label: "Buy 4K export",
        },
      },
    ]);
    expect(model.extras.exportUpgrades.items).toEqual([
      "0.5 hours for $6.00",
      "1 hour for $10.00",
      "2 hours for $18.00",
    ]);
  });
});
