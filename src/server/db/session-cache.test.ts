// The session lookup kept between requests (session-cache.ts): kept only while nothing changed,
// whoever changed it and however, and never where the database cannot say (PostgreSQL).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openPglite } from "../testing/pglite.ts";
import { testUser } from "../testing/users.ts";
import { migrate } from "./migrations.ts";
import { sessionRows } from "./session-cache.ts";
import { Sessions } from "./sessions.ts";
import { SqliteDb } from "./sqlite.ts";
import { freeSubscription, Subscriptions } from "./subscriptions.ts";
import { Users } from "./users.ts";

const NOW = Date.UTC(2026, 10, 27, 12);
/** As the tests' servers and local runs keep them: frozen. */
const kept = { freeze: true };
const HOUR = 3_600_000;

let seq = 0;

/** A new account with a live session (one hour left): its session's id hash. */
async function signedIn(db: SqliteDb | Awaited<ReturnType<typeof openPglite>>) {
  const name = `kept-${++seq}`;
  const userId = await db.transaction((tx) => Users.insert(tx, testUser(name, NOW)));
  const idHash = `hash-${name}`;
  await db.transaction((tx) =>
    Sessions.insert(tx, { idHash, userId, createdAt: NOW, expiresAt: NOW + HOUR }),
  );
  return { userId, idHash };
}

describe("the session lookup on SQLite", () => {
  let dir: string;
  let path: string;
  let db: SqliteDb;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "session-cache-"));
    path = join(dir, "checkout.sqlite");
    db = new SqliteDb(path);
    await migrate(db, NOW);
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let session: { userId: number; idHash: string };
  beforeEach(async () => {
    session = await signedIn(db);
  });

  it("answers a second lookup with what the first read while nothing changed", async () => {
    const first = await sessionRows(db, session.idHash, NOW, kept);
    expect(first?.userId).toBe(session.userId);
    expect(first?.sessionExpiresAt).toBe(NOW + HOUR);
    expect(await sessionRows(db, session.idHash, NOW + 1, kept)).toBe(first);
  });

  it("sees a sign-out at the next lookup", async () => {
    expect(await sessionRows(db, session.idHash, NOW, kept)).not.toBeNull();
    await db.transaction((tx) => Sessions.delete(tx, session.idHash));
    expect(await sessionRows(db, session.idHash, NOW, kept)).toBeNull();
  });

  it("sees a change to the account (a plan bought) at the next lookup", async () => {
    const before = await sessionRows(db, session.idHash, NOW, kept);
    expect(before?.subscription).toBeNull();
    await db.transaction((tx) =>
      Subscriptions.insert(tx, { ...freeSubscription(session.userId, NOW), exportCredits: 3 }),
    );
    const after = await sessionRows(db, session.idHash, NOW, kept);
    expect(after).not.toBe(before);
    expect(after?.subscription?.exportCredits).toBe(3);
  });

  it("sees a session revoked by another process on the same file", async () => {
    expect(await sessionRows(db, session.idHash, NOW, kept)).not.toBeNull();
    const other = new DatabaseSync(path);
    try {
      other.prepare("DELETE FROM sessions WHERE id_hash = ?").run(session.idHash);
    } finally {
      other.close();
    }
    expect(await sessionRows(db, session.idHash, NOW, kept)).toBeNull();
  });

  it("sees a change written on its own connection outside its transactions", async () => {
    const before = await sessionRows(db, session.idHash, NOW, kept);
    db.raw.prepare("UPDATE users SET first_name = 'Sam' WHERE id = ?").run(session.userId);
    const after = await sessionRows(db, session.idHash, NOW, kept);
    expect(before?.user.firstName).toBe("Pat");
    expect(after?.user.firstName).toBe("Sam");
  });

  it("reads again after a script changed a table (a migration)", async () => {
    const before = await sessionRows(db, session.idHash, NOW, kept);
    await db.exec("CREATE TABLE shape_changed (id INTEGER PRIMARY KEY)");
    expect(await sessionRows(db, session.idHash, NOW, kept)).not.toBe(before);
  });

  it("reads again after another process changed a table", async () => {
    const before = await sessionRows(db, session.idHash, NOW, kept);
    const other = new DatabaseSync(path);
    try {
      other.exec("CREATE TABLE shape_changed_elsewhere (id INTEGER PRIMARY KEY)");
    } finally {
      other.close();
    }
    expect(await sessionRows(db, session.idHash, NOW, kept)).not.toBe(before);
  });

  it("ends a kept session when it expires", async () => {
    expect(await sessionRows(db, session.idHash, NOW + HOUR - 1, kept)).not.toBeNull();
    expect(await sessionRows(db, session.idHash, NOW + HOUR, kept)).toBeNull();
  });

  it("keeps the lookup frozen, so a request cannot change what the next one gets", async () => {
    const rows = await sessionRows(db, session.idHash, NOW, kept);
    expect(() => {
      (rows as { user: { firstName: string } }).user.firstName = "Changed";
    }).toThrow(TypeError);
    expect((await sessionRows(db, session.idHash, NOW, kept))?.user.firstName).toBe("Pat");
  });

  it("keeps the lookup unfrozen in a deployment, still answering from it", async () => {
    const deployed = { freeze: false };
    const first = await sessionRows(db, session.idHash, NOW, deployed);
    expect(Object.isFrozen(first)).toBe(false);
    expect(await sessionRows(db, session.idHash, NOW, deployed)).toBe(first);
  });

  it("finds nothing for an unknown session, and keeps nothing for it", async () => {
    expect(await sessionRows(db, "no-such-hash", NOW, kept)).toBeNull();
    expect(await sessionRows(db, "no-such-hash", NOW, kept)).toBeNull();
  });
});

describe("the session lookup on PostgreSQL (PGlite)", () => {
  it("reads the database every time: other servers commit without telling this one", async () => {
    const db = await openPglite();
    try {
      await migrate(db, NOW);
      const session = await signedIn(db);
      const first = await sessionRows(db, session.idHash, NOW, kept);
      const second = await sessionRows(db, session.idHash, NOW, kept);
      expect(second).toEqual(first);
      expect(second).not.toBe(first);
    } finally {
      await db.close();
    }
  });
});
