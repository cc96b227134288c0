// What each payment paid for, and what the payments that still stand pay for (issue 33, item 1;
// docs/decisions/0075-refunds-take-back-what-their-payment-bought.md).
//
// A payment records its items: a plan with its seats for a period, seats or the essentials
// add-on added to a running plan (they rest on the payment of that plan), export credits, and
// the upgrade credit it took from the period it replaced (it rests on that period's payments:
// its plan's and the additions to it). A refund in
// full or a lost dispute gives a payment back; a payment that rests on one given back falls with
// it, because part of what it bought was paid with money that is no longer ours. What the
// account may use is then what the standing payments pay for; `entitlementsOf` still reads it
// from the subscription, which the server brings in line with this after every refund.
//
// Pure: the payments and the time come in as parameters.

export type PaymentItem =
  | {
      /** A plan for a period: a purchase or a renewal. */
      kind: "plan";
      productCode: string;
      seats: number;
      periodStart: number;
      /** null: runs for as long as it is not replaced (a purchase order without an end). */
      periodEnd: number | null;
      /** What the period is worth in cents (the upgrade credit of a later change reads it). */
      value: number;
    }
  | {
      /** Seats added to the running plan for the rest of its period. */
      kind: "seats";
      seats: number;
      restsOn: string;
      /** The rest of the plan's period they are added for. */
      periodStart: number;
      periodEnd: number | null;
      value: number;
    }
  | {
      /** The essentials add-on added to the running plan: the product becomes `productCode`. */
      kind: "essentials";
      productCode: string;
      restsOn: string;
      periodStart: number;
      periodEnd: number | null;
      value: number;
    }
  | { kind: "exportCredits"; credits: number }
  | {
      /** The credit for the unused part of an earlier payment, taken off this one's price. */
      kind: "credit";
      cents: number;
      restsOn: string;
    };

export type PaymentFacts = {
  id: string;
  /** Refunded in full or lost to a dispute. */
  givenBack: boolean;
  items: readonly PaymentItem[];
};

export type Standing = "stands" | "givenBack" | "fell";

/**
 * Whether each payment stands, in purchase order (what a payment rests on is always earlier):
 * a payment given back does not; one that rests on a payment that does not stand falls with it.
 * An addition rests on its plan's payment alone (a 5th seat does not need the 4th); an upgrade
 * credit rests on the whole period it was taken from: its plan's payment and every addition made
 * to that plan before it.
 */
export function standingOf(payments: readonly PaymentFacts[]): Map<string, Standing> {
  const standing = new Map<string, Standing>();
  /** The additions seen so far, by the plan payment they rest on. */
  const additions = new Map<string, string[]>();
  // What a payment rests on is earlier; an unknown one (not of this account) breaks nothing.
  const down = (id: string) => standing.has(id) && standing.get(id) !== "stands";
  for (const payment of payments) {
    const broken = payment.items.some((item) => {
      if (item.kind === "seats" || item.kind === "essentials") return down(item.restsOn);
      if (item.kind === "credit")
        return down(item.restsOn) || (additions.get(item.restsOn) ?? []).some(down);
      return false;
    });
    standing.set(payment.id, payment.givenBack ? "givenBack" : broken ? "fell" : "stands");
    for (const item of payment.items) {
      if (item.kind !== "seats" && item.kind !== "essentials") continue;
      additions.set(item.restsOn, [...(additions.get(item.restsOn) ?? []), payment.id]);
    }
  }
  return standing;
}

/** What the standing payments pay for at `now`. */
export type StandingUse = {
  /** The plan in use, or null when no standing payment pays for one now. */
  plan: {
    productCode: string;
    seats: number;
    /** The payment whose plan it is (the one additions rest on). */
    paymentId: string;
    periodStart: number;
    periodEnd: number | null;
    /** The period's value: its plan's and its standing additions'. */
    value: number;
  } | null;
  /** Export credits the standing payments bought (used ones are counted by the server). */
  exportCredits: number;
};

/**
 * What the account may use at `now` by its standing payments: the plan of the latest standing
 * payment that bought one, while its period covers now (a later plan replaces an earlier one;
 * when the later one is given back, the earlier one's paid period counts again), with the seats
 * and essentials that standing additions put on it, and the export credits standing payments
 * bought.
 */
export function standingUse(payments: readonly PaymentFacts[], now: number): StandingUse {
  const standing = standingOf(payments);
  const stands = (p: PaymentFacts) => standing.get(p.id) === "stands";
  let plan: StandingUse["plan"] = null;
  for (const payment of payments) {
    if (!stands(payment)) continue;
    for (const item of payment.items) {
      if (item.kind !== "plan") continue;
      plan = {
        productCode: item.productCode,
        seats: item.seats,
        paymentId: payment.id,
        periodStart: item.periodStart,
        periodEnd: item.periodEnd,
        value: item.value,
      };
    }
  }
  if (
    plan !== null &&
    (plan.periodStart > now || (plan.periodEnd !== null && now >= plan.periodEnd))
  )
    plan = null;
  if (plan !== null) {
    for (const payment of payments) {
      if (!stands(payment)) continue;
      for (const item of payment.items) {
        if (item.kind !== "seats" && item.kind !== "essentials") continue;
        if (item.restsOn !== plan.paymentId) continue;
        if (item.kind === "seats") plan.seats += item.seats;
        else plan.productCode = item.productCode;
        plan.value += item.value;
      }
    }
  }
  let exportCredits = 0;
  for (const payment of payments) {
    if (!stands(payment)) continue;
    for (const item of payment.items)
      if (item.kind === "exportCredits") exportCredits += item.credits;
  }
  return { plan, exportCredits };
}

/**
 * The items of a purchase, from what its order and the subscription it changes say: an addition
 * adds seats and/or essentials to the plan paid by `previous` (it rests on that payment); any
 * other plan purchase buys its plan for its period, and the upgrade credit it took rests on the
 * period it replaced (named by its plan's payment). Export credits are the one-off exports bought.
 */
export function purchaseItems(purchase: {
  /** A plan purchase (else one-off exports only). */
  plan: boolean;
  productCode: string;
  seats: number;
  periodStart: number;
  periodEnd: number | null;
  /** A plan's period value, or what an addition adds to a full term's value. */
  value: number;
  /** The upgrade credit taken off the price (the order summary's prorateAmount). */
  credit: number;
  addition: boolean;
  exportCredits: number;
  /**
   * The subscription's paid period before this purchase: the payment of its plan (the purchase
   * or renewal that began the period, not an addition made to it since), product and seats.
   */
  previous: { paymentId: string | null; productCode: string; seats: number } | null;
}): PaymentItem[] {
  const items: PaymentItem[] = [];
  const restsOn = purchase.previous?.paymentId ?? null;
  const period = { periodStart: purchase.periodStart, periodEnd: purchase.periodEnd };
  if (purchase.plan && purchase.addition && purchase.previous && restsOn !== null) {
    const added = purchase.seats - purchase.previous.seats;
    let value = purchase.value;
    if (added > 0) {
      items.push({ kind: "seats", seats: added, restsOn, ...period, value });
      value = 0;
    }
    if (purchase.productCode !== purchase.previous.productCode) {
      items.push({
        kind: "essentials",
        productCode: purchase.productCode,
        restsOn,
        ...period,
        value,
      });
    }
  } else if (purchase.plan) {
    items.push({
      kind: "plan",
      productCode: purchase.productCode,
      seats: purchase.seats,
      periodStart: purchase.periodStart,
      periodEnd: purchase.periodEnd,
      value: purchase.value,
    });
    if (purchase.credit > 0 && restsOn !== null) {
      items.push({ kind: "credit", cents: purchase.credit, restsOn });
    }
  }
  if (purchase.exportCredits > 0) {
    items.push({ kind: "exportCredits", credits: purchase.exportCredits });
  }
  return items;
}
