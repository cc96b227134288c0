// Queries of the renewals table: one row per renewal of a subscription period, claimed in the
// database so that it is charged at most once however many workers run on however many servers
// (services/renewals.ts, docs/decisions/0015). The row is unique per (account, anchor, period
// index); its states:
//
//   claimed  a worker is charging it (until next_attempt_at: then a lease that has run out, and
//            another worker takes the same attempt over, with the same provider idempotency key)
//   charged  paid; order_id is the renewal's order
//   failed   the charge was refused; the next attempt is due at next_attempt_at (and, when the
//            bank wanted the customer, payment_id is the payment they may still authenticate,
//            until payment_retired says it was cancelled: decision 0070)
//   lapsed   the last attempt failed: the subscription has ended
//   closed   the subscription ended or changed before a failed renewal was paid
//
// Plain SQL within the portable subset (db.ts): `?` placeholders, INTEGER times,
// `INSERT ... ON CONFLICT ... DO UPDATE ... WHERE` and `RETURNING`.
import { FREE_PRODUCT } from "../../domain/account/tier.ts";
import type { Queryable } from "./db.ts";

export type RenewalState = "claimed" | "charged" | "failed" | "lapsed" | "closed";

export type PaymentRetired = "cancelled" | "paid";

export type Renewal = {
  id: string;
  userId: number;
  periodAnchor: number;
  periodIndex: number;
  periodStart: number;
  periodEnd: number;
  productCode: string;
  seats: number;
  subTotal: number;
  salesTax: number;
  /** What the provider is asked to charge (subTotal + salesTax). */
  amount: number;
  processor: "cc" | "paypal";
  state: RenewalState;
  /** Charge attempts made or in progress (1 for the first); part of the provider key. */
  attempts: number;
  nextAttemptAt: number;
  worker: string | null;
  orderId: string | null;
  lastError: string | null;
  /**
   * The payment of the last attempt that waits for the customer's authentication (3-D Secure),
   * and its provider key; null otherwise. The dunning e-mail's page authenticates this payment.
   */
  paymentId: string | null;
  paymentKey: string | null;
  /**
   * What became of that payment once it no longer paid for anything (decision 0070): null while
   * it may still be paid; `cancelled` at the provider; `paid` when it turned out paid for a
   * period no longer due (its money is support's: logged).
   */
  paymentRetired: PaymentRetired | null;
  createdAt: number;
  updatedAt: number;
};

/** A new claim: the period and its price, as a renewal records them. */
export type RenewalClaim = Pick<
  Renewal,
  | "id"
  | "userId"
  | "periodAnchor"
  | "periodIndex"
  | "periodStart"
  | "periodEnd"
  | "productCode"
  | "seats"
  | "subTotal"
  | "salesTax"
  | "amount"
  | "processor"
> & {
  worker: string;
  now: number;
  /** The claim's lease: after it another worker may take the attempt over. */
  leaseUntil: number;
};

function fromRow(r: Record<string, unknown>): Renewal {
  const int = (v: unknown) => Number(v);
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: String(r.id),
    userId: int(r.user_id),
    periodAnchor: int(r.period_anchor),
    periodIndex: int(r.period_index),
    periodStart: int(r.period_start),
    periodEnd: int(r.period_end),
    productCode: String(r.product_code),
    seats: int(r.seats),
    subTotal: int(r.sub_total),
    salesTax: int(r.sales_tax),
    amount: int(r.amount),
    processor: r.processor === "paypal" ? "paypal" : "cc",
    state: String(r.state) as RenewalState,
    attempts: int(r.attempts),
    nextAttemptAt: int(r.next_attempt_at),
    worker: text(r.worker),
    orderId: text(r.order_id),
    lastError: text(r.last_error),
    paymentId: text(r.payment_id),
    paymentKey: text(r.payment_key),
    paymentRetired: text(r.payment_retired) as PaymentRetired | null,
    createdAt: int(r.created_at),
    updatedAt: int(r.updated_at),
  };
}

// On a new attempt after a failure the row takes the fresh figures; a takeover of a claim whose
// worker died keeps the stored ones, so the provider sees the same request under the same key.
const FRESH_ON_RETRY = [
  "period_start",
  "period_end",
  "product_code",
  "seats",
  "sub_total",
  "sales_tax",
  "amount",
  "processor",
]
  .map(
    (c) => `${c} = CASE WHEN renewals.state = 'failed' THEN excluded.${c} ELSE renewals.${c} END`,
  )
  .join(",\n           ");

/**
 * Paid (the order written): only while the renewal is still in the state `holder` names, so
 * nothing is recorded for a renewal another worker or a later attempt has taken.
 */
async function markPaid(
  q: Queryable,
  r: { id: string; orderId: string; now: number },
  holder: "state = 'claimed' AND worker = ?" | "state = 'failed' AND payment_key = ?",
  holderValue: string,
): Promise<boolean> {
  const result = await q.run(
    `UPDATE renewals SET state = 'charged', order_id = ?, last_error = NULL, updated_at = ?
     WHERE id = ? AND ${holder}`,
    [r.orderId, r.now, r.id, holderValue],
  );
  return result.changes === 1;
}

export const Renewals = {
  /**
   * Accounts whose paid period has ended and that have something to do: renew, end (cancelled,
   * one-time product) or try a failed renewal again (not before its next attempt is due, and not
   * while another worker's claim runs). Mobile-store subscriptions are billed by the
   * store and never listed; PayPal subscriptions only when `paypal` (the sandbox stands in for it).
   */
  async dueAccounts(
    q: Queryable,
    input: { now: number; limit: number; paypal: boolean },
  ): Promise<number[]> {
    const paypal = input.paypal
      ? ""
      : "AND (s.order_state = 'cancelled' OR s.payment_processor IS NULL OR s.payment_processor <> 'paypal')";
    const rows = await q.all<{ user_id: number }>(
      `SELECT s.user_id AS user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
       WHERE s.order_state IN ('automatic', 'cancelled')
         AND s.order_end IS NOT NULL AND s.order_end <= ?
         AND s.order_start IS NOT NULL AND s.term_months IS NOT NULL AND s.term_months > 0
         AND s.product_code <> ? AND s.expired_flag = 0
         AND u.itunes_subscription = 0 AND u.android_subscription = 0
         AND u.google_wallet_subscription = 0
         ${paypal}
         AND (s.order_state = 'cancelled' OR NOT EXISTS (
           SELECT 1 FROM renewals r
           WHERE r.user_id = s.user_id
             AND r.period_anchor = COALESCE(s.period_anchor, s.order_start)
             AND r.period_index = s.period_index + 1
             AND r.state IN ('claimed', 'failed') AND r.next_attempt_at > ?
         ))
       ORDER BY s.order_end, s.user_id
       LIMIT ?`,
      [input.now, FREE_PRODUCT, input.now, input.limit],
    );
    return rows.map((row) => Number(row.user_id));
  },

  /**
   * Accounts whose one-time product (`codes`: Flex) runs out after `now` and by `until`, and
   * that have no reminder event for that end yet (issue 33, item 7). The reminder is recorded as
   * an event whose payload names the end ({"orderEnd":…}), so a product bought again, with
   * another end, gets its own reminder.
   */
  async oneTimeEnding(
    q: Queryable,
    input: { now: number; until: number; codes: readonly string[]; limit: number },
  ): Promise<number[]> {
    if (input.codes.length === 0) return [];
    const rows = await q.all<{ user_id: number }>(
      `SELECT s.user_id AS user_id FROM subscriptions s
       WHERE s.order_state = 'automatic' AND s.expired_flag = 0
         AND s.product_code IN (${input.codes.map(() => "?").join(", ")})
         AND s.order_end IS NOT NULL AND s.order_end > ? AND s.order_end <= ?
         AND NOT EXISTS (
           SELECT 1 FROM events e
           WHERE e.kind = 'reminder' AND e.user_id = s.user_id AND e.name = 'one_time_ending'
             AND e.payload = '{"orderEnd":' || s.order_end || '}'
         )
       ORDER BY s.order_end, s.user_id
       LIMIT ?`,
      [...input.codes, input.now, input.until, input.limit],
    );
    return rows.map((row) => Number(row.user_id));
  },

  /** The account's one-time product still waiting for its reminder at `now`, or null. */
  async oneTimeEndingOf(
    q: Queryable,
    userId: number,
    codes: readonly string[],
    now: number,
  ): Promise<{ productCode: string; orderEnd: number } | null> {
    if (codes.length === 0) return null;
    const row = await q.get<{ product_code: string; order_end: number }>(
      `SELECT s.product_code, s.order_end FROM subscriptions s
       WHERE s.user_id = ? AND s.order_state = 'automatic' AND s.expired_flag = 0
         AND s.product_code IN (${codes.map(() => "?").join(", ")})
         AND s.order_end IS NOT NULL AND s.order_end > ?
         AND NOT EXISTS (
           SELECT 1 FROM events e
           WHERE e.kind = 'reminder' AND e.user_id = s.user_id AND e.name = 'one_time_ending'
             AND e.payload = '{"orderEnd":' || s.order_end || '}'
         )`,
      [userId, ...codes, now],
    );
    return row ? { productCode: row.product_code, orderEnd: Number(row.order_end) } : null;
  },

  /**
   * Claims the renewal of one period for `worker`: a new row, a failed one whose next attempt is
   * due (attempts + 1), or a claim whose lease has run out (the same attempt). Null when another
   * worker holds it, it is paid or closed, or its next attempt is not due yet. One statement, so
   * two workers on one database cannot both win.
   */
  async claim(q: Queryable, c: RenewalClaim): Promise<Renewal | null> {
    const row = await q.get<Record<string, unknown>>(
      `INSERT INTO renewals (id, user_id, period_anchor, period_index, period_start, period_end,
         product_code, seats, sub_total, sales_tax, amount, processor, state, attempts,
         next_attempt_at, worker, order_id, last_error, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'claimed', 1, ?, ?, NULL, NULL, ?, ?)
       ON CONFLICT (user_id, period_anchor, period_index) DO UPDATE
         SET ${FRESH_ON_RETRY},
           attempts = CASE WHEN renewals.state = 'failed' THEN renewals.attempts + 1
                           ELSE renewals.attempts END,
           state = 'claimed',
           worker = excluded.worker,
           next_attempt_at = excluded.next_attempt_at,
           updated_at = excluded.updated_at
         WHERE renewals.state IN ('claimed', 'failed')
           AND renewals.next_attempt_at <= excluded.updated_at
       RETURNING *`,
      [
        c.id,
        c.userId,
        c.periodAnchor,
        c.periodIndex,
        c.periodStart,
        c.periodEnd,
        c.productCode,
        c.seats,
        c.subTotal,
        c.salesTax,
        c.amount,
        c.processor,
        c.leaseUntil,
        c.worker,
        c.now,
        c.now,
      ],
    );
    return row ? fromRow(row) : null;
  },

  /** Paid: false when this worker no longer holds the claim (another took it over). */
  async markCharged(
    q: Queryable,
    r: { id: string; worker: string; orderId: string; now: number },
  ): Promise<boolean> {
    return markPaid(q, r, "state = 'claimed' AND worker = ?", r.worker);
  },

  /**
   * Refused: `failed` with the next attempt's time, or `lapsed` when there is none. False when
   * this worker no longer holds the claim.
   */
  async markRefused(
    q: Queryable,
    r: {
      id: string;
      worker: string;
      error: string;
      nextAttemptAt: number | null;
      now: number;
      /** The payment that waits for the customer (authentication_required), if any. */
      payment?: { id: string; key: string } | null;
    },
  ): Promise<boolean> {
    const payment = r.payment ?? null;
    // A new payment that waits replaces the old one; without one, a payment retired before this
    // attempt stays named, so that its page says it was cancelled (decision 0070).
    const paymentColumns =
      payment === null
        ? `payment_id = CASE WHEN payment_retired IS NULL THEN NULL ELSE payment_id END,
           payment_key = CASE WHEN payment_retired IS NULL THEN NULL ELSE payment_key END`
        : "payment_id = ?, payment_key = ?, payment_retired = NULL";
    const result = await q.run(
      `UPDATE renewals SET state = ?, last_error = ?, next_attempt_at = ?, updated_at = ?,
         ${paymentColumns}
       WHERE id = ? AND state = 'claimed' AND worker = ?`,
      [
        r.nextAttemptAt === null ? "lapsed" : "failed",
        r.error,
        r.nextAttemptAt ?? r.now,
        r.now,
        ...(payment === null ? [] : [payment.id, payment.key]),
        r.id,
        r.worker,
      ],
    );
    return result.changes === 1;
  },

  /**
   * The provider could not be reached: the claim stays, its lease set to `retryAt`, and the same
   * attempt (the same provider key: the charge may have gone through) is tried again then.
   */
  async postpone(
    q: Queryable,
    r: { id: string; worker: string; error: string; retryAt: number; now: number },
  ): Promise<boolean> {
    const result = await q.run(
      `UPDATE renewals SET last_error = ?, next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND state = 'claimed' AND worker = ?`,
      [r.error, r.retryAt, r.now, r.id, r.worker],
    );
    return result.changes === 1;
  },

  /**
   * Paid by the customer: the payment of a refused attempt that the customer authenticated
   * afterwards (the dunning e-mail's page). Only while the renewal still waits for a retry and
   * only for the payment it names, so a replayed confirmation, or a payment superseded by a
   * later attempt, records nothing.
   */
  async markPaidByCustomer(
    q: Queryable,
    r: { id: string; paymentKey: string; orderId: string; now: number },
  ): Promise<boolean> {
    return markPaid(q, r, "state = 'failed' AND payment_key = ?", r.paymentKey);
  },

  /**
   * The waiting payment `paymentKey` of a renewal retired (decision 0070): cancelled at the
   * provider, or found paid for a period no longer due. Only while the row still names it.
   */
  async retirePayment(
    q: Queryable,
    r: { id: string; paymentKey: string; retired: PaymentRetired; now: number },
  ): Promise<boolean> {
    const result = await q.run(
      `UPDATE renewals SET payment_retired = ?, updated_at = ?
       WHERE id = ? AND payment_key = ? AND payment_retired IS NULL`,
      [r.retired, r.now, r.id, r.paymentKey],
    );
    return result.changes === 1;
  },

  /**
   * Renewals whose payment still waits for the customer although it pays for nothing any more:
   * the renewal lapsed or was closed, or its period is no longer the subscription's next one
   * (a purchase replaced it) or will not be renewed (cancelled, ended). The worker cancels them
   * (services/renewals.ts retireStale), each again under the account's lock.
   */
  async unpayableWaiting(q: Queryable, limit: number): Promise<Renewal[]> {
    const rows = await q.all<Record<string, unknown>>(
      `SELECT r.* FROM renewals r LEFT JOIN subscriptions s ON s.user_id = r.user_id
       WHERE r.payment_id IS NOT NULL AND r.payment_key IS NOT NULL AND r.payment_retired IS NULL
         AND (r.state IN ('lapsed', 'closed')
           OR (r.state = 'failed' AND (s.user_id IS NULL
             OR s.order_state <> 'automatic' OR s.expired_flag <> 0
             OR r.period_anchor <> COALESCE(s.period_anchor, s.order_start)
             OR r.period_index <> s.period_index + 1)))
       ORDER BY r.updated_at, r.id
       LIMIT ?`,
      [limit],
    );
    return rows.map(fromRow);
  },

  async byId(q: Queryable, id: string): Promise<Renewal | null> {
    const row = await q.get<Record<string, unknown>>("SELECT * FROM renewals WHERE id = ?", [id]);
    return row ? fromRow(row) : null;
  },

  /** The renewal of one period of an account, whatever its state. */
  async forPeriod(
    q: Queryable,
    r: { userId: number; periodAnchor: number; periodIndex: number },
  ): Promise<Renewal | null> {
    const row = await q.get<Record<string, unknown>>(
      "SELECT * FROM renewals WHERE user_id = ? AND period_anchor = ? AND period_index = ?",
      [r.userId, r.periodAnchor, r.periodIndex],
    );
    return row ? fromRow(row) : null;
  },

  /** Closes the failed renewals of an account whose subscription ended or changed. */
  async closeFailed(q: Queryable, userId: number, now: number): Promise<void> {
    await q.run(
      "UPDATE renewals SET state = 'closed', updated_at = ? WHERE user_id = ? AND state = 'failed'",
      [now, userId],
    );
  },

  async forUser(q: Queryable, userId: number): Promise<Renewal[]> {
    const rows = await q.all<Record<string, unknown>>(
      "SELECT * FROM renewals WHERE user_id = ? ORDER BY period_start, created_at",
      [userId],
    );
    return rows.map(fromRow);
  },
};
