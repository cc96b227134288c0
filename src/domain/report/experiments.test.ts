// An experiment's tallies on hand-made events and orders.
import { describe, expect, it } from "vitest";
import { buildReport } from "./report.ts";
import { order, planItem, reportCatalog, rowsOf, utc } from "./testing.ts";

const catalog = reportCatalog();

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
