// What a PayPal subscription is for one purchase: the PayPal plan (one per product, term and
// renewal price, created once and kept: subscribers keep the plan they bought), the quantity
// (the seats, where the renewal price splits evenly between them) and the first payment when it
// differs from a renewal (a first-term discount, a pro-rata credit, ...), sent as an override of
// the plan's first cycle. Every figure comes from the pricing module; this only splits them.
// Pure: decision 0041 (docs/decisions/0041-paypal-subscriptions.md).

export type PaypalTerms = {
  /** The key of the PayPal plan: product, term in months and the renewal price of one unit. */
  planKey: string;
  productCode: string;
  termMonths: number;
  /** What one unit renews at, tax included (PayPal charges exactly this times the quantity). */
  unitCents: number;
  quantity: number;
  /** The first payment of one unit (the first cycle's price), tax included. */
  firstUnitCents: number;
  /** The first payment in all: what the checkout's quote charges now. */
  firstTotalCents: number;
};

/** Splits a purchase's first payment and its renewal price into a PayPal plan and quantity. */
export function paypalTerms(input: {
  productCode: string;
  termMonths: number;
  seats: number;
  multiUser: boolean;
  /** The quote's total now (tax included). */
  firstTotalCents: number;
  /** What the subscription renews at per period (tax included), from renewalCharge. */
  renewalTotalCents: number;
}): PaypalTerms {
  const seats = Math.max(1, input.seats);
  // Seats are the quantity when both payments split into whole cents per seat; otherwise the
  // plan is for the whole price and the quantity is one (PayPal multiplies, it never rounds).
  const perSeat =
    input.multiUser &&
    seats > 1 &&
    input.renewalTotalCents % seats === 0 &&
    input.firstTotalCents % seats === 0;
  const quantity = perSeat ? seats : 1;
  const unitCents = input.renewalTotalCents / quantity;
  return {
    planKey: `${input.productCode}:${input.termMonths}m:${unitCents}`,
    productCode: input.productCode,
    termMonths: input.termMonths,
    unitCents,
    quantity,
    firstUnitCents: input.firstTotalCents / quantity,
    firstTotalCents: input.firstTotalCents,
  };
}

/** PayPal's decimal string for cents (USD): 1234 → "12.34". */
export function paypalValue(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Cents of PayPal's decimal string, or null when it is not an amount ("12.3" → 1230). */
export function centsOf(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "0").padEnd(2, "0"));
  return match[1] === "-" ? -cents : cents;
}

export type SubscriptionFacts = {
  status: string;
  customId: string | undefined;
  planId: string | undefined;
  quantity: string | undefined;
  lastPayment: { currency: string; value: string } | null;
  /**
   * The subscription's billing cycles as PayPal reports them (its plan inline, overrides
   * applied): each one's unit price and how many times it runs (0: for ever), when given.
   */
  cycles: { sequence: number; value: string | undefined; totalCycles?: number }[];
};

export type SubscriptionCheck =
  | { ok: true }
  | {
      ok: false;
      reason:
        | "not_active"
        | "wrong_custom_id"
        | "wrong_plan"
        | "wrong_quantity"
        | "wrong_amount"
        | "wrong_cycles";
    };

/**
 * Whether the subscription's cycles are the catalogue's terms, which the plan we made has
 * (services/paypal-plans.ts): cycle 1 is the first payment, once; cycle 2 the renewal price, for
 * ever; no other. A first-term price set to repeat (cycle 1 run 999 times), a renewal price
 * changed, a renewal cycle that ends, a cycle missing or one the plan has not would bill other
 * terms than those sold.
 */
function cyclesKeepTerms(facts: SubscriptionFacts, terms: PaypalTerms): boolean {
  const sequences = facts.cycles.map((c) => c.sequence).sort();
  if (sequences.join() !== "1,2") return false;
  return facts.cycles.every((cycle) => {
    const runs = cycle.totalCycles;
    if (cycle.sequence === 1)
      return (
        (runs === undefined || runs === 1) &&
        (cycle.value === undefined || centsOf(cycle.value) === terms.firstUnitCents)
      );
    if (cycle.sequence === 2)
      return (runs === undefined || runs === 0) && centsOf(cycle.value) === terms.unitCents;
    return false;
  });
}

/**
 * Whether a subscription PayPal reports is the one this purchase asked for: ACTIVE (its first
 * payment taken), our order key, the plan and quantity we priced, the first payment we quoted,
 * and every cycle it overrode on the catalogue's terms (the first price once, then the renewal
 * price for ever).
 */
export function checkSubscription(
  facts: SubscriptionFacts,
  expected: { orderKey: string; planId: string; terms: PaypalTerms },
): SubscriptionCheck {
  if (facts.status !== "ACTIVE") return { ok: false, reason: "not_active" };
  if (facts.customId !== expected.orderKey) return { ok: false, reason: "wrong_custom_id" };
  if (facts.planId !== expected.planId) return { ok: false, reason: "wrong_plan" };
  if (Number(facts.quantity ?? "1") !== expected.terms.quantity)
    return { ok: false, reason: "wrong_quantity" };
  if (facts.cycles.some((c) => c.sequence === 2 && centsOf(c.value) !== expected.terms.unitCents))
    return { ok: false, reason: "wrong_amount" };
  if (!cyclesKeepTerms(facts, expected.terms)) return { ok: false, reason: "wrong_cycles" };
  const paid = facts.lastPayment;
  if (
    paid === null ||
    paid.currency !== "USD" ||
    centsOf(paid.value) !== expected.terms.firstTotalCents
  )
    return { ok: false, reason: "wrong_amount" };
  return { ok: true };
}
