// Queries of the outbox (e-mail waiting to be sent or shown in the sandbox mailbox) and events
// (analytics, marketing events and browser error reports) tables. Kysely's typed builder
// (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { OutboxTable } from "./schema.ts";

export type OutboxMail = {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  createdAt: number;
  sentAt: number | null;
  attempts: number;
  lastError: string | null;
};

const fromRow = (r: Selectable<OutboxTable>): OutboxMail => ({
  id: Number(r.id),
  recipient: r.recipient,
  subject: r.subject,
  body: r.body,
  createdAt: r.created_at,
  sentAt: r.sent_at,
  attempts: r.attempts,
  lastError: r.last_error,
});

export const Outbox = {
  async insert(
    q: Queryable,
    m: { recipient: string; subject: string; body: string; now: number },
  ): Promise<void> {
    await Outbox.insertAll(q, [m]);
  },
  /** Several mails in one statement, in the order given (a numbering pass's receipts). */
  async insertAll(
    q: Queryable,
    mails: readonly { recipient: string; subject: string; body: string; now: number }[],
  ): Promise<void> {
    if (mails.length === 0) return;
    await q.kysely
      .insertInto("outbox")
      .values(
        mails.map((m) => ({
          recipient: m.recipient,
          subject: m.subject,
          body: m.body,
          created_at: m.now,
        })),
      )
      .execute();
  },
  async latest(q: Queryable, limit: number, recipient?: string): Promise<OutboxMail[]> {
    let query = q.kysely.selectFrom("outbox").selectAll();
    if (recipient) query = query.where("recipient", "=", recipient);
    const rows = await query.orderBy("id", "desc").limit(limit).execute();
    return rows.map(fromRow);
  },
  /** Mail to send: not sent, tried fewer than `maxAttempts` times, not claimed by a sender at `now`. */
  async unsent(
    q: Queryable,
    limit: number,
    maxAttempts: number,
    now: number,
  ): Promise<OutboxMail[]> {
    const rows = await q.kysely
      .selectFrom("outbox")
      .selectAll()
      .where("sent_at", "is", null)
      .where("attempts", "<", maxAttempts)
      .where((e) => e.or([e("claimed_until", "is", null), e("claimed_until", "<=", now)]))
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  },
  /**
   * Claims a mail for one sending attempt until `until` (system time); false when another sender
   * (another server) has it. A sender that dies mid-send leaves the claim to run out.
   */
  async claim(q: Queryable, id: number, now: number, until: number): Promise<boolean> {
    const result = await q.kysely
      .updateTable("outbox")
      .set({ claimed_until: until })
      .where("id", "=", id)
      .where("sent_at", "is", null)
      .where((e) => e.or([e("claimed_until", "is", null), e("claimed_until", "<=", now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },
  async markSent(q: Queryable, id: number, now: number): Promise<void> {
    await q.kysely
      .updateTable("outbox")
      .set((e) => ({ sent_at: now, attempts: e("attempts", "+", 1), claimed_until: null }))
      .where("id", "=", id)
      .execute();
  },
  async markFailed(q: Queryable, id: number, error: string): Promise<void> {
    await q.kysely
      .updateTable("outbox")
      .set((e) => ({
        attempts: e("attempts", "+", 1),
        last_error: error.slice(0, 500),
        claimed_until: null,
      }))
      .where("id", "=", id)
      .execute();
  },
};

/** Events the browser sends (analytics, marketing events, error reports): bounded, see telemetry.ts. */
export type TelemetryKind = "instrumentation" | "hubspot" | "trackjs";
export type EventKind = TelemetryKind | "cancellation" | "plan_change" | "payment" | "reminder";

export const Events = {
  async insert(
    q: Queryable,
    e: { kind: EventKind; name: string; userId: number | null; payload: unknown; now: number },
  ): Promise<void> {
    await q.kysely
      .insertInto("events")
      .values({
        kind: e.kind,
        name: e.name.slice(0, 200),
        user_id: e.userId,
        payload: JSON.stringify(e.payload ?? null),
        created_at: e.now,
      })
      .execute();
  },
  async latest(
    q: Queryable,
    kind: EventKind,
    limit: number,
  ): Promise<{ name: string; userId: number | null; payload: unknown }[]> {
    const rows = await q.kysely
      .selectFrom("events")
      .select(["name", "user_id", "payload"])
      .where("kind", "=", kind)
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return rows.map((r) => ({ name: r.name, userId: r.user_id, payload: JSON.parse(r.payload) }));
  },
  /**
   * Deletes the oldest events of one telemetry kind beyond the newest `keep` (at most 1000 per
   * call). Typed to telemetry kinds: cancellation records are never trimmed this way.
   */
  async keepNewest(q: Queryable, kind: TelemetryKind, keep: number): Promise<number> {
    const result = await q.kysely
      .deleteFrom("events")
      .where("id", "in", (e) =>
        e
          .selectFrom("events")
          .select("id")
          .where("kind", "=", kind)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(1000)
          .offset(keep),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
  async deleteOlderThan(q: Queryable, before: number): Promise<number> {
    const result = await q.kysely
      .deleteFrom("events")
      .where("created_at", "<", before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  },
};
