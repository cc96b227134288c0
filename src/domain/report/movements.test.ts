// Weekly movements and the subscriptions active at the window's end, on hand-made payments.
import { describe, expect, it } from "vitest";
import { ledgerOf } from "./ledger.ts";
import { movementsOf } from "./movements.ts";
import { activeAt } from "./subscriptions.ts";
import { order, planItem, reportCatalog, rowsOf, utc } from "./testing.ts";
import { weeksOf } from "./window.ts";

const catalog = reportCatalog();

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
  it("counts a lapse only once the retry days are over, and not one renewed late within them", () => {
    const lapsed = (window: { from: number; to: number }, extra: typeof orders = []) =>
      movementsOf(
        ledgerOf(
          rowsOf({ orders: [...orders, ...extra], items: [...items, ...extra.map(planItem)] }),
        ),
        catalog,
        cancellations,
        window,
      ).reduce((n, x) => n + x.lapsed, 0);
    // User 5's month ended on 25 January: unknown on the 31st, known on 2 February.
    expect(lapsed({ from: w.from, to: utc(2026, 1, 31) })).toBe(0);
    expect(lapsed({ from: w.from, to: utc(2026, 2, 2) })).toBe(1);
    // Its renewal paid on the retry of day 3: no lapse.
    const late = order({
      userId: 5,
      createdAt: utc(2026, 1, 28),
      productCode: "wv_single_1m",
      termMonths: 1,
      periodStart: utc(2026, 1, 25),
      periodEnd: utc(2026, 2, 25),
      subTotal: 999,
      renewal: true,
    });
    expect(lapsed({ from: w.from, to: utc(2026, 2, 2) }, [late])).toBe(0);
  });
});
