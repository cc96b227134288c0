// The database contract (testing/db-contract.ts: SQLite, PGlite and, with DATABASE_URL, a
// PostgreSQL server): renewals claimed and settled once (renewals.ts), and the workers' scans
// for work (renewal-scans.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  backends,
  describeOn,
  HOUR,
  NOW,
  type Opened,
  openMigrated,
  someUser,
  unique,
} from "../testing/db-contract.ts";
import type { Db } from "./db.ts";
import { Events } from "./outbox.ts";
import { RenewalScans } from "./renewal-scans.ts";
import { type RenewalClaim, Renewals } from "./renewals.ts";
import { freeSubscription, type Subscription, Subscriptions } from "./subscriptions.ts";
import { Users } from "./users.ts";

const DAY = 24 * HOUR;

function claimOf(
  userId: number,
  worker: string,
  now: number,
  overrides: Partial<RenewalClaim> = {},
) {
  return {
    id: unique("ren"),
    userId,
    periodAnchor: NOW - 30 * DAY,
    periodIndex: 1,
    periodStart: NOW,
    periodEnd: NOW + 30 * DAY,
    productCode: "wv_unloct17_1m",
    seats: 1,
    subTotal: 1000,
    salesTax: 190,
    amount: 1190,
    processor: "cc",
    worker,
    now,
    leaseUntil: now + 1000,
    ...overrides,
  } satisfies RenewalClaim;
}

/** A paid monthly plan whose period (anchored 30 days ago) ended at `orderEnd`. */
function paidPlan(userId: number, patch: Partial<Subscription> = {}): Subscription {
  return {
    ...freeSubscription(userId, NOW),
    productCode: "wv_unloct17_1m",
    orderState: "automatic",
    orderStart: NOW - 30 * DAY,
    orderEnd: NOW - 1,
    termMonths: 1,
    paymentProcessor: "cc",
    periodAnchor: NOW - 30 * DAY,
    periodIndex: 0,
    ...patch,
  };
}

for (const backend of backends) {
  describeOn(backend, "renewals", () => {
    let opened: Opened;
    let db: Db;
    beforeAll(async () => {
      opened = await openMigrated(backend);
      db = opened.db;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
    });

    const claim = (c: RenewalClaim) => db.transaction((tx) => Renewals.claim(tx, c));

    it("claims a period once, takes over a claim only once its lease ran out, retries a failure with fresh figures", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      const first = await claim(claimOf(userId, "a", NOW));
      expect(first).toMatchObject({ state: "claimed", worker: "a", attempts: 1, amount: 1190 });
      expect(first?.nextAttemptAt).toBe(NOW + 1000);
      expect(await claim(claimOf(userId, "b", NOW + 500))).toBe(null);
      // Worker a died: b takes the same attempt over, with the figures a asked the provider for.
      const taken = await claim(claimOf(userId, "b", NOW + 1000, { amount: 9999 }));
      expect(taken).toMatchObject({ id: first?.id, worker: "b", attempts: 1, amount: 1190 });
      expect(
        await db.transaction((tx) =>
          Renewals.markCharged(tx, { id: taken?.id ?? "", worker: "a", orderId: "o", now: NOW }),
        ),
      ).toBe(false);

      const id = taken?.id ?? "";
      const refused = {
        id,
        worker: "b",
        error: "card_declined",
        nextAttemptAt: NOW + 5000,
        now: NOW + 1100,
        payment: { id: "pi_1", key: "key_1" },
      };
      expect(await db.transaction((tx) => Renewals.markRefused(tx, refused))).toBe(true);
      expect(await Renewals.byId(db, id)).toMatchObject({
        state: "failed",
        lastError: "card_declined",
        paymentId: "pi_1",
        paymentKey: "key_1",
        paymentRetired: null,
      });
      expect(await claim(claimOf(userId, "c", NOW + 4999))).toBe(null);
      const retry = await claim(claimOf(userId, "c", NOW + 5000, { amount: 1290, seats: 2 }));
      expect(retry).toMatchObject({ id, worker: "c", attempts: 2, amount: 1290, seats: 2 });

      // Refused again without a payment that waits: the old one is no longer named.
      expect(
        await db.transaction((tx) =>
          Renewals.markRefused(tx, { ...refused, worker: "c", payment: null, now: NOW + 5100 }),
        ),
      ).toBe(true);
      expect(await Renewals.byId(db, id)).toMatchObject({ paymentId: null, paymentKey: null });
      await claim(claimOf(userId, "d", NOW + 5000 + 1));
      expect(
        await db.transaction((tx) =>
          Renewals.postpone(tx, {
            id,
            worker: "d",
            error: "timeout",
            retryAt: NOW + 9000,
            now: NOW + 6000,
          }),
        ),
      ).toBe(true);
      expect(await claim(claimOf(userId, "e", NOW + 8999))).toBe(null);
      expect(
        await db.transaction((tx) =>
          Renewals.markCharged(tx, { id, worker: "d", orderId: "ord_r", now: NOW + 7000 }),
        ),
      ).toBe(true);
      const charged = await Renewals.forPeriod(db, {
        userId,
        periodAnchor: NOW - 30 * DAY,
        periodIndex: 1,
      });
      expect(charged).toMatchObject({
        state: "charged",
        orderId: "ord_r",
        lastError: null,
        attempts: 3,
      });
      expect(await claim(claimOf(userId, "e", NOW + 10_000))).toBe(null);
      expect((await Renewals.forUser(db, userId)).map((r) => r.id)).toEqual([id]);
    });

    it("a payment the customer authenticates pays once; a retired one and closed renewals stay as they are", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      const c = await claim(claimOf(userId, "a", NOW));
      const id = c?.id ?? "";
      const payment = { id: "pi_2", key: "key_2" };
      await db.transaction((tx) =>
        Renewals.markRefused(tx, {
          id,
          worker: "a",
          error: "authentication_required",
          nextAttemptAt: NOW + DAY,
          now: NOW,
          payment,
        }),
      );
      const paid = (paymentKey: string) =>
        db.transaction((tx) =>
          Renewals.markPaidByCustomer(tx, { id, paymentKey, orderId: "ord_c", now: NOW + 1 }),
        );
      expect(await paid("another key")).toBe(false);
      expect(await paid("key_2")).toBe(true);
      expect(await paid("key_2")).toBe(false);
      expect(await Renewals.byId(db, id)).toMatchObject({ state: "charged", orderId: "ord_c" });

      const retire = (paymentKey: string) =>
        db.transaction((tx) =>
          Renewals.retirePayment(tx, { id, paymentKey, retired: "cancelled", now: NOW + 2 }),
        );
      expect(await retire("another key")).toBe(false);
      expect(await retire("key_2")).toBe(true);
      expect(await retire("key_2")).toBe(false);
      expect((await Renewals.byId(db, id))?.paymentRetired).toBe("cancelled");

      const other = await db.transaction((tx) => Users.insert(tx, someUser()));
      const failed = await claim(claimOf(other, "a", NOW));
      await db.transaction((tx) =>
        Renewals.markRefused(tx, {
          id: failed?.id ?? "",
          worker: "a",
          error: "x",
          nextAttemptAt: NOW + DAY,
          now: NOW,
        }),
      );
      await db.transaction((tx) => Renewals.closeFailed(tx, other, NOW + 3));
      expect(await Renewals.byId(db, failed?.id ?? "")).toMatchObject({
        state: "closed",
        updatedAt: NOW + 3,
      });
    });

    it("scans: due accounts, one-time products to remind, payments that pay for nothing", async () => {
      const [due, paypal, store, running, later] = await db.transaction(async (tx) => {
        const ids: number[] = [];
        for (let i = 0; i < 5; i++)
          ids.push(await Users.insert(tx, someUser({ itunesSubscription: i === 2 })));
        return ids as [number, number, number, number, number];
      });
      await db.transaction(async (tx) => {
        await Subscriptions.insert(tx, paidPlan(due));
        await Subscriptions.insert(tx, paidPlan(paypal, { paymentProcessor: "paypal" }));
        await Subscriptions.insert(tx, paidPlan(store));
        await Subscriptions.insert(tx, paidPlan(running));
        await Subscriptions.insert(tx, paidPlan(later, { orderEnd: NOW + DAY }));
      });
      // Another worker's claim of the next period runs until NOW + 1000.
      await claim(claimOf(running, "a", NOW));
      const dueAt = (paypalToo: boolean) =>
        RenewalScans.dueAccounts(db, { now: NOW, limit: 1000, paypal: paypalToo });
      const withoutPaypal = await dueAt(false);
      expect(withoutPaypal).toContain(due);
      for (const id of [paypal, store, running, later]) expect(withoutPaypal).not.toContain(id);
      expect(await dueAt(true)).toContain(paypal);
      expect(
        await RenewalScans.dueAccounts(db, { now: NOW + 1000, limit: 1000, paypal: false }),
      ).toContain(running);

      // A one-time product ending within the window, reminded once per end.
      const flex = await db.transaction((tx) => Users.insert(tx, someUser()));
      const end = NOW + 3 * DAY;
      await db.transaction((tx) =>
        Subscriptions.insert(tx, paidPlan(flex, { productCode: "wv_flex", orderEnd: end })),
      );
      const window = { now: NOW, until: NOW + 7 * DAY, codes: ["wv_flex"], limit: 1000 };
      expect(await RenewalScans.oneTimeEnding(db, window)).toEqual([flex]);
      expect(await RenewalScans.oneTimeEnding(db, { ...window, until: end - 1 })).toEqual([]);
      expect(await RenewalScans.oneTimeEndingOf(db, flex, ["wv_flex"], NOW)).toEqual({
        productCode: "wv_flex",
        orderEnd: end,
      });
      await db.transaction((tx) =>
        Events.insert(tx, {
          kind: "reminder",
          name: "one_time_ending",
          userId: flex,
          payload: { orderEnd: end },
          now: NOW,
        }),
      );
      expect(await RenewalScans.oneTimeEnding(db, window)).toEqual([]);
      expect(await RenewalScans.oneTimeEndingOf(db, flex, ["wv_flex"], NOW)).toBe(null);
      expect(await RenewalScans.oneTimeEnding(db, { ...window, codes: [] })).toEqual([]);

      // A payment waiting for the customer, for a period a purchase has since replaced.
      const waiting = await claim(
        claimOf(later, "a", NOW, { periodAnchor: NOW - 30 * DAY, periodIndex: 1 }),
      );
      const payment = { id: "pi_3", key: "key_3" };
      await db.transaction((tx) =>
        Renewals.markRefused(tx, {
          id: waiting?.id ?? "",
          worker: "a",
          error: "authentication_required",
          nextAttemptAt: NOW + DAY,
          now: NOW,
          payment,
        }),
      );
      const unpayable = async () =>
        (await RenewalScans.unpayableWaiting(db, 1000)).map((r) => r.id);
      expect(await unpayable()).not.toContain(waiting?.id);
      await db.transaction((tx) => Subscriptions.update(tx, later, { periodIndex: 1 }));
      expect(await unpayable()).toContain(waiting?.id);
      await db.transaction((tx) =>
        Renewals.retirePayment(tx, {
          id: waiting?.id ?? "",
          paymentKey: "key_3",
          retired: "cancelled",
          now: NOW,
        }),
      );
      expect(await unpayable()).not.toContain(waiting?.id);
    });
  });
}
