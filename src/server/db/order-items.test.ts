// order_items (migration 29, decision 0075) on SQLite, PGlite and, with DATABASE_URL, a
// PostgreSQL server: items written and read back as an account's payments, and a database from
// before the migration backfilled from what its orders hold.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPglite } from "../testing/pglite.ts";
import { openTestPostgres, postgresUrl } from "../testing/postgres.ts";
import { testUser } from "../testing/users.ts";
import type { Db } from "./db.ts";
import { MIGRATIONS, migrate } from "./migrations.ts";
import { OrderItems } from "./order-items.ts";
import { type Order, Orders } from "./orders.ts";
import { Refunds } from "./refunds.ts";
import { SqliteDb } from "./sqlite.ts";
import { Users } from "./users.ts";

const NOW = Date.UTC(2026, 0, 15, 12);
const DAY = 86_400_000;
const YEAR = 365 * DAY;
const url = postgresUrl();

const backends: {
  name: string;
  skip: boolean;
  open(): Promise<{ db: Db; close(): Promise<void> }>;
}[] = [
  {
    name: "SQLite",
    skip: false,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "order-items-"));
      const db = new SqliteDb(join(dir, "t.sqlite"));
      return {
        db,
        async close() {
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "PGlite",
    skip: false,
    async open() {
      const db = await openPglite();
      return { db, close: () => db.close() };
    },
  },
  {
    name: "PostgreSQL server",
    skip: !url,
    async open() {
      const { db } = await openTestPostgres(url ?? "");
      return { db, close: () => db.close() };
    },
  },
];

let n = 0;
function order(userId: number, overrides: Partial<Order>): Order {
  n += 1;
  return {
    id: `ord-${n}`,
    userId,
    kind: "plan",
    productCode: "wv_bizoct17_12m",
    productName: "Business",
    seats: 3,
    addOns: [],
    subTotal: 44_388,
    salesTax: 0,
    total: 44_388,
    listPrice: 44_388,
    prorateAmount: 0,
    currency: "USD",
    processor: "cc",
    chargeRef: `pi_${n}`,
    invoiceId: `in-${n}`,
    periodStart: NOW,
    periodEnd: NOW + YEAR,
    termMonths: 12,
    coupon: null,
    idempotencyKey: null,
    createdAt: NOW,
    catalogVersion: null,
    priceSet: null,
    ...overrides,
  };
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(`order items on ${backend.name}`, { timeout: 60_000 }, () => {
    it("backfills a database from before migration 29 from its orders, and reads payments back", async () => {
      const { db, close } = await backend.open();
      try {
        await migrate(
          db,
          NOW,
          MIGRATIONS.filter((m) => m.version < 29),
        );
        const userId = await db.transaction((tx) => Users.insert(tx, testUser(`items${n}`, NOW)));
        const biz = order(userId, {});
        const seat = order(userId, {
          seats: 4,
          subTotal: 14_796,
          total: 14_796,
          periodStart: NOW + 30 * DAY,
          createdAt: NOW + 30 * DAY,
        });
        const exports = order(userId, {
          kind: "one_off",
          productCode: "wv_export_4k",
          addOns: ["wv_export_1080p", "wv_export_720p"],
          total: 900,
          createdAt: NOW + 31 * DAY,
        });
        const seat2 = order(userId, {
          seats: 5,
          subTotal: 12_000,
          total: 12_000,
          periodStart: NOW + 35 * DAY,
          createdAt: NOW + 35 * DAY,
        });
        const upgrade = order(userId, {
          productCode: "wv_biz_plus_12m",
          seats: 5,
          subTotal: 20_000,
          total: 20_000,
          prorateAmount: 50_000,
          periodStart: NOW + 40 * DAY,
          periodEnd: NOW + 40 * DAY + YEAR,
          createdAt: NOW + 40 * DAY,
        });
        await db.transaction(async (tx) => {
          for (const o of [biz, seat, exports, seat2, upgrade]) await Orders.insert(tx, o);
          await Refunds.insert(tx, {
            id: "dp_1",
            orderId: biz.id,
            userId,
            amount: biz.total,
            currency: "USD",
            kind: "dispute_lost",
            provider: "stripe",
            createdAt: NOW + 50 * DAY,
          });
        });
        // 29 backfills; the migrations after it run too.
        expect(await migrate(db, NOW)).toEqual(
          MIGRATIONS.filter((m) => m.version >= 29).map((m) => m.version),
        );
        expect(await OrderItems.paymentsOf(db, userId)).toEqual([
          {
            id: biz.id,
            givenBack: true,
            items: [
              {
                kind: "plan",
                productCode: "wv_bizoct17_12m",
                seats: 3,
                periodStart: NOW,
                periodEnd: NOW + YEAR,
                value: 44_388,
              },
            ],
          },
          {
            id: seat.id,
            givenBack: false,
            items: [
              {
                kind: "seats",
                seats: 1,
                restsOn: biz.id,
                periodStart: NOW + 30 * DAY,
                periodEnd: NOW + YEAR,
                value: 14_796,
              },
            ],
          },
          { id: exports.id, givenBack: false, items: [{ kind: "exportCredits", credits: 3 }] },
          {
            id: seat2.id,
            givenBack: false,
            items: [
              {
                kind: "seats",
                seats: 1,
                restsOn: biz.id,
                periodStart: NOW + 35 * DAY,
                periodEnd: NOW + YEAR,
                value: 12_000,
              },
            ],
          },
          {
            id: upgrade.id,
            givenBack: false,
            items: [
              {
                kind: "plan",
                productCode: "wv_biz_plus_12m",
                seats: 5,
                periodStart: NOW + 40 * DAY,
                periodEnd: NOW + 40 * DAY + YEAR,
                value: 70_000,
              },
              { kind: "credit", cents: 50_000, restsOn: biz.id },
            ],
          },
        ]);

        // Written with an order from now on: read back as written.
        const later = order(userId, { createdAt: NOW + 60 * DAY });
        const items = [
          {
            kind: "seats" as const,
            seats: 2,
            restsOn: upgrade.id,
            periodStart: NOW + 60 * DAY,
            periodEnd: NOW + 40 * DAY + YEAR,
            value: 100,
          },
          { kind: "exportCredits" as const, credits: 1 },
        ];
        await db.transaction(async (tx) => {
          await Orders.insert(tx, later);
          await OrderItems.insert(tx, later, items);
        });
        const payments = await OrderItems.paymentsOf(db, userId);
        expect(payments.at(-1)).toEqual({ id: later.id, givenBack: false, items });
      } finally {
        await close();
      }
    });
  });
}
