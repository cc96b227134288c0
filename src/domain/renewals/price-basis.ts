// The price a subscription signed up at, and which price a renewal charges. A subscription
// records its plan price, extra-seat price (in the customer's price set) and, for a banded plan,
// the seat structure with its bands when it is bought; its renewals charge those, whatever the
// catalogue says later, until a dated price migration (catalog/price-migrations.yaml) moves its
// cohort to the current prices (catalog/README.md "Changing prices for existing subscribers").
import type {
  Catalog,
  PlanEntry,
  PriceMigration,
  SeatStructure,
} from "../catalog/catalog-schema.ts";
import { NO_CHOICE, type PriceChoice, priceSetForPlan } from "../experiments/price-choice.ts";
import { planPrice, seatStructureFor } from "../pricing/index.ts";

export type PriceBasis = {
  /** The product these prices are for; a renewal into another product is priced afresh. */
  productCode: string;
  /** Term price and extra-seat price (-1: none sold) in cents, in the customer's price set. */
  price: number;
  seatPrice: number;
  /** The seat structure that priced a banded plan, bands included; null when not banded. */
  seatStructure: SeatStructure | null;
  /** When the price was recorded: the purchase (or the renewal that moved it). */
  recordedAt: number;
};

/**
 * The current catalogue's prices of a product for a customer, as a basis to record. A structure
 * id (an account's licensed structure) picks that structure when it prices the plan.
 */
export function currentPriceBasis(
  catalog: Pick<Catalog, "plans" | "seatStructures" | "priceSets" | "experiments">,
  productCode: string,
  options: { priceChoice?: PriceChoice | undefined; seatStructure?: string | null; atMs: number },
): PriceBasis | null {
  const plan = catalog.plans.find((p) => p.code === productCode);
  if (plan === undefined || !plan.recurring) return null;
  const { price, seatPrice } = planPrice(
    plan,
    priceSetForPlan(catalog, options.priceChoice ?? NO_CHOICE, productCode),
  );
  const wanted = options.seatStructure ?? undefined;
  const named = wanted === undefined ? null : seatStructureFor(catalog, plan, wanted);
  const structure = named?.ok ? named : seatStructureFor(catalog, plan);
  return {
    productCode,
    price,
    seatPrice,
    seatStructure: structure.ok ? structure.value : null,
    recordedAt: options.atMs,
  };
}

/** The migration that moves this subscription at a renewal starting at `renewalAt`, or null. */
export function migrationFor(
  migrations: readonly PriceMigration[],
  basis: PriceBasis,
  renewalAt: number,
): PriceMigration | null {
  return (
    migrations.find(
      (m) =>
        m.products.includes(basis.productCode) &&
        (m.seatStructure === null || m.seatStructure === basis.seatStructure?.id) &&
        (m.signedUpBefore === null || basis.recordedAt < m.signedUpBefore) &&
        m.renewalsFrom <= renewalAt,
    ) ?? null
  );
}

export type RenewalPrice =
  /** The recorded prices: the renewal keeps them. */
  | { kind: "kept"; basis: PriceBasis }
  /** The current catalogue's: a migration moved the cohort, or nothing was recorded for it. */
  | { kind: "current"; migration: string | null };

/**
 * Which prices a renewal into `productCode` starting at `renewalAt` charges. A basis recorded for
 * another product (a downgrade, essentials removed) is a new choice, priced at today's prices.
 */
export function renewalPrice(
  catalog: Pick<Catalog, "priceMigrations">,
  productCode: string,
  basis: PriceBasis | null,
  renewalAt: number,
): RenewalPrice {
  if (basis === null || basis.productCode !== productCode)
    return { kind: "current", migration: null };
  const migration = migrationFor(catalog.priceMigrations ?? [], basis, renewalAt);
  return migration === null
    ? { kind: "kept", basis }
    : { kind: "current", migration: migration.id };
}

/**
 * The catalogue as the renewal of a kept basis sees it: the plan at its recorded prices (in every
 * price set, since they were recorded in the customer's), its seats priced by the recorded
 * structure. The pricing module then prices it as any other order, so nothing is summed by hand.
 */
export function catalogWithBasis(catalog: Catalog, basis: PriceBasis): Catalog {
  const structure = basis.seatStructure;
  const plans = catalog.plans.map(
    (p): PlanEntry =>
      p.code === basis.productCode
        ? {
            ...p,
            price: basis.price,
            seatPrice: basis.seatPrice,
            priceTests: {},
            seatStructure: structure?.id ?? null,
          }
        : p,
  );
  if (structure === null) {
    // Not banded when bought: no structure of today's catalogue may price its seats.
    const seatStructures = catalog.seatStructures.map((s) => ({
      ...s,
      appliesTo: s.appliesTo.filter((code) => code !== basis.productCode),
    }));
    return { ...catalog, plans, seatStructures };
  }
  const recorded = { ...structure, appliesTo: [basis.productCode], default: true };
  const others = catalog.seatStructures
    .filter((s) => s.id !== structure.id)
    .map((s) => ({ ...s, appliesTo: s.appliesTo.filter((code) => code !== basis.productCode) }));
  return { ...catalog, plans, seatStructures: [recorded, ...others] };
}
