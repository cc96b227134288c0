import { describe, expect, it } from "vitest";
import type { Catalog, PriceMigration } from "../catalog/catalog-schema.ts";
import { choiceOfGroup } from "../experiments/price-choice.ts";
import { makeSpecCatalog } from "../testing/builders.ts";
import { currentPriceBasis, type PriceBasis, renewalCharge, renewalPrice } from "./index.ts";

const SIGNED_UP = Date.UTC(2025, 0, 15);
const RENEWS = Date.UTC(2026, 0, 15);
const MOVE = Date.UTC(2026, 6, 1);

const old = makeSpecCatalog();
/** The same catalogue after a price rise: Power annual 59.88 → 71.88, schools bands dearer. */
function raised(migrations: PriceMigration[] = []): Catalog {
  return {
    ...old,
    plans: old.plans.map((p) => (p.code === "wv_single_12m" ? { ...p, price: 7188 } : p)),
    priceMigrations: migrations,
  };
}
const migration = (overrides: Partial<PriceMigration> = {}): PriceMigration => ({
  id: "power-2026",
  description: "Power subscribers move to the 2026 price.",
  products: ["wv_single_12m"],
  seatStructure: null,
  signedUpBefore: null,
  renewalsFrom: MOVE,
  ...overrides,
});

function basisOf(catalog: Catalog, code: string, seatStructure?: string): PriceBasis {
  const basis = currentPriceBasis(catalog, code, { atMs: SIGNED_UP, seatStructure });
  if (basis === null) throw new Error(`no basis for ${code}`);
  return basis;
}

function renew(
  catalog: Catalog,
  basis: PriceBasis | null,
  at: number,
  code = "wv_single_12m",
  seats = 1,
) {
  const result = renewalCharge(
    catalog,
    { productCode: code, seats, recurringCampaign: null, basis, periodStart: at },
    at,
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.charge;
}

describe("renewal prices: existing subscribers keep the price they signed up at", () => {
  const power = basisOf(old, "wv_single_12m");

  it("records the plan's prices in the customer's price set when it is bought", () => {
    expect(power).toEqual({
      productCode: "wv_single_12m",
      price: 5988,
      seatPrice: -1,
      seatStructure: null,
      recordedAt: SIGNED_UP,
    });
    const sample = currentPriceBasis(old, "wv_bizoct17_12m", {
      atMs: 0,
      priceChoice: choiceOfGroup("sample"),
    });
    const plan = old.plans.find((p) => p.code === "wv_bizoct17_12m");
    expect(sample?.price).toBe(plan?.priceTests.sample?.price);
    expect(currentPriceBasis(old, "wv_flex2", { atMs: 0 })).toBeNull();
  });

  it("renews at the recorded price after the catalogue's price rises", () => {
    expect(renew(raised(), power, RENEWS)).toMatchObject({
      subTotal: 5988,
      price: "kept",
      basis: power,
    });
    // A new subscriber (nothing recorded) pays today's price.
    expect(renew(raised(), null, RENEWS)).toMatchObject({ subTotal: 7188, price: "current" });
  });

  it("keeps it before a migration's date and moves from its date on, recording the new price", () => {
    const catalog = raised([migration()]);
    expect(renew(catalog, power, MOVE - 1)).toMatchObject({ subTotal: 5988, price: "kept" });
    const moved = renew(catalog, power, MOVE);
    expect(moved).toMatchObject({ subTotal: 7188, price: "current", migration: "power-2026" });
    expect(moved.basis).toEqual({ ...power, price: 7188, recordedAt: MOVE });
    // Moved for good: the next renewal keeps the new price even once the entry is gone.
    expect(renew(raised(), moved.basis, MOVE + 365 * 86_400_000)).toMatchObject({ subTotal: 7188 });
  });

  it("moves only the cohort the migration names", () => {
    const later = renewalPrice(
      raised([migration({ signedUpBefore: SIGNED_UP })]),
      "wv_single_12m",
      power,
      MOVE,
    );
    expect(later).toEqual({ kind: "kept", basis: power });
    const other = renewalPrice(
      raised([migration({ products: ["wv_single_1m"] })]),
      "wv_single_12m",
      power,
      MOVE,
    );
    expect(other.kind).toBe("kept");
  });

  it("prices a school on the older structure by its bands until a migration of that structure", () => {
    const legacy = basisOf(old, "wv_k12_12m", "k12-legacy");
    expect(legacy.seatStructure?.id).toBe("k12-legacy");
    // 120 seats: 299 for the first 30, then 90 × 9.00 on the older bands; 374 + 70 × 11 + 20 × 10 on today's.
    expect(renew(old, legacy, RENEWS, "wv_k12_12m", 120).subTotal).toBe(29900 + 90 * 900);
    expect(renew(old, basisOf(old, "wv_k12_12m"), RENEWS, "wv_k12_12m", 120).subTotal).toBe(
      37400 + 70 * 1100 + 20 * 1000,
    );
    const schools = migration({
      id: "schools",
      products: ["wv_k12_12m"],
      seatStructure: "k12-legacy",
    });
    const catalog = { ...old, priceMigrations: [schools] };
    expect(renew(catalog, legacy, MOVE - 1, "wv_k12_12m", 120).subTotal).toBe(29900 + 90 * 900);
    const moved = renew(catalog, legacy, MOVE, "wv_k12_12m", 120);
    expect(moved.subTotal).toBe(37400 + 70 * 1100 + 20 * 1000);
    expect(moved.basis?.seatStructure?.id).toBe("k12-2024-01");
  });

  it("keeps the recorded bands even when the structure is edited or removed later", () => {
    const legacy = basisOf(old, "wv_k12_12m", "k12-legacy");
    const edited = {
      ...old,
      seatStructures: old.seatStructures.filter((s) => s.id !== "k12-legacy"),
    };
    expect(renew(edited, legacy, RENEWS, "wv_k12_12m", 120).subTotal).toBe(29900 + 90 * 900);
  });

  it("prices a renewal into another product (a downgrade) at today's prices", () => {
    expect(renewalPrice(raised(), "wv_single_1m", power, RENEWS)).toEqual({
      kind: "current",
      migration: null,
    });
  });
});
