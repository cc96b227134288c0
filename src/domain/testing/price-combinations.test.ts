import { describe, expect, it } from "vitest";
import {
  makeCampaign,
  makeCatalog,
  makePlan,
  makeSeatBand,
  makeSeatStructure,
} from "./builders.ts";
import {
  campaignTimes,
  priceCombinations,
  purchasablePlans,
  seatEdges,
} from "./price-combinations.ts";

const NOW = Date.UTC(2026, 0, 15);
const FROM = Date.UTC(2026, 10, 27);
const TO = Date.UTC(2026, 11, 1);

const schools = makePlan({
  code: "wv_k12_12m",
  family: "schools",
  name: "Schools",
  multiUser: true,
  includedSeats: 30,
  minSeats: 30,
  price: 37400,
  seatStructure: "k12",
});
const structure = makeSeatStructure({
  id: "k12",
  appliesTo: ["wv_k12_12m"],
  minimumSeats: 30,
  bands: [
    makeSeatBand({ from: 1, to: 30, total: 37400 }),
    makeSeatBand({ from: 31, to: 100, perSeat: 1199 }),
  ],
});
const business = makePlan({
  code: "wv_bizoct17_12m",
  family: "business",
  name: "Business",
  multiUser: true,
  includedSeats: 3,
  maxSeats: 999,
  seatPrice: 23988,
  price: 44388,
});
const power = makePlan();
const trial = makePlan({ code: "wv_unlimited_trial", isTrial: true, price: 0 });
const legacy = makePlan({ code: "wv_unlimited_12m", legacy: true, price: 9588 });
const publicSale = makeCampaign({
  id: "sale",
  coupon: "Sale",
  validFrom: FROM,
  validTo: TO,
  prices: { wv_single_12m: 2994, wv_bizoct17_12m: 33291 },
});
const catalog = makeCatalog({
  plans: [power, business, schools, trial, legacy],
  seatStructures: [structure],
  campaigns: [publicSale],
});

describe("seat edges", () => {
  it("crosses every band edge and either side of it, the minimum and each band's middle", () => {
    expect([...seatEdges(catalog, schools).keys()]).toEqual([
      1, 2, 15, 29, 30, 31, 32, 65, 99, 100, 101,
    ]);
    expect(seatEdges(catalog, schools).get(31)).toEqual([
      "minimum 30 + 1",
      "band 1-30 to + 1",
      "band 31-100 from",
    ]);
  });

  it("crosses the included seats and the maximum of a plan that sells extra seats", () => {
    expect([...seatEdges(catalog, business).keys()]).toEqual([1, 2, 3, 4, 501, 998, 999, 1000]);
  });

  it("prices a single-user plan at one seat and at two, which it must refuse", () => {
    expect([...seatEdges(catalog, power)]).toEqual([
      [1, ["single user"]],
      [2, ["single user, one seat too many"]],
    ]);
  });
});

describe("campaign times", () => {
  it("is each edge, a millisecond either side, and the middle of the window", () => {
    expect([...campaignTimes([publicSale].map((c) => c)).keys()]).toEqual([
      FROM - 1,
      FROM,
      FROM + 1,
      FROM + (TO - FROM) / 2,
      TO - 1,
      TO,
      TO + 1,
    ]);
  });
});

describe("price combinations", () => {
  const combos = priceCombinations(catalog, NOW);

  it("buys only what the web sells: no trial, no legacy plan, nothing free", () => {
    expect(purchasablePlans(catalog).map((p) => p.code)).toEqual([
      "wv_single_12m",
      "wv_bizoct17_12m",
      "wv_k12_12m",
    ]);
    expect(combos.some((c) => c.plan === trial.code || c.plan === legacy.code)).toBe(false);
  });

  it("has each plan at every seat edge now, and at every campaign time with default seats", () => {
    for (const n of seatEdges(catalog, schools).keys()) {
      expect(combos).toContainEqual(
        expect.objectContaining({ plan: "wv_k12_12m", seats: n, coupon: null, atMs: NOW }),
      );
    }
    for (const atMs of [...campaignTimes([publicSale]).keys(), NOW]) {
      for (const plan of ["wv_single_12m", "wv_bizoct17_12m", "wv_k12_12m"]) {
        expect(combos).toContainEqual(
          expect.objectContaining({ plan, seats: null, coupon: null, atMs }),
        );
      }
    }
  });

  it("tries each coupon at its edges and now, on the plans it prices and on one it does not", () => {
    const withCoupon = combos.filter((c) => c.coupon === "sale");
    expect(new Set(withCoupon.map((c) => c.plan))).toEqual(
      new Set(["wv_single_12m", "wv_bizoct17_12m", "wv_k12_12m"]),
    );
    expect(withCoupon.filter((c) => c.plan === "wv_k12_12m" && c.seats === null)).toHaveLength(8);
    expect(withCoupon.find((c) => c.plan === "wv_k12_12m")?.because.join(" ")).toContain(
      "(not priced)",
    );
  });

  it("crosses the seat edges of a multi-seat plan a campaign prices with the campaign's times", () => {
    const inWindow = combos.filter(
      (c) => c.plan === "wv_bizoct17_12m" && c.atMs === FROM && c.seats !== null,
    );
    expect(inWindow.map((c) => c.seats)).toEqual([1, 2, 3, 4, 501, 998, 999, 1000]);
    // A public campaign needs no coupon; a targeted one is crossed with its coupon.
    expect(inWindow.every((c) => c.coupon === null)).toBe(true);
    const targeted = priceCombinations(
      makeCatalog({ ...catalog, campaigns: [{ ...publicSale, targeted: true }] }),
      NOW,
    );
    expect(
      targeted.filter((c) => c.plan === "wv_bizoct17_12m" && c.atMs === FROM && c.seats === 999),
    ).toEqual([expect.objectContaining({ coupon: "sale" })]);
  });

  it("lists each combination once, ordered by time, with every reason it was chosen", () => {
    const keys = combos.map((c) => `${c.plan}|${c.seats}|${c.coupon}|${c.atMs}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(combos.map((c) => c.atMs)).toEqual([...combos.map((c) => c.atMs)].sort((a, b) => a - b));
    const both = combos.find(
      (c) => c.plan === "wv_bizoct17_12m" && c.seats === 3 && c.atMs === FROM && c.coupon === null,
    );
    expect(both?.because).toEqual(["sale at sale validFrom with seats 3 (3 included)"]);
  });

  it("is the same list however often it is made", () => {
    expect(priceCombinations(catalog, NOW)).toEqual(combos);
  });
});
