// A campaign's discount and first full-price renewal outcomes on hand-made orders.
import { describe, expect, it } from "vitest";
import { buildReport } from "./report.ts";
import { order, planItem, reportCatalog, rowsOf, utc } from "./testing.ts";

const catalog = reportCatalog();

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
