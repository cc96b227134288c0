import { describe, expect, it } from "vitest";
import { makeSpecCatalog } from "../testing/builders.ts";
import type { PriceChange } from "./diff.ts";
import { impactOf, type SubscriptionGroup } from "./impact.ts";

const catalog = makeSpecCatalog();
const group = (overrides: Partial<SubscriptionGroup>): SubscriptionGroup => ({
  productCode: "wv_single_12m",
  seats: 1,
  recurringCampaign: null,
  priceGroup: null,
  count: 1,
  ...overrides,
});
const groups = [
  group({ count: 7 }),
  group({ priceGroup: "sample", count: 2 }),
  group({ productCode: "wv_single_plus_12m", count: 3 }),
  group({ productCode: "wv_bizoct17_12m", seats: 3, count: 4 }),
  group({ productCode: "wv_bizoct17_12m", seats: 5, count: 5 }),
  group({ productCode: "wv_bizoct17_12m", seats: 5, priceGroup: "sample", count: 6 }),
  group({ productCode: "wv_k12_12m", seats: 30, count: 8 }),
  group({ productCode: "wv_k12_12m", seats: 120, count: 9 }),
  group({ productCode: "wv_unloct17_1m", recurringCampaign: "loyal", count: 10 }),
];
const change = (overrides: Partial<PriceChange>): PriceChange => ({
  kind: "plan",
  item: "wv_single_12m",
  field: "price",
  priceSet: null,
  seats: null,
  before: 5988,
  after: 7188,
  percent: 20,
  ...overrides,
});
const count = (c: Partial<PriceChange>) => impactOf(change(c), catalog, groups);

describe("impact of a price change on active subscriptions", () => {
  it("counts the plan's subscriptions in the price set the change is in", () => {
    // Power has no price-set override: the sample group pays the default price too.
    expect(count({})).toBe(9);
    // Business has one: the default change misses the sample group, the set's change reaches only it.
    expect(count({ item: "wv_bizoct17_12m" })).toBe(9);
    expect(count({ item: "wv_bizoct17_12m", priceSet: "sample" })).toBe(6);
  });

  it("counts only the teams that pay for extra seats when the extra-seat price changes", () => {
    expect(count({ item: "wv_bizoct17_12m", field: "seatPrice" })).toBe(5);
  });

  it("counts a seat band's change for every school at or above the band", () => {
    expect(
      count({ kind: "seatBand", item: "k12-2024-01", field: "perSeat", seats: "31-100" }),
    ).toBe(9);
    expect(count({ kind: "seatBand", item: "k12-2024-01", field: "total", seats: "1-30" })).toBe(
      17,
    );
  });

  it("counts the essentials variants for an add-on, recurring campaign buyers for a campaign", () => {
    expect(count({ kind: "essentials", item: "wv_essentials_12m" })).toBe(3);
    expect(count({ kind: "campaign", item: "loyal", field: "wv_unloct17_1m" })).toBe(10);
  });

  it("has no subscriptions to count for one-off exports", () => {
    expect(count({ kind: "export", item: "single_export_hd" })).toBeNull();
  });
});
