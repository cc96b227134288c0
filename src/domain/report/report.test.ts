// The report's figures on small hand-made row sets whose answers are worked out by hand
// (decision 0091 defines each figure).
import { describe, expect, it } from "vitest";
import { makeCampaign, makeSpecCatalog } from "../testing/builders.ts";
import { ledgerOf } from "./ledger.ts";
import { movementsOf } from "./movements.ts";
import { buildReport } from "./report.ts";
import { invoiceTotalsOf, revenueOf } from "./revenue.ts";
import { activeAt, mrrOf } from "./subscriptions.ts";
import { DAY, invoicesOf, order, planItem, rowsOf, utc } from "./testing.ts";
import { trialsOf } from "./trials.ts";
import { weeksOf } from "./window.ts";

const catalog = makeSpecCatalog({
  campaigns: [
    makeCampaign({
      id: "winter",
      name: "Winter sale",
      coupon: "winter2026",
      targeted: false,
      recurring: false,
      validFrom: utc(2026, 1, 10),
      validTo: utc(2026, 2, 1),
      prices: { wv_single_12m: 2994 },
      products: ["wv_single_12m"],
    }),
  ],
});

describe("monthly recurring revenue", () => {
  it("spreads an annual plan over its twelve months and counts a monthly one in its month", () => {
    const annual = order({
      userId: 1,
      createdAt: utc(2026, 1, 15),
      periodEnd: utc(2027, 1, 15),
      subTotal: 5988,
    });
    const monthly = order({
      userId: 2,
      createdAt: utc(2026, 3, 1),
      periodEnd: utc(2026, 4, 1),
      productCode: "wv_single_1m",
      termMonths: 1,
      subTotal: 999,
    });
    const ledger = ledgerOf(
      rowsOf({ orders: [annual, monthly], items: [annual, monthly].map(planItem) }),
    );
    const mrr = mrrOf(ledger, { from: utc(2026, 1, 1), to: utc(2026, 5, 1) });
    expect(mrr).toEqual([
      { month: "2026-01", mrrCents: 499, subscriptions: 1 },
      { month: "2026-02", mrrCents: 499, subscriptions: 1 },
      { month: "2026-03", mrrCents: 499 + 999, subscriptions: 2 },
      { month: "2026-04", mrrCents: 499, subscriptions: 1 },
    ]);
  });

  it("takes a refunded plan off from the refund on, and a partial refund off its value", () => {
    const refunded = order({ userId: 1, createdAt: utc(2026, 1, 15), periodEnd: utc(2027, 1, 15) });
    const partly = order({ userId: 2, createdAt: utc(2026, 1, 20), periodEnd: utc(2027, 1, 20) });
    const rows = rowsOf({
      orders: [refunded, partly],
      items: [refunded, partly].map(planItem),
      refunds: [
        {
          id: "re_1",
          orderId: refunded.id,
          userId: 1,
          amount: 5988,
          kind: "refund",
          createdAt: utc(2026, 3, 10),
        },
        {
          id: "dp_2",
          orderId: partly.id,
          userId: 2,
          amount: 1200,
          kind: "dispute_lost",
          createdAt: utc(2026, 2, 10),
        },
      ],
    });
    const mrr = mrrOf(ledgerOf(rows), { from: utc(2026, 1, 1), to: utc(2026, 4, 1) });
    // January: 2 × 499; February: the second less its refunded 1200 (4788 / 12 = 399);
    // March: the first given back.
    expect(mrr.map((m) => m.mrrCents)).toEqual([998, 499 + 399, 399]);
  });
});

describe("revenue and invoices", () => {
  it("charges less refunds in the window, with tax split as the credit note splits it, equal to the invoices", () => {
    const taxed = order({
      userId: 1,
      createdAt: utc(2026, 2, 1),
      subTotal: 999,
      salesTax: 200,
      productCode: "wv_single_1m",
      termMonths: 1,
      periodEnd: utc(2026, 3, 1),
    });
    const export1 = order({
      userId: 2,
      createdAt: utc(2026, 2, 3),
      kind: "one_off",
      productCode: "single_export_hd",
      subTotal: 299,
      termMonths: 0,
    });
    const before = order({ userId: 3, createdAt: utc(2025, 12, 1), subTotal: 5988 });
    const rows = rowsOf({
      orders: [taxed, export1, before],
      items: [taxed, before].map(planItem),
      refunds: [
        {
          id: "re_1",
          orderId: taxed.id,
          userId: 1,
          amount: 600,
          kind: "refund",
          createdAt: utc(2026, 2, 5),
        },
      ],
      invoices: [
        ...invoicesOf([taxed, export1, before]),
        {
          number: "CN-1",
          kind: "credit_note",
          orderId: taxed.id,
          total: -600,
          issuedAt: utc(2026, 2, 5),
          waiting: false,
        },
      ],
    });
    const w = { from: utc(2026, 2, 1), to: utc(2026, 3, 1) };
    const revenue = revenueOf(ledgerOf(rows), w);
    // Tax refunded: 200 × 600 / 1199 = 100.08, rounded to 100; net refunded 500.
    expect(revenue).toEqual({
      orders: 2,
      chargedCents: 1199 + 299,
      refunds: 1,
      refundedCents: 600,
      revenueCents: 898,
      taxCents: 100,
      netCents: 798,
      netByKind: { purchases: 999 - 500, renewals: 0, exports: 299 },
    });
    expect(invoiceTotalsOf(rows.invoices, w).totalCents).toBe(898);
    expect(buildReport(rows, catalog, w, "test").revenueMatchesInvoices).toBe(true);
    // A missing credit note is a disagreement the report says.
    const withoutNote = { ...rows, invoices: invoicesOf([taxed, export1, before]) };
    expect(buildReport(withoutNote, catalog, w, "test").revenueMatchesInvoices).toBe(false);
  });
});

describe("subscriptions and movements", () => {
  const w = { from: utc(2026, 1, 5), to: utc(2026, 3, 2) };
  // Monday 5 January 2026 starts the first week.
  const jan = (d: number) => utc(2026, 1, d) + 12 * 3_600_000;
  const newOne = order({ userId: 1, createdAt: jan(6), periodEnd: utc(2027, 1, 6) });
  const team = order({
    userId: 2,
    createdAt: jan(6),
    productCode: "wv_bizoct17_12m",
    seats: 3,
    periodEnd: utc(2027, 1, 6),
    subTotal: 30000,
  });
  const seats = order({
    userId: 2,
    createdAt: jan(14),
    productCode: "wv_bizoct17_12m",
    seats: 4,
    periodStart: jan(14),
    periodEnd: utc(2027, 1, 6),
    subTotal: 9000,
  });
  const unlimited = order({
    userId: 3,
    createdAt: utc(2025, 12, 20),
    productCode: "wv_unloct17_1m",
    termMonths: 1,
    periodEnd: utc(2026, 1, 20),
    subTotal: 1499,
  });
  const renewedDown = order({
    userId: 3,
    createdAt: utc(2026, 1, 20),
    productCode: "wv_single_1m",
    termMonths: 1,
    periodStart: utc(2026, 1, 20),
    periodEnd: utc(2026, 2, 20),
    subTotal: 999,
    renewal: true,
  });
  const cancels = order({ userId: 4, createdAt: utc(2025, 12, 1), periodEnd: utc(2026, 12, 1) });
  const lapses = order({
    userId: 5,
    createdAt: utc(2025, 12, 25),
    productCode: "wv_single_1m",
    termMonths: 1,
    periodEnd: utc(2026, 1, 25),
    subTotal: 999,
  });
  const orders = [newOne, team, seats, unlimited, renewedDown, cancels, lapses];
  const items = [
    ...[newOne, team, unlimited, renewedDown, cancels, lapses].map(planItem),
    {
      orderId: seats.id,
      item: {
        kind: "seats" as const,
        seats: 1,
        restsOn: team.id,
        periodStart: jan(14),
        periodEnd: utc(2027, 1, 6),
        value: 9000,
      },
    },
  ];
  const cancellations = [{ userId: 4, name: "cancel_subscription", at: jan(28) }];
  const ledger = ledgerOf(rowsOf({ orders, items }));

  it("counts new, upgraded, downgraded, cancelled and lapsed in their weeks", () => {
    const weeks = movementsOf(ledger, catalog, cancellations, w);
    expect(weeks.map((x) => x.week)).toEqual(weeksOf(w).map((s) => s.label));
    const nonZero = weeks.filter(
      (x) => x.new + x.upgraded + x.downgraded + x.cancelled + x.lapsed > 0,
    );
    expect(nonZero).toEqual([
      { week: "2026-01-05", new: 2, upgraded: 0, downgraded: 0, cancelled: 0, lapsed: 0 },
      { week: "2026-01-12", new: 0, upgraded: 1, downgraded: 0, cancelled: 0, lapsed: 0 },
      // Unlimited renewed into Power on the 20th; Power monthly of user 5 ended on the 25th
      // with no renewal in the 7 days after.
      { week: "2026-01-19", new: 0, upgraded: 0, downgraded: 1, cancelled: 0, lapsed: 1 },
      { week: "2026-01-26", new: 0, upgraded: 0, downgraded: 0, cancelled: 1, lapsed: 0 },
      // User 3's Power monthly ended on 20 February, not renewed.
      { week: "2026-02-16", new: 0, upgraded: 0, downgraded: 0, cancelled: 0, lapsed: 1 },
    ]);
  });

  it("counts the plans in use at the window's end, a cancelled one until its period ends", () => {
    expect(activeAt(ledger, catalog, w)).toMatchObject({
      total: 3,
      byPlan: [
        { productCode: "wv_bizoct17_12m", termMonths: 12, count: 1 },
        { productCode: "wv_single_12m", termMonths: 12, count: 2 },
      ],
    });
  });
});

describe("trials", () => {
  it("converts a trial whose account bought a paid plan after it began", () => {
    const trial = (userId: number, at: number) =>
      order({
        userId,
        createdAt: at,
        kind: "trial",
        productCode: "wv_unlimited_trial",
        subTotal: 0,
        termMonths: 0,
        periodEnd: at + 14 * DAY,
      });
    const w = { from: utc(2026, 1, 1), to: utc(2026, 2, 1) };
    const orders = [
      trial(1, utc(2026, 1, 2)),
      trial(2, utc(2026, 1, 3)),
      trial(3, utc(2026, 1, 25)),
      order({
        userId: 1,
        createdAt: utc(2026, 1, 10),
        productCode: "wv_unloct17_1m",
        termMonths: 1,
      }),
      // Bought before the trial: not a conversion.
      order({ userId: 2, createdAt: utc(2025, 12, 1), productCode: "wv_single_1m", termMonths: 1 }),
    ];
    expect(trialsOf(orders, catalog, w)).toEqual([
      {
        kind: "wv_unlimited_trial",
        name: "wv_unlimited_trial",
        started: 3,
        converted: 1,
        running: 1,
        conversion: 1 / 3,
      },
    ]);
  });
});

describe("campaigns", () => {
  it("gives the discount as the list price less the price paid, and the first full-price renewal's outcome", () => {
    const w = { from: utc(2026, 1, 1), to: utc(2027, 3, 1) };
    const sale = (userId: number) =>
      order({
        userId,
        createdAt: utc(2026, 1, 15),
        listPrice: 2994,
        subTotal: 2994,
        periodEnd: utc(2027, 1, 15),
      });
    const a = sale(1);
    const b = sale(2);
    const c = sale(3);
    const full = order({ userId: 4, createdAt: utc(2026, 3, 1), periodEnd: utc(2027, 3, 1) });
    const renewal = order({
      userId: 1,
      createdAt: utc(2027, 1, 15),
      periodStart: utc(2027, 1, 15),
      periodEnd: utc(2028, 1, 15),
      renewal: true,
    });
    const rows = rowsOf({
      orders: [a, b, c, full, renewal],
      items: [a, b, c, full, renewal].map(planItem),
      cancellations: [{ userId: 2, name: "cancel_subscription", at: utc(2026, 6, 1) }],
    });
    const report = buildReport(rows, catalog, w, "test");
    expect(report.campaigns).toEqual([
      {
        id: "winter",
        name: "Winter sale",
        coupon: "winter2026",
        recurring: false,
        redemptions: 3,
        netCents: 3 * 2994,
        listCents: 3 * 5988,
        discountCents: 3 * (5988 - 2994),
        outcomes: { renewed: 1, cancelled: 1, lapsed: 1, notYet: 0 },
      },
    ]);
  });
});

describe("experiments", () => {
  it("tallies exposed visitors per group, their purchases and their net revenue less refunds", () => {
    const w = { from: utc(2027, 1, 11), to: utc(2027, 4, 12) };
    const at = utc(2027, 2, 1);
    const bought = order({
      userId: 1,
      createdAt: at,
      subTotal: 3599,
      salesTax: 684,
      productCode: "wv_bizindiv_1m",
      termMonths: 1,
    });
    const renewed = order({
      userId: 1,
      createdAt: utc(2027, 3, 1),
      subTotal: 3599,
      productCode: "wv_bizindiv_1m",
      termMonths: 1,
      renewal: true,
    });
    const refunded = order({
      userId: 2,
      createdAt: at,
      subTotal: 21588,
      productCode: "wv_bizindiv_12m",
    });
    const event = (
      visitorId: string,
      groupId: string,
      kind: string,
      when = at,
      orderId: string | null = null,
    ) => ({
      experimentId: "xp",
      visitorId,
      kind,
      groupId,
      at: when,
      orderId,
    });
    const rows = rowsOf({
      orders: [bought, renewed, refunded],
      items: [bought, renewed, refunded].map(planItem),
      refunds: [
        {
          id: "re_1",
          orderId: refunded.id,
          userId: 2,
          amount: 10794,
          kind: "refund",
          createdAt: utc(2027, 2, 5),
        },
      ],
      experimentEvents: [
        event("v1", "sample", "exposure"),
        event("v1", "sample", "purchase", at, bought.id),
        event("v1", "sample", "renewal", utc(2027, 3, 1), renewed.id),
        event("v2", "sample", "exposure"),
        event("v3", "control", "exposure"),
        event("v3", "control", "purchase", at, refunded.id),
        event("v4", "control", "exposure"),
        // Exposed before the window: not counted, nor its purchase.
        event("v5", "control", "exposure", utc(2027, 1, 1)),
        event("v5", "control", "purchase", at, refunded.id),
        // Bought after the window's end: exposed, not a purchase of the window.
        event("v6", "control", "exposure"),
        event("v6", "control", "purchase", utc(2027, 4, 20), bought.id),
      ],
    });
    const [xp] = buildReport(rows, catalog, w, "test").experiments;
    expect(xp?.tallies).toEqual([
      // v3's annual order half refunded: 21588 − 10794 net of tax (no tax) = 10794.
      {
        group: "control",
        exposed: 3,
        purchased: 1,
        revenueCents: 10794,
        revenueSquares: 10794 ** 2,
      },
      // v1: the purchase and its renewal, net of tax.
      { group: "sample", exposed: 2, purchased: 1, revenueCents: 7198, revenueSquares: 7198 ** 2 },
    ]);
    expect(xp?.analysis.groups.map((g) => [g.group, g.exposed, g.purchased])).toEqual([
      ["control", 3, 1],
      ["sample", 2, 1],
    ]);
  });
});
