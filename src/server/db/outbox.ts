// Queries of the outbox (e-mail waiting to be sent or shown in the sandbox mailbox) and events
// (analytics, marketing events and browser error reports) tables.
import type { Queryable } from "./db.ts";

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

type Raw = {
  id: number;
  recipient: string;
  subject: string;
  body: string;
  created_at: number;
  sent_at: number | null;
  attempts: number;
  last_error: string | null;
};

const fromRaw = (r: Raw): OutboxMail => ({
  id: r.id,
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
    await q.run(
      `INSERT INTO outbox (recipient, subject, body, created_at) VALUES ${mails.map(() => "(?, ?, ?, ?)").join(", ")}`,
      mails.flatMap((m) => [m.recipient, m.subject, m.body, m.now]),
    );
  },
  async latest(q: Queryable, limit: number, recipient?: string): Promise<OutboxMail[]> {
    const rows = recipient
      ? await q.all<Raw>("SELECT * FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT ?", [
          recipient,
          limit,
        ])
      : await q.all<Raw>("SELECT * FROM outbox ORDER BY id DESC LIMIT ?", [limit]);
    return rows.map(fromRaw);
  },
  /** Mail to send: not sent, tried fewer than `maxAttempts` times, not claimed by a sender at `now`. */
  async unsent(
    q: Queryable,
    limit: number,
    maxAttempts: number,
    now: number,
  ): Promise<OutboxMail[]> {
    const rows = await q.all<Raw>(
      `SELECT * FROM outbox WHERE sent_at IS NULL AND attempts < ?
         AND (claimed_until IS NULL OR claimed_until <= ?)
       ORDER BY id LIMIT ?`,
      [maxAttempts, now, limit],
    );
    return rows.map(fromRaw);
  },
  /**
   * Claims a mail for one sending attempt until `until` (system time); false when another sender
   * (another server) has it. A sender that dies mid-send leaves the claim to run out.
   */
  async claim(q: Queryable, id: number, now: number, until: number): Promise<boolean> {
    const result = await q.run(
      `UPDATE outbox SET claimed_until = ?
       WHERE id = ? AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until <= ?)`,
      [until, id, now],
    );
    return result.changes === 1;
  },
  async markSent(q: Queryable, id: number, now: number): Promise<void> {
    await q.run(
      "UPDATE outbox SET sent_at = ?, attempts = attempts + 1, claimed_until = NULL WHERE id = ?",
      [now, id],
    );
  },
  async markFailed(q: Queryable, id: number, error: string): Promise<void> {
    await q.run(
      "UPDATE outbox SET attempts = attempts + 1, last_error = ?, claimed_until = NULL WHERE id = ?",
      [error.slice(0, 500), id],
    );
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
    await q.run(
      "INSERT INTO events (kind, name, user_id, payload, created_at) VALUES (?, ?, ?, ?, ?)",
      [e.kind, e.name.slice(0, 200), e.userId, JSON.stringify(e.payload ?? null), e.now],
    );
  },
  async latest(
    q: Queryable,
    kind: EventKind,
    limit: number,
  ): Promise<{ name: string; userId: number | null; payload: unknown }[]> {
    const rows = await q.all<{ name: string; user_id: number | null; payload: string }>(
      "SELECT name, user_id, payload FROM events WHERE kind = ? ORDER BY id DESC LIMIT ?",
      [kind, limit],
    );
    return rows.map((r) => ({ name: r.name, userId: r.user_id, payload: JSON.parse(r.payload) }));
  },
  /**
   * Deletes the oldest events of one telemetry kind beyond the newest `keep` (at most 1000 per
   * call). Typed to telemetry kinds: cancellation records are never trimmed this way.
   */
  async keepNewest(q: Queryable, kind: TelemetryKind, keep: number): Promise<number> {
    const result = await q.run(
      `DELETE FROM events WHERE id IN (
         SELECT id FROM events WHERE kind = ? ORDER BY created_at DESC, id DESC LIMIT 1000 OFFSET ?
       )`,
      [kind, keep],
    );
    return result.changes;
  },
  async deleteOlderThan(q: Queryable, before: number): Promise<number> {
    return (await q.run("DELETE FROM events WHERE created_at < ?", [before])).changes;
  },
};
