import { describe, expect, it } from "vitest";
import { endedState } from "../renewals/schedule.ts";
import { makePlan } from "../testing/builders.ts";
import {
  entitlementsOf,
  joinableSeats,
  type PaidFacts,
  paidNow,
  planFeatures,
  teamPaidNow,
} from "./entitlements.ts";

const NOW = Date.UTC(2026, 0, 15, 12);
const DAY = 86_400_000;

const plans = [
  makePlan({ code: "wv_free", price: 0, maxPublishResolution: "720p", screenCapture: false }),
  makePlan({
    code: "wv_bizoct17_12m",
    multiUser: true,
    includedSeats: 3,
    maxPublishResolution: "2160p",
  }),
  makePlan({
    code: "wv_bizoct17_trial",
    multiUser: true,
    includedSeats: 3,
    isTrial: true,
    screenCapture: false,
    maxPublishResolution: "2160p",
  }),
  makePlan({ code: "wv_single_12m", multiUser: false, maxPublishResolution: "1080p" }),
  makePlan({ code: "wv_k12_12m", multiUser: true, maxPublishResolution: "1080p" }),
];

const free: PaidFacts = {
  productCode: "wv_free",
  orderState: "unknown",
  covidPromotion: false,
  orderEnd: null,
  expired: false,
  seats: 1,
  pendingProductCode: null,
  pendingSeats: null,
  pendingAt: null,
  exportCredits: 0,
};
const business: PaidFacts = {
  ...free,
  productCode: "wv_bizoct17_12m",
  orderState: "automatic",
  orderEnd: NOW + 100 * DAY,
  seats: 6,
};
const businessTrial: PaidFacts = {
  ...free,
  productCode: "wv_bizoct17_trial",
  orderState: "trial",
  orderEnd: NOW + 5 * DAY,
  seats: 3,
};
/** What the renewal worker writes when a subscription ends (lapse, cancel run out). */
const ended = (facts: PaidFacts): PaidFacts => {
  const e = endedState({ orderState: facts.orderState, prevOrderState: null });
  return {
    ...facts,
    productCode: e.productCode,
    orderState: e.orderState,
    expired: true,
    seats: 1,
  };
};
/** What convert to free and cancel trial write (services/orders.ts convertToFree). */
const convertedToFree = (facts: PaidFacts): PaidFacts => ({
  ...facts,
  productCode: "wv_free",
  orderState: "cancelled",
  orderEnd: NOW,
  seats: 1,
});

describe("paidNow: what a subscription pays for at this moment", () => {
  it.each<[string, PaidFacts, ReturnType<typeof paidNow>]>([
    ["the free plan", free, null],
    ["a running automatic subscription", business, { productCode: "wv_bizoct17_12m", seats: 6 }],
    [
      "an automatic one past its date, in the retries of a refused renewal",
      { ...business, orderEnd: NOW - 2 * DAY },
      { productCode: "wv_bizoct17_12m", seats: 6 },
    ],
    ["a lapse after dunning (ended)", ended(business), null],
    ["a refund or dispute that ended the subscription", { ...business, expired: true }, null],
    ["a running trial", businessTrial, { productCode: "wv_bizoct17_trial", seats: 3 }],
    ["an expired trial (end date passed)", { ...businessTrial, orderEnd: NOW - 1 }, null],
    ["a trial ending exactly now", { ...businessTrial, orderEnd: NOW }, null],
    ["a cancelled trial (convert to free)", convertedToFree(businessTrial), null],
    [
      "a cancelled subscription until its period end",
      { ...business, orderState: "cancelled" },
      { productCode: "wv_bizoct17_12m", seats: 6 },
    ],
    [
      "a cancelled subscription after its period end",
      { ...business, orderState: "cancelled", orderEnd: NOW - 1 },
      null,
    ],
    [
      "a scheduled downgrade before its date",
      { ...business, pendingProductCode: "wv_single_12m", pendingSeats: 1, pendingAt: NOW + DAY },
      { productCode: "wv_bizoct17_12m", seats: 6 },
    ],
    [
      "a scheduled downgrade from its date",
      { ...business, pendingProductCode: "wv_single_12m", pendingSeats: 1, pendingAt: NOW },
      { productCode: "wv_single_12m", seats: 1 },
    ],
    [
      "a scheduled seat reduction from its date",
      { ...business, pendingProductCode: "wv_bizoct17_12m", pendingSeats: 3, pendingAt: NOW - 1 },
      { productCode: "wv_bizoct17_12m", seats: 3 },
    ],
    [
      "a purchase order without an end date",
      { ...business, productCode: "wv_k12_12m", orderState: "purchaseOrder", orderEnd: null },
      { productCode: "wv_k12_12m", seats: 6 },
    ],
    [
      "a purchase order past its end date",
      { ...business, productCode: "wv_k12_12m", orderState: "purchaseOrder", orderEnd: NOW - 1 },
      null,
    ],
    [
      "a covid pilot (a trial) until its end",
      { ...business, orderState: "pilot", covidPromotion: true },
      { productCode: "wv_bizoct17_12m", seats: 6 },
    ],
    ["an unknown state with a product", { ...business, orderState: "unknown" }, null],
  ])("%s", (_, facts, expected) => {
    expect(paidNow(facts, NOW)).toEqual(expected);
  });
});

describe("teamPaidNow: a team has what its owner pays for now, if it is a team plan", () => {
  it.each<[string, PaidFacts | null, { productCode: string | null; seats: number }]>([
    ["a paying Business owner", business, { productCode: "wv_bizoct17_12m", seats: 6 }],
    ["a Business trial", businessTrial, { productCode: "wv_bizoct17_trial", seats: 3 }],
    [
      "an expired Business trial",
      { ...businessTrial, orderEnd: NOW - 1 },
      { productCode: null, seats: 0 },
    ],
    ["a cancelled trial", convertedToFree(businessTrial), { productCode: null, seats: 0 }],
    [
      "a switch to Power (one person) once it takes effect",
      { ...business, pendingProductCode: "wv_single_12m", pendingSeats: 1, pendingAt: NOW },
      { productCode: null, seats: 0 },
    ],
    [
      "an owner on Power",
      { ...business, productCode: "wv_single_12m" },
      { productCode: null, seats: 0 },
    ],
    ["a lapse after dunning", ended(business), { productCode: null, seats: 0 }],
    ["convert to free", convertedToFree(business), { productCode: null, seats: 0 }],
    ["no owner", null, { productCode: null, seats: 0 }],
  ])("%s", (_, owner, expected) => {
    expect(teamPaidNow(owner, plans, NOW)).toEqual(expected);
  });
});

describe("entitlementsOf: one answer for every read of what an account uses", () => {
  it("gives a member the team's plan, seats and features while the owner pays for it", () => {
    const e = entitlementsOf({ own: free, team: { owner: business }, plans, now: NOW });
    expect(e).toMatchObject({
      source: "team",
      productCode: "wv_bizoct17_12m",
      seats: 6,
      maxExportResolution: "2160p",
      teamManagement: true,
    });
    expect(e.features).toContain("Publish4K");
  });

  it.each<[string, PaidFacts]>([
    ["trial expiry", { ...businessTrial, orderEnd: NOW - 1 }],
    ["trial cancel", convertedToFree(businessTrial)],
    [
      "a scheduled switch to Power taking effect",
      { ...business, pendingProductCode: "wv_single_12m", pendingSeats: 1, pendingAt: NOW },
    ],
    ["a lapse after dunning", ended(business)],
    ["a refund or dispute", { ...business, expired: true }],
    ["convert to free", convertedToFree(business)],
  ])("drops a member to their own (free) plan on %s", (_, owner) => {
    const e = entitlementsOf({ own: free, team: { owner }, plans, now: NOW });
    expect(e).toMatchObject({
      source: "free",
      productCode: "wv_free",
      seats: 1,
      maxExportResolution: "720p",
      teamManagement: false,
      features: ["Publish720p"],
    });
  });

  it("drops the owner with the team on each of these paths", () => {
    const owner = { ...businessTrial, orderEnd: NOW - 1 };
    expect(entitlementsOf({ own: owner, team: null, plans, now: NOW }).productCode).toBe("wv_free");
  });

  it("falls back to a member's own subscription while it still runs", () => {
    const own = { ...business, productCode: "wv_single_12m", orderState: "cancelled", seats: 1 };
    const e = entitlementsOf({ own, team: { owner: ended(business) }, plans, now: NOW });
    expect(e).toMatchObject({ source: "own", productCode: "wv_single_12m", seats: 1 });
  });

  it("keeps a member's own export credits whatever the team has", () => {
    const own = { ...free, exportCredits: 2 };
    expect(entitlementsOf({ own, team: { owner: business }, plans, now: NOW }).exportCredits).toBe(
      2,
    );
    expect(entitlementsOf({ own, team: { owner: null }, plans, now: NOW }).exportCredits).toBe(2);
  });

  it("lists the features of a plan", () => {
    expect(planFeatures(plans[2] ?? null)).toEqual([
      "Publish4K",
      "TeamManagement",
      "TrialEmailVerification",
    ]);
    expect(planFeatures(null)).toEqual([]);
  });
});

describe("joinableSeats: no join beyond a scheduled seat reduction", () => {
  const reduction = {
    pendingProductCode: "wv_bizoct17_12m",
    pendingSeats: 3,
    pendingAt: NOW + DAY,
  };
  it.each<[string, PaidFacts | null, number]>([
    ["a paying team with nothing scheduled", business, 6],
    ["a team with a reduction to 3 scheduled", { ...business, ...reduction }, 3],
    [
      "a scheduled increase does not add seats before it is paid",
      { ...business, ...reduction, pendingSeats: 9 },
      6,
    ],
    [
      "a switch to a one-person plan scheduled: the owner's seat only",
      { ...business, ...reduction, pendingProductCode: "wv_single_12m", pendingSeats: 1 },
      1,
    ],
    ["a reduction in effect", { ...business, ...reduction, pendingAt: NOW }, 3],
    ["an expired trial", { ...businessTrial, orderEnd: NOW - 1 }, 0],
    ["no owner", null, 0],
  ])("%s: %i", (_, owner, expected) => {
    expect(joinableSeats(owner, plans, NOW)).toBe(expected);
  });
});
