import { describe, expect, it } from "vitest";
import { makePlan, makeSeatStructure } from "../testing/builders.ts";
import { type PaidPeriod, paidPeriodChanges } from "./index.ts";

const START = Date.UTC(2026, 1, 15);
const END = Date.UTC(2026, 2, 15);
const catalog = {
  plans: [
    makePlan({ code: "team_1m", multiUser: true, termDuration: 1 }),
    makePlan({ code: "solo_1m", multiUser: false, termDuration: 1 }),
  ],
};
const structure = makeSeatStructure({ id: "bands-2026" });

function period(overrides: Partial<PaidPeriod> = {}): PaidPeriod {
  return {
    anchor: Date.UTC(2026, 0, 15),
    index: 1,
    termMonths: 1,
    scheduledChange: false,
    productCode: "team_1m",
    seats: 4,
    periodStart: START,
    periodEnd: END,
    orderId: "ord_1",
    paidCents: 11398,
    basis: {
      productCode: "team_1m",
      price: 7399,
      seatPrice: 3999,
      seatStructure: null,
      recordedAt: START,
    },
    ...overrides,
  };
}

describe("paidPeriodChanges", () => {
  it("moves the subscription to the period paid and leaves the workspace alone when nothing changed", () => {
    const { subscription, workspace } = paidPeriodChanges(catalog, period());
    expect(subscription).toEqual({
      productCode: "team_1m",
      orderId: "ord_1",
      orderStart: START,
      orderEnd: END,
      termMonths: 1,
      seats: 4,
      paidCents: 11398,
      periodAnchor: Date.UTC(2026, 0, 15),
      periodIndex: 1,
      priceBasis: period().basis,
    });
    expect(workspace).toBeNull();
  });

  it("applies a scheduled change: nothing left pending, the team's workspace gets its product and seats", () => {
    const { subscription, workspace } = paidPeriodChanges(
      catalog,
      period({ scheduledChange: true }),
    );
    expect(subscription).toMatchObject({
      pendingProductCode: null,
      pendingSeats: null,
      pendingAt: null,
      recurringCampaign: null,
    });
    expect(workspace).toEqual({ productCode: "team_1m", maxSeats: 4 });
  });

  it("records the seat structure a team is priced by, and keeps the recorded prices when none are known", () => {
    const banded = period({
      basis: { ...(period().basis as NonNullable<PaidPeriod["basis"]>), seatStructure: structure },
    });
    expect(paidPeriodChanges(catalog, banded).workspace).toEqual({
      licensePricingStructure: "bands-2026",
    });
    expect(
      paidPeriodChanges(catalog, period({ basis: undefined })).subscription,
    ).not.toHaveProperty("priceBasis");
  });

  it("writes no workspace for a one-person plan, even when a change to it takes effect", () => {
    const solo = period({ productCode: "solo_1m", seats: 1, scheduledChange: true });
    expect(paidPeriodChanges(catalog, solo).workspace).toBeNull();
  });
});
