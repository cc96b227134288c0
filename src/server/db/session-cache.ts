// The session lookup, kept between requests while the database is unchanged.
//
// Every signed-in request reads its session, user, subscription, coupons and billing details
// (Users.bySession). On SQLite that read was most of a signed-in request's cost, while the rows
// it returns change only when something is written. So where the database can say cheaply
// whether anything changed since a moment (Db.changeMark: SQLite's own row changes and its file's
// data_version), a lookup is answered from the last one for that session while the mark is the
// same and the session has not expired. Any write, by this server through any path or by another
// process, changes the mark, and the next request of every session reads the database again: a
// sign-out, a revoked session, a plan bought or a changed address is seen at the next request,
// as before. Where the database cannot say (PostgreSQL: other servers commit without telling this
// one), nothing is kept. Decision 0073.
import type { Db } from "./db.ts";
import { type SessionRows, Users } from "./users.ts";

/** Sessions kept at most per database; the oldest kept goes first. */
const MAX_KEPT_SESSIONS = 10_000;

/** The sessions looked up since the database last changed (`mark`). */
type Kept = { mark: string; sessions: Map<string, SessionRows> };

const kept = new WeakMap<Db, Kept>();

/** Freezes what is kept, so that a request that changed it fails instead of leaking into the next. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The live session whose id hashes to `idHash`, and what is read with it (Users.bySession):
 * from the database, or as the last lookup of this session found it when nothing has changed
 * since. Requests share what is kept, so nothing may change it: with `freeze` (tests and local
 * runs, where answers are checked against the contract too) it is frozen, so that a handler that
 * changed it fails there. Not in a deployment: frozen objects cost every request that reads them
 * (orders on SQLite: about 30 µs more server CPU each, measured).
 */
export async function sessionRows(
  db: Db,
  idHash: string,
  now: number,
  options: { freeze: boolean },
): Promise<SessionRows | null> {
  if (!db.changeMark) return Users.bySession(db, idHash, now);
  // Taken before the read: a change committed between the two leaves the rows under the older
  // mark, which the next request finds different, so it reads again.
  const mark = await db.changeMark();
  let since = kept.get(db);
  // A change makes every kept lookup stale: they go at once, so what is kept is only what was
  // looked up since the last write.
  if (since?.mark !== mark) {
    since = { mark, sessions: new Map() };
    kept.set(db, since);
  }
  const last = since.sessions.get(idHash);
  if (last && now < last.sessionExpiresAt) return last;
  const rows = await Users.bySession(db, idHash, now);
  if (!rows) {
    since.sessions.delete(idHash);
    return null;
  }
  if (!last && since.sessions.size >= MAX_KEPT_SESSIONS) {
    const oldest = since.sessions.keys().next();
    if (!oldest.done) since.sessions.delete(oldest.value);
  }
  since.sessions.set(idHash, options.freeze ? deepFreeze(rows) : rows);
  return rows;
}
