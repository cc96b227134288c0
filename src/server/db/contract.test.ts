// The database contract: every query module of this folder, the migrations, unique violations,
// the account-lock upsert, transactions and the idempotency leases, run alike on
//   - SQLite (node:sqlite, the embedded default),
//   - PostgreSQL in this process (PGlite): always, so `npm test` proves the PostgreSQL dialect on
//     any machine,
//   - a PostgreSQL server, when DATABASE_URL names one (a schema of its own, dropped after).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { testClock } from "../clock.ts";
import { fingerprint, IdempotencyService } from "../services/idempotency.ts";
import { openPglite } from "../testing/pglite.ts";
import {
  openTestPostgres,
  POSTGRES_SKIPPED,
  postgresUrl,
  tellPostgresSkipped,
} from "../testing/postgres.ts";
import { testUser } from "../testing/users.ts";
import { AccountLocks } from "./account-locks.ts";
import { CouponRedemptions } from "./coupon-redemptions.ts";
import { bool, type Db, UniqueViolation } from "./db.ts";
import { IdempotencyKeys } from "./idempotency.ts";
import { Instances, Invites } from "./instances.ts";
import { BillingDetailsTable } from "./invoices.ts";
import { CardTokens, PaypalApprovals, SandboxCharges, SandboxCustomers } from "./ledger.ts";
import { MIGRATIONS, migrate, migrationKey } from "./migrations.ts";
import { type Order, Orders } from "./orders.ts";
import { Events, Outbox } from "./outbox.ts";
import { numberPlaceholders } from "./placeholders.ts";
import { openPostgres, PostgresDb } from "./postgres.ts";
import { Secrets } from "./secrets.ts";
import { Sessions } from "./sessions.ts";
import { SqliteDb } from "./sqlite.ts";
import { freeSubscription, Subscriptions } from "./subscriptions.ts";
import { Users } from "./users.ts";

const NOW = Date.UTC(2026, 0, 15, 12);
const HOUR = 3_600_000;

type Opened = {
  db: Db;
  /** Another connection (pool) to the same database, as a second server would have. */
  another(): Db;
  close(): Promise<void>;
};

type Backend = {
  name: string;
  /** One process per database (SQLite): several servers are not a case. */
  soleServer: boolean;
  skip: string | null;
  open(): Promise<Opened>;
};

const url = postgresUrl();
if (!url) tellPostgresSkipped("the database contract on a PostgreSQL server");

const backends: Backend[] = [
  {
    name: "SQLite (node:sqlite)",
    soleServer: true,
    skip: null,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), "db-contract-"));
      const path = join(dir, "contract.sqlite");
      const db = new SqliteDb(path);
      const others: SqliteDb[] = [];
      return {
        db,
        another: () => {
          const other = new SqliteDb(path);
          others.push(other);
          return other;
        },
        async close() {
          for (const other of others) other.close();
          db.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: "PostgreSQL in-process (PGlite)",
    soleServer: false,
    skip: null,
    async open() {
      const db = await openPglite();
      // One in-process database, one connection: a second "server" shares it.
      return { db, another: () => db, close: () => db.close() };
    },
  },
  {
    name: "PostgreSQL server (DATABASE_URL)",
    soleServer: false,
    skip: url ? null : POSTGRES_SKIPPED,
    async open() {
      const { db, schema } = await openTestPostgres(url ?? "");
      const others: Db[] = [];
      return {
        db,
        another: () => {
          const other = openPostgres({ url: schema.url, poolSize: 3 });
          others.push(other);
          return other;
        },
        async close() {
          for (const other of others) await other.close();
          await db.close();
        },
      };
    },
  },
];

let seq = 0;
const unique = (prefix: string) => `${prefix}-${++seq}`;

function someUser(overrides: Parameters<typeof testUser>[2] = {}) {
  return testUser(unique("user"), NOW, overrides);
}

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

describe.skipIf(!url)("prepared statements on a PostgreSQL server", () => {
  it("runs a statement prepared before a migration changed its table's columns", async () => {
    // One connection, so the statement is prepared on the connection the change then hits.
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      await db.exec("CREATE TABLE prepared_t (a BIGINT)");
      await db.transaction((tx) => tx.run("INSERT INTO prepared_t (a) VALUES (?)", [1]));
      const read = () => db.all("SELECT * FROM prepared_t WHERE a = ?", [1]);
      expect(await read()).toEqual([{ a: 1 }]);
      expect(await read()).toEqual([{ a: 1 }]);
      // Another server's migration: the prepared `SELECT *` now has a column more.
      await db.exec("ALTER TABLE prepared_t ADD COLUMN b TEXT");
      expect(await read()).toEqual([{ a: 1, b: null }]);
      await db.exec("ALTER TABLE prepared_t ADD COLUMN c TEXT");
      expect(
        await db.transaction((tx) => tx.all("SELECT * FROM prepared_t WHERE a = ?", [1])),
      ).toEqual([{ a: 1, b: null, c: null }]);
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!url)("a transaction's BEGIN on a PostgreSQL server", () => {
  it("goes out with the transaction's first statement, which never runs outside it", async () => {
    // One connection: the second transaction finds BEGIN prepared on it, as a busy pool does.
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      await db.exec("CREATE TABLE begin_t (a BIGINT PRIMARY KEY)");
      const count = async () =>
        (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM begin_t"))?.n;
      for (let round = 1; round <= 3; round++) {
        await expect(
          db.transaction(async (tx) => {
            await tx.run("INSERT INTO begin_t (a) VALUES (?)", [round * 10]);
            throw new Error("boom");
          }),
        ).rejects.toThrow("boom");
        expect(await count()).toBe(round - 1);
        await db.transaction((tx) => tx.run("INSERT INTO begin_t (a) VALUES (?)", [round]));
        expect(await count()).toBe(round);
      }
    } finally {
      await db.close();
    }
  });

  it("sends the statements issued together in one batch, each answered with its own result", async () => {
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      await db.exec("CREATE TABLE together_t (a BIGINT PRIMARY KEY)");
      const answers = await db.transaction((tx) =>
        Promise.all([
          tx.run("INSERT INTO together_t (a) VALUES (?)", [1]),
          tx.get<{ n: number }>("SELECT COUNT(*) AS n FROM together_t"),
          tx.run("INSERT INTO together_t (a) VALUES (?), (?)", [2, 3]),
          tx.all<{ a: number }>("SELECT a FROM together_t ORDER BY a"),
        ]),
      );
      expect(answers).toEqual([
        { changes: 1 },
        { n: 1 },
        { changes: 2 },
        [{ a: 1 }, { a: 2 }, { a: 3 }],
      ]);
      // One of them failing fails the transaction, whichever of them it is, and writes nothing.
      await expect(
        db.transaction((tx) =>
          Promise.all([
            tx.run("INSERT INTO together_t (a) VALUES (?)", [4]),
            tx.run("INSERT INTO together_t (a) VALUES (?)", [1]),
            tx.run("INSERT INTO together_t (a) VALUES (?)", [5]),
          ]),
        ),
      ).rejects.toBeInstanceOf(UniqueViolation);
      expect(await db.get("SELECT COUNT(*) AS n FROM together_t")).toEqual({ n: 3 });
    } finally {
      await db.close();
    }
  });
});

describe.skipIf(!url)("statements outside transactions on a PostgreSQL server", () => {
  it("answers many at once, each with its own rows, and one that fails fails alone", async () => {
    const { db } = await openTestPostgres(url ?? "", 2);
    try {
      await db.exec("CREATE TABLE shared_t (a BIGINT PRIMARY KEY, b TEXT)");
      // 300 statements from as many "requests" at once: inserts that commit alone (a third of
      // them repeat a key and must fail with UniqueViolation), and reads of what committed.
      const outcomes = await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          const a = i % 3 === 2 ? i - 1 : i;
          try {
            await db.runAlone("INSERT INTO shared_t (a, b) VALUES (?, ?)", [a, `row ${i}`]);
          } catch (error) {
            return error instanceof UniqueViolation ? "taken" : error;
          }
          const row = await db.get<{ a: number; b: string }>(
            "SELECT a, b FROM shared_t WHERE a = ?",
            [a],
          );
          return row?.b === `row ${i}` && row.a === a ? "read back" : row;
        }),
      );
      expect(outcomes.filter((o) => o === "taken")).toHaveLength(100);
      expect(outcomes.filter((o) => o === "read back")).toHaveLength(200);
      expect(await db.get("SELECT COUNT(*) AS n FROM shared_t")).toEqual({ n: 200 });
    } finally {
      await db.close();
    }
  });

  it("reads a statement alike at every execution: nulls, a repeated name, integers past 2^53 refused", async () => {
    const { db } = await openTestPostgres(url ?? "", 1);
    try {
      for (let i = 0; i < 3; i++) {
        expect(await db.get("SELECT 1 AS x, NULL AS y, ? AS x", [`v${i}`])).toEqual({
          x: `v${i}`,
          y: null,
        });
      }
      const big = (n: bigint) => db.get("SELECT ?::bigint AS big", [n]);
      await expect(big(2n ** 60n)).rejects.toThrow(/beyond JavaScript's safe integers/);
      expect(await big(5n)).toEqual({ big: 5 });
    } finally {
      await db.close();
    }
  });
});

describe("PostgreSQL rendering", () => {
  it("numbers ? placeholders outside literals, quoted names and comments", () => {
    expect(
      numberPlaceholders(
        `SELECT '?', 'it''s ?', "a?b", ? -- a ? here
         /* and ? there */, $$?$$, $tag$ ? $tag$, ? FROM t WHERE x = ?`,
      ),
    ).toBe(
      `SELECT '?', 'it''s ?', "a?b", $1 -- a ? here
         /* and ? there */, $$?$$, $tag$ ? $tag$, $2 FROM t WHERE x = $3`,
    );
  });
});

for (const backend of backends) {
  const suite = backend.skip ? describe.skip : describe;
  // Generous time limits: PGlite (PostgreSQL in WebAssembly) is slow on a busy machine.
  suite(`database contract on ${backend.name}`, { timeout: 30_000 }, () => {
    let opened: Opened;
    let db: Db;
    beforeAll(async () => {
      opened = await backend.open();
      db = opened.db;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
    });

    it("migrates an empty database once, also when two servers start at once", async () => {
      const [a, b] = await Promise.all([migrate(db, NOW), migrate(opened.another(), NOW)]);
      expect([...a, ...b].sort((x, y) => x - y)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(await migrate(db, NOW + 1)).toEqual([]);
      const rows = await db.all<{ name: string }>(
        "SELECT name FROM kysely_migration ORDER BY name",
      );
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ name: migrationKey(m.version) })));
    });

    it("rolls a failing migration back whole", async () => {
      await expect(
        migrate(db, NOW, [
          ...MIGRATIONS,
          {
            version: 1000,
            name: "bad",
            up: async (k) => {
              await sql`CREATE TABLE contract_x (a INTEGER)`.execute(k);
              await sql`CREATE TABLE contract_x (a INTEGER)`.execute(k);
            },
          },
        ]),
      ).rejects.toThrow(/Migration 1000 \(bad\) failed/);
      await expect(db.get("SELECT COUNT(*) AS n FROM contract_x")).rejects.toThrow();
      expect(await db.get("SELECT name FROM kysely_migration WHERE name = '1000'")).toBe(undefined);
    });

    it("returns integers as numbers and stores booleans as 0/1", async () => {
      const id = await db.transaction((tx) => Users.insert(tx, someUser()));
      expect(typeof id).toBe("number");
      await db.run("UPDATE users SET email_verified = ?, last_visit = ? WHERE id = ?", [
        true,
        BigInt(NOW),
        id,
      ]);
      const row = await db.get<{ email_verified: unknown; last_visit: unknown; n: unknown }>(
        "SELECT email_verified, last_visit, (SELECT COUNT(*) FROM users) AS n FROM users WHERE id = ?",
        [id],
      );
      expect(row?.email_verified).toBe(1);
      expect(row?.last_visit).toBe(NOW);
      expect(typeof row?.n).toBe("number");
      const sum = await db.get<{ s: unknown }>(
        "SELECT SUM(created_at) AS s FROM users WHERE id = ?",
        [id],
      );
      expect(sum?.s).toBe(NOW);
      const flag = await db.get<{ b: unknown }>(
        "SELECT email_verified = 1 AS b FROM users WHERE id = ?",
        [id],
      );
      expect(bool(flag?.b)).toBe(true);
      expect(await db.get("SELECT id FROM users WHERE id = ?", [-1])).toBe(undefined);
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

    it("throws UniqueViolation for a taken e-mail, and the transaction writes nothing", async () => {
      const first = someUser();
      await db.transaction((tx) => Users.insert(tx, first));
      const count = await Users.count(db);
      const error = await db
        .transaction(async (tx) => {
          await Users.insert(tx, someUser());
          await Users.insert(tx, { ...someUser(), email: first.email });
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UniqueViolation);
      expect((error as UniqueViolation).constraint).toMatch(/email/);
      expect(await Users.count(db)).toBe(count);
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

    it("idempotency keys: one claim, leases taken over only once run out, one completion", async () => {
      const key = unique("key");
      const claim = (owner: string) =>
        db.transaction((tx) =>
          IdempotencyKeys.claim(tx, {
            userId: 1,
            key,
            fingerprint: "print",
            owner,
            now: NOW,
            leaseUntil: 1000,
          }),
        );
      expect(await claim("a")).toBe(true);
      expect(await claim("b")).toBe(false);
      // The same claim as one statement that commits alone (Db.runAlone).
      const alone = { userId: 1, fingerprint: "print", owner: "c", now: NOW, leaseUntil: 1000 };
      const other = unique("key");
      expect(await IdempotencyKeys.claimAlone(db, { ...alone, key })).toBe(false);
      expect(await IdempotencyKeys.claimAlone(db, { ...alone, key: other })).toBe(true);
      expect(await IdempotencyKeys.claimAlone(db, { ...alone, key: other, owner: "d" })).toBe(
        false,
      );
      expect((await IdempotencyKeys.get(db, 1, other))?.owner).toBe("c");
      expect(await IdempotencyKeys.get(db, 1, key)).toEqual({
        userId: 1,
        key,
        fingerprint: "print",
        state: "pending",
        owner: "a",
        leaseUntil: 1000,
        status: null,
        response: null,
        createdAt: NOW,
      });
      const takeOver = (to: string, runOutBy: number | null) =>
        db.transaction((tx) =>
          IdempotencyKeys.takeOver(tx, {
            userId: 1,
            key,
            from: "a",
            to,
            leaseUntil: 5000,
            runOutBy,
          }),
        );
      expect(await takeOver("b", 999)).toBe(false);
      expect(await takeOver("b", 1000)).toBe(true);
      expect(await takeOver("c", null)).toBe(false); // a no longer owns it
      const renew = (owner: string) =>
        db.transaction((tx) =>
          IdempotencyKeys.renew(tx, { userId: 1, key, owner, leaseUntil: 9000 }),
        );
      expect(await renew("a")).toBe(false);
      expect(await renew("b")).toBe(true);
      expect((await IdempotencyKeys.get(db, 1, key))?.leaseUntil).toBe(9000);
      const complete = (owner: string) =>
        db.transaction((tx) =>
          IdempotencyKeys.complete(tx, {
            userId: 1,
            key,
            owner,
            status: 200,
            response: '{"ok":true}',
            now: NOW + 1,
          }),
        );
      expect(await complete("a")).toBe(false);
      expect(await complete("b")).toBe(true);
      expect(await complete("b")).toBe(false);
      expect(await IdempotencyKeys.get(db, 1, key)).toMatchObject({
        state: "done",
        status: 200,
        response: '{"ok":true}',
      });
      // release frees pending keys only; old answers are deleted by age
      await db.transaction((tx) => IdempotencyKeys.release(tx, 1, key, "b"));
      expect(await IdempotencyKeys.get(db, 1, key)).not.toBe(null);
      expect(
        await db.transaction((tx) => IdempotencyKeys.deleteOlderThan(tx, NOW + 1)),
      ).toBeGreaterThan(0);
      expect(await IdempotencyKeys.get(db, 1, key)).toBe(null);
    });

    it("account locks: one statement upsert, one holder, leases, released only by its token", async () => {
      const userId = 900_000 + seq++;
      const acquire = (holder: string, token: string, now: number) =>
        db.transaction((tx) =>
          AccountLocks.acquire(tx, { userId, holder, token, now, expiresAt: now + 1000 }),
        );
      const release = (token: string) =>
        db.transaction((tx) => AccountLocks.release(tx, userId, token));
      expect(await acquire("a", "t1", NOW)).toBe(true);
      expect(await acquire("b", "t2", NOW + 1)).toBe(false);
      expect(await release("t2")).toBe(false); // b never took it: frees nothing
      expect(await acquire("a", "t3", NOW + 2)).toBe(true); // the same key retried takes it over
      expect(await release("t1")).toBe(false); // ... and the first acquisition no longer frees it
      expect(await acquire("b", "t4", NOW + 1001)).toBe(false); // a's lease was renewed at NOW + 2
      expect(await acquire("b", "t5", NOW + 1002)).toBe(true); // ... and ran out
      expect(await release("t3")).toBe(false);
      expect(await acquire("c", "t6", NOW + 1003)).toBe(false);
      expect(await release("t5")).toBe(true);
      expect(await acquire("c", "t7", NOW + 1004)).toBe(true);

      const contested = 910_000 + seq++;
      const wins = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          db.transaction((tx) =>
            AccountLocks.acquire(tx, {
              userId: contested,
              holder: `h${i}`,
              token: `t${i}`,
              now: NOW,
              expiresAt: NOW + 1000,
            }),
          ),
        ),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
    });

    it("outbox: newest first, claims keep a mail to one sender, attempts and errors", async () => {
      const to = `${unique("to")}@example.com`;
      await db.transaction(async (tx) => {
        await Outbox.insert(tx, { recipient: to, subject: "one", body: "1", now: NOW });
        await Outbox.insert(tx, { recipient: to, subject: "two", body: "2", now: NOW + 1 });
      });
      const mails = await Outbox.latest(db, 10, to);
      expect(mails.map((m) => m.subject)).toEqual(["two", "one"]);
      expect(mails[0]).toMatchObject({ recipient: to, body: "2", sentAt: null, attempts: 0 });
      const [two, one] = mails;
      if (!one || !two) throw new Error("no mails");
      const unsentIds = async (now: number) =>
        (await Outbox.unsent(db, 1000, 5, now)).map((m) => m.id).filter((id) => id >= one.id);
      expect(await unsentIds(NOW)).toEqual([one.id, two.id]);

      expect(await db.transaction((tx) => Outbox.claim(tx, one.id, NOW, NOW + 100))).toBe(true);
      expect(await db.transaction((tx) => Outbox.claim(tx, one.id, NOW + 1, NOW + 200))).toBe(
        false,
      );
      expect(await unsentIds(NOW + 50)).toEqual([two.id]);
      expect(await unsentIds(NOW + 100)).toEqual([one.id, two.id]);
      await db.transaction((tx) => Outbox.markFailed(tx, one.id, "421 try later"));
      await db.transaction((tx) => Outbox.markSent(tx, two.id, NOW + 2));
      expect(await Outbox.latest(db, 10, to)).toMatchObject([
        { id: two.id, sentAt: NOW + 2, attempts: 1, lastError: null },
        { id: one.id, sentAt: null, attempts: 1, lastError: "421 try later" },
      ]);
      expect(await unsentIds(NOW + 50)).toEqual([one.id]);
      // Tried as often as allowed: left alone.
      expect((await Outbox.unsent(db, 1000, 1, NOW)).map((m) => m.id)).not.toContain(one.id);
    });

    it("events: newest first, trimmed to the newest of a kind, deleted by age", async () => {
      const name = unique("event");
      await db.transaction(async (tx) => {
        for (let i = 0; i < 5; i++) {
          await Events.insert(tx, {
            kind: "trackjs",
            name,
            userId: null,
            payload: { i, nested: [true, null] },
            now: NOW + i,
          });
        }
      });
      expect(await Events.latest(db, "trackjs", 2)).toEqual([
        { name, userId: null, payload: { i: 4, nested: [true, null] } },
        { name, userId: null, payload: { i: 3, nested: [true, null] } },
      ]);
      expect(await db.transaction((tx) => Events.keepNewest(tx, "trackjs", 2))).toBe(3);
      expect(await Events.latest(db, "trackjs", 10)).toHaveLength(2);
      expect(await db.transaction((tx) => Events.deleteOlderThan(tx, NOW + 4))).toBe(1);
      expect(await Events.latest(db, "trackjs", 10)).toHaveLength(1);
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

    it("rolls a transaction back when its work throws, and returns its value otherwise", async () => {
      const name = unique("rollback");
      await expect(
        db.transaction(async (tx) => {
          await Events.insert(tx, { kind: "trackjs", name, userId: null, payload: 1, now: NOW });
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      const count = async () =>
        (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE name = ?", [name]))?.n;
      expect(await count()).toBe(0);
      expect(
        await db.transaction(async (tx) => {
          await Events.insert(tx, { kind: "trackjs", name, userId: null, payload: 1, now: NOW });
          return "kept";
        }),
      ).toBe("kept");
      expect(await count()).toBe(1);
    });

    it("runs overlapping read-then-write transactions as if one after the other", async () => {
      const userId = await db.transaction((tx) => Users.insert(tx, someUser()));
      await db.transaction((tx) => Subscriptions.insert(tx, freeSubscription(userId, NOW)));
      // Each reads the credits and writes them back plus one: lost updates would leave fewer.
      await Promise.all(
        Array.from({ length: 12 }, () =>
          opened.another().transaction(async (tx) => {
            const sub = await Subscriptions.get(tx, userId);
            await Subscriptions.update(tx, userId, {
              exportCredits: (sub?.exportCredits ?? 0) + 1,
            });
          }),
        ),
      );
      expect((await Subscriptions.get(db, userId))?.exportCredits).toBe(12);
    });

    const clock = testClock(NOW);
    const print = fingerprint("POST", "/pay", { plan: 1 });

    it.skipIf(backend.soleServer)(
      "shares Idempotency-Keys between servers: one runs the work, the other gets its answer",
      async () => {
        const a = new IdempotencyService(db, clock, "server-a");
        const b = new IdempotencyService(opened.another(), clock, "server-b");
        const key = unique("shared");
        let runs = 0;
        let finish: () => void = () => {};
        const slow = async () => {
          runs += 1;
          await new Promise<void>((resolve) => {
            finish = resolve;
          });
          return { status: 200, body: { order: runs } };
        };
        const first = a.run(1, key, print, slow);
        // The second server asks only once the first holds the key and runs the work.
        await vi.waitFor(() => expect(runs).toBe(1), { timeout: 10_000, interval: 5 });
        const second = b.run(1, key, print, slow);
        // Gives the second server time to start waiting; whenever the work ends, it must get
        // the first one's answer (the assertions below hold either way).
        await new Promise((resolve) => setTimeout(resolve, 150));
        finish();
        expect(await first).toEqual({ status: 200, body: { order: 1 }, replayed: false });
        expect(await second).toEqual({ status: 200, body: { order: 1 }, replayed: true });
        expect(runs).toBe(1);
      },
    );

    it("takes over a dead server's pending key: on SQLite at once, on PostgreSQL once its lease ran out", async () => {
      let leaseNow = 1_000_000;
      const orphan = unique("orphan");
      await db.transaction((tx) =>
        IdempotencyKeys.claim(tx, {
          userId: 1,
          key: orphan,
          fingerprint: print,
          owner: "server-gone",
          now: NOW,
          leaseUntil: leaseNow + 1000,
        }),
      );
      const service = new IdempotencyService(db, clock, "server-c", {
        leaseMs: 1000,
        waitMs: 0,
        leaseClock: () => leaseNow,
      });
      const work = async () => ({ status: 201, body: { taken: true } });
      const taken = { status: 201, body: { taken: true }, replayed: false };
      const early = await service.run(1, orphan, print, work);
      if (backend.soleServer) {
        expect(early).toEqual(taken);
      } else {
        expect(early.status).toBe(409);
        expect(early.body).toMatchObject({ error_code: "idempotency_key_in_progress" });
        leaseNow += 1000;
        expect(await service.run(1, orphan, print, work)).toEqual(taken);
      }
    });
  });
}
