// Trial conversion on hand-made trial and plan orders.
import { describe, expect, it } from "vitest";
import { DAY, order, reportCatalog, utc } from "./testing.ts";
import { trialsOf } from "./trials.ts";

const catalog = reportCatalog();

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
