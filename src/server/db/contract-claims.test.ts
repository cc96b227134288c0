// The database contract (testing/db-contract.ts: SQLite, PGlite and, with DATABASE_URL, a
// PostgreSQL server): what must happen once on a database several servers share: idempotency
// keys and their leases, and the account lock.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { testClock } from "../clock.ts";
import { fingerprint, IdempotencyService } from "../services/idempotency.ts";
import {
  backends,
  describeOn,
  NOW,
  type Opened,
  openMigrated,
  unique,
  uniqueNumber,
} from "../testing/db-contract.ts";
import { AccountLocks } from "./account-locks.ts";
import type { Db } from "./db.ts";
import { IdempotencyKeys } from "./idempotency.ts";

for (const backend of backends) {
  describeOn(backend, "idempotency keys and account locks", () => {
    let opened: Opened;
    let db: Db;
    beforeAll(async () => {
      opened = await openMigrated(backend);
      db = opened.db;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
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
      const userId = uniqueNumber(900_000);
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

      const contested = uniqueNumber(910_000);
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

    const clock = testClock(NOW);
    const print = fingerprint("POST", "/pay", { plan: 1 });

    it.skipIf(backend.soleServer)(
      "shares Idempotency-Keys between servers: one runs the work, the other gets its answer",
      async () => {
        let waiting: () => void = () => {};
        const secondWaits = new Promise<void>((resolve) => {
          waiting = resolve;
        });
        const a = new IdempotencyService(db, clock, "server-a");
        const b = new IdempotencyService(opened.another(), clock, "server-b", {
          onWait: () => waiting(),
        });
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
        // The work ends only once the second server has found the key pending on the first and
        // waits to read it again: it must then get the first one's answer, not run the work.
        await secondWaits;
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
