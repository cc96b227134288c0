// MRR on hand-made payments: an annual plan spread over its months, refunds taken off.
import { describe, expect, it } from "vitest";
import { ledgerOf } from "./ledger.ts";
import { mrrOf } from "./subscriptions.ts";
import { order, planItem, reportCatalog, rowsOf, utc } from "./testing.ts";

const _catalog = reportCatalog();

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
