// The database contract (testing/db-contract.ts: SQLite, PGlite and, with DATABASE_URL, a
// PostgreSQL server): users, sessions (the session lookup of every signed-in request), secrets,
// subscriptions, instances and invites.
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
import { CouponRedemptions } from "./coupon-redemptions.ts";
import { type Db, UniqueViolation } from "./db.ts";
import { Instances, Invites } from "./instances.ts";
import { BillingDetailsTable } from "./invoices.ts";
import { PostgresDb } from "./postgres.ts";
import { Secrets } from "./secrets.ts";
import { Sessions } from "./sessions.ts";
import { freeSubscription, Subscriptions } from "./subscriptions.ts";
import { Users } from "./users.ts";

for (const backend of backends) {
  describeOn(backend, "accounts", () => {
    let opened: Opened;
    let db: Db;
    beforeAll(async () => {
      opened = await openMigrated(backend);
      db = opened.db;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
    });

    it("users: insert, read by id, e-mail, username and session, update, members, delete", async () => {
      const fields = someUser({
        emailVerified: true,
        properties: { theme: "dark" },
        privacy: { analytics: false },
        address: { country: "DE", city: "Berlin", postalCode: "10115" },
        itunesSubscription: true,
      });
      const id = await db.transaction((tx) => Users.insert(tx, fields));
      expect(await Users.byId(db, id)).toEqual({ id, ...fields });
      expect((await Users.byEmail(db, ` ${fields.email.toUpperCase()} `))?.id).toBe(id);
      expect((await Users.byUsername(db, fields.username))?.id).toBe(id);
      expect(await Users.byEmail(db, "nobody@example.com")).toBe(null);

      await db.transaction((tx) =>
        Users.update(tx, id, { emailVerified: false, lastVisit: NOW + 5, locale: "de_DE" }),
      );
      expect(await Users.byId(db, id)).toMatchObject({
        emailVerified: false,
        lastVisit: NOW + 5,
        locale: "de_DE",
        itunesSubscription: true,
        address: { country: "DE", city: "Berlin", postalCode: "10115" },
      });

      const before = await Users.count(db);
      expect(typeof before).toBe("number");
      const gone = await db.transaction((tx) => Users.insert(tx, someUser()));
      expect(await Users.count(db)).toBe(before + 1);
      await db.transaction((tx) => Users.delete(tx, gone));
      expect(await Users.byId(db, gone)).toBe(null);
      expect(await Users.count(db)).toBe(before);
    });

    it("sessions: the user, subscription, coupons and billing details of a live session in one query", async () => {
      const id = await db.transaction((tx) => Users.insert(tx, someUser()));
      const hash = unique("session");
      await db.transaction((tx) =>
        Sessions.insert(tx, { idHash: hash, userId: id, createdAt: NOW, expiresAt: NOW + HOUR }),
      );
      const bare = await Users.bySession(db, hash, NOW);
      expect(bare?.user.id).toBe(id);
      expect(bare?.subscription).toBe(null);
      expect(bare?.redeemedCoupons).toEqual([]);
      expect(bare?.billing).toBe(null);
      // The coupons the account redeemed come with it (one row each), for the quote.
      for (const coupon of ["SPRING", "autumn"]) {
        await db.transaction((tx) =>
          CouponRedemptions.record(tx, { userId: id, coupon, orderId: unique("ord"), now: NOW }),
        );
      }
      const withCoupons = await Users.bySession(db, hash, NOW);
      expect(withCoupons?.user.id).toBe(id);
      expect(withCoupons?.redeemedCoupons).toEqual(["autumn", "spring"]);

      await db.transaction((tx) => Subscriptions.insert(tx, freeSubscription(id, NOW)));
      // The billing details too (the quote's tax), as BillingDetailsTable reads them.
      const billing = {
        userId: id,
        organisation: "Acme GmbH",
        taxId: "DE123456788",
        taxIdCountry: "DE",
        taxIdValid: true,
        street: "Unter den Linden 1",
        city: "Berlin",
        updatedAt: NOW + 3,
      };
      await db.transaction((tx) => BillingDetailsTable.put(tx, billing));
      const joined = await Users.bySession(db, hash, NOW);
      expect(joined?.user.id).toBe(id);
      expect(joined?.subscription).toEqual(freeSubscription(id, NOW));
      expect(joined?.billing).toEqual(billing);
      expect(joined?.billing).toEqual(await BillingDetailsTable.get(db, id));
      expect(joined?.redeemedCoupons).toEqual(["autumn", "spring"]);
      expect(await Users.bySession(db, hash, NOW + HOUR)).toBe(null);

      const other = unique("session");
      await db.transaction((tx) =>
        Sessions.insert(tx, { idHash: other, userId: id, createdAt: NOW, expiresAt: NOW + 1 }),
      );
      expect(await db.transaction((tx) => Sessions.deleteExpired(tx, NOW + 2))).toBeGreaterThan(0);
      expect(await Users.bySession(db, other, NOW)).toBe(null);
      expect(await Users.bySession(db, hash, NOW)).not.toBe(null);
      await db.transaction((tx) => Sessions.delete(tx, hash));
      expect(await Users.bySession(db, hash, NOW)).toBe(null);

      const third = unique("session");
      await db.transaction((tx) =>
        Sessions.insert(tx, { idHash: third, userId: id, createdAt: NOW, expiresAt: NOW + HOUR }),
      );
      await db.transaction((tx) => Sessions.deleteForUser(tx, id));
      expect(await Users.bySession(db, third, NOW)).toBe(null);
    });

    it("secrets: newest active one, single use, attempts, voiding, expiry", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      const [a, b] = [unique("secret"), unique("secret")];
      await db.transaction(async (tx) => {
        await Secrets.insert(tx, {
          hash: a,
          kind: "email_code",
          userId,
          createdAt: NOW,
          expiresAt: NOW + HOUR,
        });
        await Secrets.insert(tx, {
          hash: b,
          kind: "email_code",
          userId,
          createdAt: NOW + 1,
          expiresAt: NOW + HOUR,
        });
      });
      expect((await Secrets.activeFor(db, userId, "email_code", NOW))?.hash).toBe(b);
      expect(await Secrets.byHash(db, a, "reset")).toBe(null);
      await db.transaction((tx) => Secrets.countAttempt(tx, b));
      expect(await Secrets.byHash(db, b, "email_code")).toEqual({
        hash: b,
        kind: "email_code",
        userId,
        createdAt: NOW + 1,
        expiresAt: NOW + HOUR,
        usedAt: null,
        attempts: 1,
      });
      expect(await db.transaction((tx) => Secrets.use(tx, b, NOW + 2))).toBe(true);
      expect(await db.transaction((tx) => Secrets.use(tx, b, NOW + 3))).toBe(false);
      expect((await Secrets.activeFor(db, userId, "email_code", NOW))?.hash).toBe(a);
      await db.transaction((tx) => Secrets.voidFor(tx, userId, "email_code", NOW + 4));
      expect(await Secrets.activeFor(db, userId, "email_code", NOW)).toBe(null);
      expect(await db.transaction((tx) => Secrets.deleteExpired(tx, NOW + HOUR))).toBeGreaterThan(
        1,
      );
      expect(await Secrets.byHash(db, a, "email_code")).toBe(null);
    });

    it("subscriptions: insert, read, update", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      await db.transaction((tx) => Subscriptions.insert(tx, freeSubscription(userId, NOW)));
      await db.transaction((tx) =>
        Subscriptions.update(tx, userId, {
          productCode: "wv_unloct17_12m",
          orderState: "automatic",
          orderEnd: NOW + HOUR,
          ccRequiredForTrial: true,
          pendingProductCode: "wv_single_12m",
          pendingSeats: 1,
          pendingAt: NOW + HOUR,
        }),
      );
      expect(await Subscriptions.get(db, userId)).toEqual({
        ...freeSubscription(userId, NOW),
        productCode: "wv_unloct17_12m",
        orderState: "automatic",
        orderEnd: NOW + HOUR,
        ccRequiredForTrial: true,
        pendingProductCode: "wv_single_12m",
        pendingSeats: 1,
        pendingAt: NOW + HOUR,
      });
      expect(await Subscriptions.get(db, -1)).toBe(null);
    });

    it("export credits: added in one statement, from no subscription, by concurrent read-committed transactions", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      await db.transaction((tx) => Subscriptions.addExportCredits(tx, userId, 2, NOW), {
        isolation: "read committed",
      });
      expect(await Subscriptions.get(db, userId)).toEqual({
        ...freeSubscription(userId, NOW),
        exportCredits: 2,
      });
      const retriesBefore = db instanceof PostgresDb ? db.retries : 0;
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          db.transaction((tx) => Subscriptions.addExportCredits(tx, userId, 1, NOW + i + 1), {
            isolation: "read committed",
          }),
        ),
      );
      expect((await Subscriptions.get(db, userId))?.exportCredits).toBe(14);
      // They queued on the row's lock: none failed to serialize and ran again.
      if (db instanceof PostgresDb) expect(db.retries).toBe(retriesBefore);
    });

    it("instances and invites: names and coupons in any case, members, one acceptance", async () => {
      const ownerId = await db.transaction((tx) => Users.insert(tx, someUser()));
      const name = unique("Team");
      const coupon = unique("Coupon");
      const instance = {
        name,
        ownerUserId: ownerId,
        productCode: "wv_bizoct17_12m",
        maxSeats: 5,
        coupon,
        licensePricingStructure: null,
        createdAt: NOW,
        disbandedAt: null,
      };
      const id = await db.transaction((tx) => Instances.insert(tx, instance));
      expect(typeof id).toBe("number");
      expect(await Instances.byId(db, id)).toEqual({ id, ...instance });
      expect((await Instances.byName(db, name.toUpperCase()))?.id).toBe(id);
      expect((await Instances.byCoupon(db, coupon.toLowerCase()))?.id).toBe(id);
      expect(
        await db.transaction(async (tx) => (await Instances.byIdForUpdate(tx, id))?.maxSeats),
      ).toBe(5);
      await expect(
        db.transaction((tx) => Instances.insert(tx, { ...instance, coupon: null })),
      ).rejects.toBeInstanceOf(UniqueViolation);

      const member = await db.transaction((tx) =>
        Users.insert(tx, someUser({ instanceId: id, memberState: "approved" })),
      );
      await db.transaction((tx) =>
        Users.insert(tx, someUser({ instanceId: id, memberState: "pending" })),
      );
      expect((await Users.membersOf(db, id)).map((u) => u.instanceId)).toEqual([id, id]);
      expect((await Users.membersOf(db, id))[0]?.id).toBe(member);
      expect(await Users.countApprovedMembers(db, id)).toBe(1);

      const code = unique("invite");
      const invite = {
        code,
        instanceId: id,
        inviterUserId: ownerId,
        email: null,
        createdAt: NOW,
        acceptedAt: null,
        acceptedBy: null,
      };
      await db.transaction((tx) => Invites.insert(tx, invite));
      expect(await Invites.byCode(db, code)).toEqual(invite);
      expect(await db.transaction((tx) => Invites.accept(tx, code, member, NOW + 1))).toBe(true);
      expect(await db.transaction((tx) => Invites.accept(tx, code, ownerId, NOW + 2))).toBe(false);
      expect(await Invites.byCode(db, code)).toMatchObject({
        acceptedAt: NOW + 1,
        acceptedBy: member,
      });

      await db.transaction((tx) => Instances.update(tx, id, { maxSeats: 7, disbandedAt: NOW }));
      expect(await Instances.byId(db, id)).toBe(null);
      expect((await Instances.byName(db, name))?.maxSeats).toBe(7);
      expect(await Instances.byCoupon(db, coupon)).toBe(null);
    });
  });
}
