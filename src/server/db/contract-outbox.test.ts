// The database contract (testing/db-contract.ts: SQLite, PGlite and, with DATABASE_URL, a
// PostgreSQL server): the mail outbox and the events log.
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  backends,
  describeOn,
  NOW,
  type Opened,
  openMigrated,
  unique,
} from "../testing/db-contract.ts";
import type { Db } from "./db.ts";
import { Events, Outbox } from "./outbox.ts";

for (const backend of backends) {
  describeOn(backend, "outbox and events", () => {
    let opened: Opened;
    let db: Db;
    beforeAll(async () => {
      opened = await openMigrated(backend);
      db = opened.db;
    }, 60_000);
    afterAll(async () => {
      await opened?.close();
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
  });
}
