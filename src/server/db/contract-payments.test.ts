// The database contract (testing/db-contract.ts: SQLite, PGlite and, with DATABASE_URL, a
// PostgreSQL server): orders and the sandbox provider's ledger.
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
import { type Db, UniqueViolation } from "./db.ts";
import { CardTokens, SandboxCharges, SandboxCustomers } from "./ledger.ts";
import { type Order, Orders } from "./orders.ts";
import { PaypalApprovals } from "./paypal-approvals.ts";
import { Users } from "./users.ts";

function someOrder(userId: number, overrides: Partial<Order> = {}): Order {
  return {
    id: unique("ord"),
    userId,
    kind: "plan",
    productCode: "wv_unloct17_12m",
    productName: "Unlimited",
    seats: 1,
    addOns: ["essentials"],
    subTotal: 1000,
    salesTax: 190,
    total: 1190,
    listPrice: 1200,
    prorateAmount: 0,
    currency: "USD",
    processor: "cc",
    chargeRef: unique("ch"),
    invoiceId: unique("in"),
    periodStart: NOW,
    periodEnd: NOW + 365 * 24 * HOUR,
    termMonths: 12,
    coupon: null,
    idempotencyKey: unique("key"),
    catalogVersion: null,
    priceSet: null,
    createdAt: NOW,
    ...overrides,
  };
}

for (const backend of backends) {
  describeOn(backend, "payments", () => {
    let opened: Opened;
    let db: Db;
    beforeAll(async () => {
      opened = await openMigrated(backend);
      db = opened.db;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
    });

    it("orders: insert, read, invoice pages oldest first, paid, counted", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      const orders = [0, 1, 2].map((i) => someOrder(userId, { createdAt: NOW + i }));
      const free = someOrder(userId, {
        total: 0,
        processor: null,
        invoiceId: null,
        kind: "trial",
        createdAt: NOW + 3,
      });
      await db.transaction(async (tx) => {
        for (const order of [...orders, free]) await Orders.insert(tx, order);
      });
      expect(await Orders.byId(db, orders[0]?.id ?? "")).toEqual(orders[0]);
      const page1 = await Orders.invoicesFor(db, userId, "cc", 1, 2);
      expect(page1.map((o) => o.id)).toEqual([orders[1]?.id, orders[2]?.id]);
      const page2 = await Orders.invoicesFor(db, userId, "cc", 2, 2);
      expect(page2.map((o) => o.id)).toEqual([orders[0]?.id]);
      expect(await Orders.invoicesFor(db, userId, "paypal", 1, 2)).toEqual([]);
      expect(await Orders.hasPaid(db, userId)).toBe(true);
      expect(await Orders.countFor(db, userId)).toBe(4);
      const nobody = await db.transaction((tx) => Users.insert(tx, someUser()));
      expect(await Orders.hasPaid(db, nobody)).toBe(false);
      await expect(
        db.transaction((tx) => Orders.insert(tx, someOrder(userId, { id: orders[0]?.id ?? "" }))),
      ).rejects.toBeInstanceOf(UniqueViolation);
      // One order per provider charge (issue 18, item 8); orders without a charge are many.
      const charged = orders[0]?.chargeRef ?? "";
      expect((await Orders.byChargeRef(db, charged))?.id).toBe(orders[0]?.id);
      await expect(
        db.transaction((tx) => Orders.insert(tx, someOrder(userId, { chargeRef: charged }))),
      ).rejects.toBeInstanceOf(UniqueViolation);
      await db.transaction(async (tx) => {
        await Orders.insert(tx, someOrder(userId, { chargeRef: null }));
        await Orders.insert(tx, someOrder(userId, { chargeRef: null }));
      });
    });

    it("the sandbox ledger: card tokens, customers, charges by key, PayPal approvals", async () => {
      const token = {
        id: unique("tok"),
        numberHash: "h",
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2030,
        attachError: null,
        chargeError: "card_declined",
        createdAt: NOW,
      };
      await db.transaction((tx) => CardTokens.insert(tx, token));
      expect(await CardTokens.get(db, token.id)).toEqual({ ...token, usedAt: null });
      expect(await db.transaction((tx) => CardTokens.use(tx, token.id, NOW + 1))).toBe(true);
      expect(await db.transaction((tx) => CardTokens.use(tx, token.id, NOW + 2))).toBe(false);
      expect((await CardTokens.get(db, token.id))?.usedAt).toBe(NOW + 1);

      const customer = unique("cus");
      await db.transaction((tx) =>
        SandboxCustomers.upsert(tx, { id: customer, tokenId: "t1", email: "a@b.c", now: NOW }),
      );
      await db.transaction((tx) =>
        SandboxCustomers.upsert(tx, { id: customer, tokenId: "t2", email: "a@b.c", now: NOW }),
      );
      expect(await SandboxCustomers.tokenOf(db, customer)).toBe("t2");
      expect(await SandboxCustomers.tokenOf(db, "cus_none")).toBe(null);
      const cardOf = async (customerId: string) =>
        (await SandboxCharges.beforeCharge(db, unique("order"), customerId)).chargeError;
      expect(await cardOf("cus_none")).toBe(undefined);
      const declining = unique("cus");
      await db.transaction((tx) =>
        SandboxCustomers.upsert(tx, { id: declining, tokenId: token.id, email: "a@b.c", now: NOW }),
      );
      expect(await cardOf(declining)).toBe("card_declined");

      const before = await SandboxCharges.count(db);
      const charge = {
        idempotencyKey: unique("order"),
        id: unique("ch"),
        customerId: customer,
        amount: 1190,
        currency: "usd",
        description: "Unlimited",
        errorCode: null,
        createdAt: NOW,
      };
      await db.transaction((tx) => SandboxCharges.insert(tx, charge));
      await db.transaction((tx) =>
        SandboxCharges.insert(tx, {
          ...charge,
          idempotencyKey: unique("order"),
          id: unique("ch"),
          errorCode: "card_declined",
        }),
      );
      expect(await SandboxCharges.byKey(db, charge.idempotencyKey)).toEqual(charge);
      // Before a charge: the one of its key, and the card's answer; neither, for a new key and a
      // customer without a card.
      expect(await SandboxCharges.beforeCharge(db, charge.idempotencyKey, declining)).toEqual({
        previous: charge,
        chargeError: "card_declined",
      });
      expect(await SandboxCharges.beforeCharge(db, unique("order"), "cus_none")).toEqual({
        previous: null,
        chargeError: undefined,
      });
      expect(await SandboxCharges.count(db)).toBe(before + 1);
      await expect(
        db.transaction((tx) => SandboxCharges.insert(tx, { ...charge, id: unique("ch") })),
      ).rejects.toBeInstanceOf(UniqueViolation);
      // The first charge of a key stays; a second insert with the key records nothing.
      expect(await SandboxCharges.insertFirst(db, { ...charge, id: unique("ch") })).toBe(false);
      expect(await SandboxCharges.byKey(db, charge.idempotencyKey)).toEqual(charge);
      const second = { ...charge, idempotencyKey: unique("order"), id: unique("ch") };
      expect(await SandboxCharges.insertFirst(db, second)).toBe(true);
      expect(await SandboxCharges.byKey(db, second.idempotencyKey)).toEqual(second);

      const approval = {
        id: unique("pp"),
        userId: 1,
        productCode: "wv_single_12m",
        seats: 1,
        addOns: ["essentials"],
        coupon: null,
        total: 5988,
        returnUrl: "/cart/done",
        state: "created" as const,
        orderId: null,
        createdAt: NOW,
        paypal: { planId: "P-1", quantity: 2, firstUnitCents: 2500, unitCents: 2994 },
        subscriptionId: null,
      };
      await db.transaction((tx) => PaypalApprovals.insert(tx, approval));
      expect(await PaypalApprovals.get(db, approval.id)).toEqual(approval);
      // PayPal's subscription is linked once; another id for the same approval is refused.
      expect(
        await db.transaction((tx) => PaypalApprovals.linkSubscription(tx, approval.id, "I-ONE")),
      ).toBe(true);
      expect(
        await db.transaction((tx) => PaypalApprovals.linkSubscription(tx, approval.id, "I-TWO")),
      ).toBe(false);
      expect((await PaypalApprovals.bySubscription(db, "I-ONE"))?.id).toBe(approval.id);
      expect(
        (
          await PaypalApprovals.waiting(db, { createdBefore: NOW + 1, createdAfter: 0, limit: 10 })
        ).map((a) => a.id),
      ).toContain(approval.id);
      expect(
        await db.transaction((tx) => PaypalApprovals.settle(tx, approval.id, "approved", "ord_1")),
      ).toBe(true);
      expect(
        await db.transaction((tx) => PaypalApprovals.settle(tx, approval.id, "cancelled", null)),
      ).toBe(false);
      expect(await PaypalApprovals.get(db, approval.id)).toMatchObject({
        state: "approved",
        orderId: "ord_1",
      });
    });
  });
}
