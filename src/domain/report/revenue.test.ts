// Revenue against the invoices on hand-made orders, refunds and documents.
import { describe, expect, it } from "vitest";
import { ledgerOf } from "./ledger.ts";
import { buildReport } from "./report.ts";
import { invoiceTotalsOf, revenueOf } from "./revenue.ts";
import { invoicesOf, order, planItem, reportCatalog, rowsOf, utc } from "./testing.ts";

const catalog = reportCatalog();

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
