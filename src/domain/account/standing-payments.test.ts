// Issue 33, item 1: a refund or lost dispute takes back exactly what its payment bought, and what
// rested on it (decision 0075). The examples are the issue's; the property runs any sequence of
// purchases, seat and essentials additions, upgrades with credit, renewals, one-off exports,
// refunds and disputes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type PaymentFacts,
  type PaymentItem,
  purchaseItems,
  standingOf,
  standingUse,
} from "./standing-payments.ts";

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const T0 = Date.UTC(2026, 0, 1);

const pay = (id: string, items: PaymentItem[], givenBack = false): PaymentFacts => ({
  id,
  items,
  givenBack,
});

/** Business annual with 3 seats, then a 4th seat a month later (the first case). */
function businessThenSeat(firstBack: boolean, seatBack: boolean): PaymentFacts[] {
  return [
    pay(
      "biz",
      purchaseItems({
        plan: true,
        productCode: "wv_bizoct17_12m",
        seats: 3,
        periodStart: T0,
        periodEnd: T0 + YEAR,
        value: 44_388,
        credit: 0,
        addition: false,
        exportCredits: 0,
        previous: null,
      }),
      firstBack,
    ),
    pay(
      "seat",
      purchaseItems({
        plan: true,
        productCode: "wv_bizoct17_12m",
        seats: 4,
        periodStart: T0 + 30 * DAY,
        periodEnd: T0 + YEAR,
        value: 14_796,
        credit: 0,
        addition: true,
        exportCredits: 0,
        previous: { paymentId: "biz", productCode: "wv_bizoct17_12m", seats: 3 },
      }),
      seatBack,
    ),
  ];
}

/** Power annual, then Unlimited annual with Power's unused part as credit (the last case). */
function powerThenUnlimited(powerBack: boolean, unlimitedBack: boolean): PaymentFacts[] {
  return [
    pay(
      "power",
      purchaseItems({
        plan: true,
        productCode: "wv_power_12m",
        seats: 1,
        periodStart: T0,
        periodEnd: T0 + YEAR,
        value: 9_588,
        credit: 0,
        addition: false,
        exportCredits: 0,
        previous: null,
      }),
      powerBack,
    ),
    pay(
      "unlimited",
      purchaseItems({
        plan: true,
        productCode: "wv_unl_12m",
        seats: 1,
        periodStart: T0 + 60 * DAY,
        periodEnd: T0 + 60 * DAY + YEAR,
        value: 19_188,
        credit: 8_000,
        addition: false,
        exportCredits: 0,
        previous: { paymentId: "power", productCode: "wv_power_12m", seats: 1 },
      }),
      unlimitedBack,
    ),
  ];
}

const NOW = T0 + 90 * DAY;

describe("standingUse: the issue's cases", () => {
  it("nothing given back: Business with 4 seats", () => {
    expect(standingUse(businessThenSeat(false, false), NOW).plan).toMatchObject({
      productCode: "wv_bizoct17_12m",
      seats: 4,
      paymentId: "biz",
    });
  });

  it("the first Business payment lost to a dispute: no plan, and the 4th seat falls with it", () => {
    const payments = businessThenSeat(true, false);
    expect(standingUse(payments, NOW).plan).toBeNull();
    expect(standingOf(payments)).toEqual(
      new Map([
        ["biz", "givenBack"],
        ["seat", "fell"],
      ]),
    );
  });

  it("only the seat payment refunded: Business stays with its 3 seats", () => {
    expect(standingUse(businessThenSeat(false, true), NOW).plan).toMatchObject({
      productCode: "wv_bizoct17_12m",
      seats: 3,
      value: 44_388,
    });
  });

  it("a 4th seat refunded alone leaves a 5th seat bought after it", () => {
    const payments = [
      ...businessThenSeat(false, true),
      pay(
        "fifth",
        purchaseItems({
          plan: true,
          productCode: "wv_bizoct17_12m",
          seats: 5,
          periodStart: T0 + 40 * DAY,
          periodEnd: T0 + YEAR,
          value: 14_796,
          credit: 0,
          addition: true,
          exportCredits: 0,
          previous: { paymentId: "biz", productCode: "wv_bizoct17_12m", seats: 4 },
        }),
      ),
    ];
    expect(standingOf(payments).get("fifth")).toBe("stands");
    expect(standingUse(payments, NOW).plan).toMatchObject({ seats: 4 });
  });

  it("Power charged back after Unlimited took its credit: Unlimited is not kept", () => {
    const payments = powerThenUnlimited(true, false);
    expect(standingUse(payments, NOW).plan).toBeNull();
    expect(standingOf(payments).get("unlimited")).toBe("fell");
  });

  it("Unlimited refunded alone: Power's paid period counts again", () => {
    expect(standingUse(powerThenUnlimited(false, true), NOW).plan).toMatchObject({
      productCode: "wv_power_12m",
      paymentId: "power",
      periodEnd: T0 + YEAR,
    });
    // After Power's own period, nothing.
    expect(standingUse(powerThenUnlimited(false, true), T0 + YEAR).plan).toBeNull();
  });

  it("a renewal stands on its own: a chargeback of the year before ends nothing now", () => {
    const payments = [
      ...businessThenSeat(true, false),
      pay(
        "renewal",
        purchaseItems({
          plan: true,
          productCode: "wv_bizoct17_12m",
          seats: 4,
          periodStart: T0 + YEAR,
          periodEnd: T0 + 2 * YEAR,
          value: 59_184,
          credit: 0,
          addition: false,
          exportCredits: 0,
          previous: { paymentId: "seat", productCode: "wv_bizoct17_12m", seats: 4 },
        }),
      ),
    ];
    expect(standingUse(payments, T0 + YEAR + DAY).plan).toMatchObject({ seats: 4 });
  });
});

// ---- The property -------------------------------------------------------------------------

type Op =
  | { op: "buy"; product: number; seats: number; months: number }
  | { op: "upgrade"; product: number; seats: number; months: number }
  | { op: "addSeats"; seats: number }
  | { op: "addEssentials" }
  | { op: "renew" }
  | { op: "exports"; credits: number }
  | { op: "giveBack"; which: number };

const PRODUCTS = ["power", "unlimited", "business"];

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("buy" as const),
    product: fc.nat(2),
    seats: fc.integer({ min: 1, max: 5 }),
    months: fc.constantFrom(1, 12),
  }),
  fc.record({
    op: fc.constant("upgrade" as const),
    product: fc.nat(2),
    seats: fc.integer({ min: 1, max: 5 }),
    months: fc.constantFrom(1, 12),
  }),
  fc.record({ op: fc.constant("addSeats" as const), seats: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant("addEssentials" as const) }),
  fc.record({ op: fc.constant("renew" as const) }),
  fc.record({ op: fc.constant("exports" as const), credits: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant("giveBack" as const), which: fc.nat(30) }),
);

type Subscription = {
  paymentId: string;
  productCode: string;
  seats: number;
  periodStart: number;
  periodEnd: number;
  value: number;
};

/**
 * Runs the operations as the server does (the subscription moves with every order), one day
 * apart; returns the payments, the subscription as the purchases left it (no refunds applied)
 * and the time after the last operation.
 */
function run(ops: readonly Op[]): {
  payments: PaymentFacts[];
  sub: Subscription | null;
  now: number;
} {
  const payments: PaymentFacts[] = [];
  let sub: Subscription | null = null;
  let now = T0;
  const running = () => (sub !== null && sub.periodEnd > now ? sub : null);
  for (const [i, op] of ops.entries()) {
    now += DAY;
    const id = `p${i}`;
    const current = running();
    const previous = current
      ? { paymentId: current.paymentId, productCode: current.productCode, seats: current.seats }
      : null;
    const buy = (productCode: string, seats: number, months: number, credit: number) => {
      const value = 1_000 * seats * months;
      payments.push(
        pay(
          id,
          purchaseItems({
            plan: true,
            productCode,
            seats,
            periodStart: now,
            periodEnd: now + months * 30 * DAY,
            value,
            credit,
            addition: false,
            exportCredits: 0,
            previous,
          }),
        ),
      );
      sub = {
        paymentId: id,
        productCode,
        seats,
        periodStart: now,
        periodEnd: now + months * 30 * DAY,
        value,
      };
    };
    switch (op.op) {
      case "buy":
        if (current === null) buy(PRODUCTS[op.product] as string, op.seats, op.months, 0);
        break;
      case "upgrade":
        if (current !== null) {
          const credit = Math.floor(
            (current.value * (current.periodEnd - now)) / (current.periodEnd - current.periodStart),
          );
          buy(`${PRODUCTS[op.product]}-up`, op.seats, op.months, credit);
        }
        break;
      case "renew":
        if (sub !== null) {
          const s: Subscription = sub;
          const span = s.periodEnd - s.periodStart;
          now = Math.max(now, s.periodEnd);
          const items = purchaseItems({
            plan: true,
            productCode: s.productCode,
            seats: s.seats,
            periodStart: s.periodEnd,
            periodEnd: s.periodEnd + span,
            value: s.value,
            credit: 0,
            addition: false,
            exportCredits: 0,
            previous: { paymentId: s.paymentId, productCode: s.productCode, seats: s.seats },
          });
          payments.push(pay(id, items));
          sub = { ...s, paymentId: id, periodStart: s.periodEnd, periodEnd: s.periodEnd + span };
        }
        break;
      case "addSeats":
      case "addEssentials":
        if (current !== null) {
          const seats = current.seats + (op.op === "addSeats" ? op.seats : 0);
          const productCode =
            op.op === "addEssentials" && !current.productCode.endsWith("+ess")
              ? `${current.productCode}+ess`
              : current.productCode;
          if (seats === current.seats && productCode === current.productCode) break;
          payments.push(
            pay(
              id,
              purchaseItems({
                plan: true,
                productCode,
                seats,
                periodStart: now,
                periodEnd: current.periodEnd,
                value: 500,
                credit: 0,
                addition: true,
                exportCredits: 0,
                previous,
              }),
            ),
          );
          // The subscription's plan payment stays the one that began the period.
          sub = { ...current, productCode, seats, value: current.value + 500 };
        }
        break;
      case "exports":
        payments.push(
          pay(
            id,
            purchaseItems({
              plan: false,
              productCode: "export",
              seats: 1,
              periodStart: now,
              periodEnd: now,
              value: 0,
              credit: 0,
              addition: false,
              exportCredits: op.credits,
              previous: null,
            }),
          ),
        );
        break;
      case "giveBack": {
        const target = payments[op.which % Math.max(1, payments.length)];
        if (target) target.givenBack = true;
        break;
      }
    }
  }
  return { payments, sub, now };
}

/**
 * Every payment a payment rests on, itself included: an addition on its plan's payment, an
 * upgrade credit on that period's plan payment and the additions made to it before; and so on.
 */
function restsOnClosure(payments: readonly PaymentFacts[], id: string): Set<string> {
  const byId = new Map(payments.map((p) => [p.id, p]));
  const order = payments.map((p) => p.id);
  const additionsTo = (plan: string, before: string) =>
    payments
      .filter((p) => order.indexOf(p.id) < order.indexOf(before))
      .filter((p) =>
        p.items.some((i) => "restsOn" in i && i.kind !== "credit" && i.restsOn === plan),
      )
      .map((p) => p.id);
  const out = new Set<string>();
  const visit = (at: string) => {
    if (out.has(at)) return;
    out.add(at);
    for (const item of byId.get(at)?.items ?? []) {
      if (item.kind === "seats" || item.kind === "essentials") visit(item.restsOn);
      if (item.kind === "credit") {
        visit(item.restsOn);
        for (const addition of additionsTo(item.restsOn, at)) visit(addition);
      }
    }
  };
  visit(id);
  return out;
}

describe("standingUse: what an account may use is what its standing payments paid for", () => {
  it("with nothing given back, it is what the purchases left the subscription holding", () => {
    fc.assert(
      fc.property(
        fc.array(
          opArb.filter((o) => o.op !== "giveBack"),
          { maxLength: 25 },
        ),
        (ops) => {
          const { payments, sub, now } = run(ops);
          const use = standingUse(payments, now);
          const held = sub !== null && sub.periodEnd > now ? sub : null;
          if (held === null) expect(use.plan).toBeNull();
          else expect(use.plan).toMatchObject({ productCode: held.productCode, seats: held.seats });
          const bought = payments
            .flatMap((p) => p.items)
            .reduce((n, i) => n + (i.kind === "exportCredits" ? i.credits : 0), 0);
          expect(use.exportCredits).toBe(bought);
        },
      ),
    );
  });

  it("after any refunds and disputes, it is what the payments still standing would give had the others never been made", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), fc.nat(400), (ops, later) => {
        const { payments, now } = run(ops);
        const at = now + later * DAY;
        const standing = standingOf(payments);
        // A payment stands exactly when neither it nor anything it rests on was given back.
        for (const p of payments) {
          const closure = restsOnClosure(payments, p.id);
          const broken = payments.some((q) => closure.has(q.id) && q.givenBack);
          expect(standing.get(p.id) === "stands").toBe(!broken);
        }
        const kept = payments.filter((p) => standing.get(p.id) === "stands");
        expect(standingUse(payments, at)).toEqual(standingUse(kept, at));
      }),
      { numRuns: 500 },
    );
  });

  it("giving a payment back never gives the account more", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), fc.nat(30), (ops, pick) => {
        const { payments, now } = run(ops);
        const before = standingUse(payments, now);
        const target = payments[pick % Math.max(1, payments.length)];
        if (!target) return;
        target.givenBack = true;
        const after = standingUse(payments, now);
        expect(after.exportCredits).toBeLessThanOrEqual(before.exportCredits);
        if (before.plan === null) {
          // Only an earlier plan whose period still runs can come back (a later one given back).
          if (after.plan !== null) expect(after.plan.paymentId).not.toBe(target.id);
        } else if (after.plan?.paymentId === before.plan.paymentId) {
          expect(after.plan.seats).toBeLessThanOrEqual(before.plan.seats);
        }
        // Nothing the given-back payment bought is used.
        expect(after.plan?.paymentId).not.toBe(target.id);
      }),
      { numRuns: 500 },
    );
  });
});
