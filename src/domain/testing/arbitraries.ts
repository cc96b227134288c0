// fast-check arbitraries for property tests: small random but valid catalogue pieces, so that
// thousands of runs stay fast. Built on the builders, so every object is complete.
import fc from "fast-check";
import type {
  CampaignEntry,
  Catalog,
  PlanEntry,
  SeatBandEntry,
  SeatStructure,
} from "../catalog/catalog-schema.ts";
import {
  makeCampaign,
  makeCatalog,
  makePlan,
  makeSeatBand,
  makeSeatStructure,
} from "./builders.ts";

type BandKind = { kind: "total"; step: number } | { kind: "perSeat"; perSeat: number };

const arbBandKind: fc.Arbitrary<BandKind> = fc.oneof(
  fc.record({ kind: fc.constant("total" as const), step: fc.integer({ min: 0, max: 20_000 }) }),
  fc.record({ kind: fc.constant("perSeat" as const), perSeat: fc.integer({ min: 0, max: 3_000 }) }),
);

/**
 * A valid seat structure: contiguous bands from seat 1, each a package or graduated, where a
 * package total is never below the total at the top of the band beneath it (the validator's rule).
 */
export function arbSeatStructure(
  appliesTo: string[] = ["wv_k12_12m"],
): fc.Arbitrary<SeatStructure> {
  return fc
    .record({
      bands: fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), arbBandKind), {
        minLength: 1,
        maxLength: 5,
      }),
      minimumSeats: fc.integer({ min: 1, max: 40 }),
    })
    .map(({ bands, minimumSeats }) => {
      const entries: SeatBandEntry[] = [];
      let from = 1;
      let top = 0;
      for (const [width, kind] of bands) {
        const to = from + width - 1;
        if (kind.kind === "total") {
          top += kind.step;
          entries.push(makeSeatBand({ from, to, total: top }));
        } else {
          top += width * kind.perSeat;
          entries.push(makeSeatBand({ from, to, perSeat: kind.perSeat }));
        }
        from = to + 1;
      }
      return makeSeatStructure({
        id: "random-bands",
        appliesTo,
        // The validator wants exactly one default structure per banded plan.
        default: true,
        minimumSeats: Math.min(minimumSeats, from - 1),
        bands: entries,
      });
    });
}

/** Coupons the scenarios use; "zz" matches no campaign, "BB" tests case-insensitivity. */
const SCENARIO_COUPONS = ["aa", "bb"] as const;
export const SCENARIO_AT_MAX = 200;

function arbCampaign(planCode: string): fc.Arbitrary<CampaignEntry> {
  return fc
    .record({
      price: fc.integer({ min: 0, max: 100_000 }),
      forPlan: fc.boolean(),
      targeted: fc.boolean(),
      recurring: fc.boolean(),
      coupon: fc.constantFrom(...SCENARIO_COUPONS),
      validFrom: fc.integer({ min: 0, max: 100 }),
      length: fc.integer({ min: 1, max: 100 }),
    })
    .map(({ price, forPlan, validFrom, length, ...rest }) =>
      makeCampaign({
        ...rest,
        id: `campaign-${rest.coupon}`,
        prices: { [forPlan ? planCode : "wv_other_12m"]: price },
        validFrom,
        validTo: validFrom + length,
      }),
    );
}

const arbSeatPrice = fc.oneof(fc.constant(-1), fc.integer({ min: 0, max: 20_000 }));

function arbPlan(code: string): fc.Arbitrary<PlanEntry> {
  return fc
    .record({
      price: fc.integer({ min: 0, max: 100_000 }),
      multiUser: fc.oneof(
        { weight: 3, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      includedSeats: fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 5 })),
      seatPrice: fc.oneof(
        { weight: 1, arbitrary: fc.constant(-1) },
        { weight: 3, arbitrary: fc.integer({ min: 0, max: 20_000 }) },
      ),
      minSeats: fc.integer({ min: 0, max: 5 }),
      recurring: fc.oneof(
        { weight: 3, arbitrary: fc.constant(true) },
        { weight: 1, arbitrary: fc.constant(false) },
      ),
      test: fc.option(
        fc.record({ price: fc.integer({ min: 0, max: 100_000 }), seatPrice: arbSeatPrice }),
      ),
    })
    .map(({ test, ...fields }) =>
      makePlan({
        ...fields,
        code,
        family: "random",
        name: "Random",
        priceTests: test ? { set1: test } : {},
      }),
    );
}

export type PricingScenario = {
  catalog: Catalog;
  planCode: string;
  atMs: number;
  coupon: string | undefined;
  priceGroup: string | undefined;
};

/**
 * A small catalogue around one plan (random term, seats, price test, maybe banded, 0-2
 * campaigns) with the time, coupon and price group of a request.
 */
export const arbPricingScenario: fc.Arbitrary<PricingScenario> = fc
  .constantFrom("wv_p_1m", "wv_p_6m", "wv_p_12m")
  .chain((planCode) =>
    fc.record({
      planCode: fc.constant(planCode),
      plan: arbPlan(planCode),
      structure: fc.option(arbSeatStructure([planCode]), { freq: 2 }),
      campaigns: fc.array(arbCampaign(planCode), { maxLength: 2 }),
      atMs: fc.integer({ min: 0, max: SCENARIO_AT_MAX }),
      coupon: fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom("aa", "BB", "zz") },
      ),
      priceGroup: fc.constantFrom(undefined, "set1", "group-1", "unknown-group"),
    }),
  )
  .map(({ plan, structure, campaigns, ...request }) => ({
    ...request,
    catalog: makeCatalog({
      plans: [plan],
      seatStructures: structure ? [structure] : [],
      campaigns,
      priceSets: [{ id: "set1", description: "Test set", groupValues: ["group-1"] }],
      taxRates: [
        { country: "US", state: null, ratePercent: 0, assumed: true },
        { country: "US", state: "CA", ratePercent: 7.25, assumed: true },
        { country: "SE", state: null, ratePercent: 25, assumed: true },
      ],
    }),
  }));

const DAY_MS = 86_400_000;

/**
 * An instant between 1900 and 2399 (so leap centuries, 2000, and non-leap ones, 1900 and 2100,
 * both come up), built from its UTC parts: a drawn day past the month's end becomes the last day,
 * so month ends, the case calendar arithmetic gets wrong, come up far more often than 1 in 30.
 */
export const arbUtcInstant: fc.Arbitrary<number> = fc
  .record({
    year: fc.integer({ min: 1900, max: 2399 }),
    month: fc.integer({ min: 0, max: 11 }),
    day: fc.integer({ min: 1, max: 31 }),
    timeOfDay: fc.integer({ min: 0, max: DAY_MS - 1 }),
  })
  .map(({ year, month, day, timeOfDay }) => {
    const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    return Date.UTC(year, month, Math.min(day, lastDay)) + timeOfDay;
  });
