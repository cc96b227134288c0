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
// This module claims, settles and reads renewals; renewal-scans.ts finds the accounts and the
// payments the workers have something to do for. Kysely's typed builder (decision 0082); the
// claim is one `INSERT ... ON CONFLICT ... DO UPDATE ... WHERE ... RETURNING`, which both
// dialects run alike.
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { RenewalsTable } from "./schema-payments.ts";

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

/** A renewals row as a record. */
export function renewalOf(r: Selectable<RenewalsTable>): Renewal {
  return {
    id: r.id,
    userId: r.user_id,
    periodAnchor: r.period_anchor,
    periodIndex: r.period_index,
    periodStart: r.period_start,
    periodEnd: r.period_end,
    productCode: r.product_code,
    seats: r.seats,
    subTotal: r.sub_total,
    salesTax: r.sales_tax,
    amount: r.amount,
    processor: r.processor === "paypal" ? "paypal" : "cc",
    state: r.state as RenewalState,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    worker: r.worker,
    orderId: r.order_id,
    lastError: r.last_error,
    paymentId: r.payment_id,
    paymentKey: r.payment_key,
    paymentRetired: r.payment_retired as PaymentRetired | null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Paid (the order written): only while the renewal is still in the state `holder` names (a
 * worker's claim, or a failed attempt's waiting payment), so nothing is recorded for a renewal
 * another worker or a later attempt has taken.
 */
async function markPaid(
  q: Queryable,
  r: { id: string; orderId: string; now: number },
  holder: { state: "claimed"; worker: string } | { state: "failed"; paymentKey: string },
): Promise<boolean> {
  let update = q.kysely
    .updateTable("renewals")
    .set({ state: "charged", order_id: r.orderId, last_error: null, updated_at: r.now })
    .where("id", "=", r.id)
    .where("state", "=", holder.state);
  update =
    holder.state === "claimed"
      ? update.where("worker", "=", holder.worker)
      : update.where("payment_key", "=", holder.paymentKey);
  const result = await update.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The figures a retry after a failure takes afresh (Renewals.claim). */
type FreshColumn =
  | "period_start"
  | "period_end"
  | "product_code"
  | "seats"
  | "sub_total"
  | "sales_tax"
  | "amount"
  | "processor";

const renewals = (q: Queryable) => q.kysely.selectFrom("renewals").selectAll();

export const Renewals = {
  /**
   * Claims the renewal of one period for `worker`: a new row, a failed one whose next attempt is
   * due (attempts + 1), or a claim whose lease has run out (the same attempt). Null when another
   * worker holds it, it is paid or closed, or its next attempt is not due yet. One statement, so
   * two workers on one database cannot both win.
   */
  async claim(q: Queryable, c: RenewalClaim): Promise<Renewal | null> {
    const row = await q.kysely
      .insertInto("renewals")
      .values({
        id: c.id,
        user_id: c.userId,
        period_anchor: c.periodAnchor,
        period_index: c.periodIndex,
        period_start: c.periodStart,
        period_end: c.periodEnd,
        product_code: c.productCode,
        seats: c.seats,
        sub_total: c.subTotal,
        sales_tax: c.salesTax,
        amount: c.amount,
        processor: c.processor,
        state: "claimed",
        attempts: 1,
        next_attempt_at: c.leaseUntil,
        worker: c.worker,
        order_id: null,
        last_error: null,
        created_at: c.now,
        updated_at: c.now,
      })
      .onConflict((o) =>
        o
          .columns(["user_id", "period_anchor", "period_index"])
          .doUpdateSet((e) => {
            // A new attempt after a failure takes the fresh figures; a takeover of a claim whose
            // worker died keeps the stored ones, so the provider sees the same request under
            // the same key.
            const retrying = e("renewals.state", "=", "failed");
            const fresh = <C extends FreshColumn>(column: C) =>
              e
                .case()
                .when(retrying)
                .then(e.ref(`excluded.${column}`))
                .else(e.ref(`renewals.${column}`))
                .end();
            return {
              period_start: fresh("period_start"),
              period_end: fresh("period_end"),
              product_code: fresh("product_code"),
              seats: fresh("seats"),
              sub_total: fresh("sub_total"),
              sales_tax: fresh("sales_tax"),
              amount: fresh("amount"),
              processor: fresh("processor"),
              attempts: e
                .case()
                .when(retrying)
                .then(e("renewals.attempts", "+", 1))
                .else(e.ref("renewals.attempts"))
                .end(),
              state: "claimed",
              worker: e.ref("excluded.worker"),
              next_attempt_at: e.ref("excluded.next_attempt_at"),
              updated_at: e.ref("excluded.updated_at"),
            };
          })
          .where("renewals.state", "in", ["claimed", "failed"])
          .where((w) => w("renewals.next_attempt_at", "<=", w.ref("excluded.updated_at"))),
      )
      .returningAll()
      .executeTakeFirst();
    return row ? renewalOf(row) : null;
  },

  /** Paid: false when this worker no longer holds the claim (another took it over). */
  async markCharged(
    q: Queryable,
    r: { id: string; worker: string; orderId: string; now: number },
  ): Promise<boolean> {
    return markPaid(q, r, { state: "claimed", worker: r.worker });
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
    const result = await q.kysely
      .updateTable("renewals")
      .set((e) => ({
        state: r.nextAttemptAt === null ? "lapsed" : "failed",
        last_error: r.error,
        next_attempt_at: r.nextAttemptAt ?? r.now,
        updated_at: r.now,
        // A new payment that waits replaces the old one; without one, a payment retired before
        // this attempt stays named, so that its page says it was cancelled (decision 0070).
        ...(payment === null
          ? {
              payment_id: e
                .case()
                .when("payment_retired", "is", null)
                .then(null)
                .else(e.ref("payment_id"))
                .end(),
              payment_key: e
                .case()
                .when("payment_retired", "is", null)
                .then(null)
                .else(e.ref("payment_key"))
                .end(),
            }
          : { payment_id: payment.id, payment_key: payment.key, payment_retired: null }),
      }))
      .where("id", "=", r.id)
      .where("state", "=", "claimed")
      .where("worker", "=", r.worker)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /**
   * The provider could not be reached: the claim stays, its lease set to `retryAt`, and the same
   * attempt (the same provider key: the charge may have gone through) is tried again then.
   */
  async postpone(
    q: Queryable,
    r: { id: string; worker: string; error: string; retryAt: number; now: number },
  ): Promise<boolean> {
    const result = await q.kysely
      .updateTable("renewals")
      .set({ last_error: r.error, next_attempt_at: r.retryAt, updated_at: r.now })
      .where("id", "=", r.id)
      .where("state", "=", "claimed")
      .where("worker", "=", r.worker)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
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
    return markPaid(q, r, { state: "failed", paymentKey: r.paymentKey });
  },

  /**
   * The waiting payment `paymentKey` of a renewal retired (decision 0070): cancelled at the
   * provider, or found paid for a period no longer due. Only while the row still names it.
   */
  async retirePayment(
    q: Queryable,
    r: { id: string; paymentKey: string; retired: PaymentRetired; now: number },
  ): Promise<boolean> {
    const result = await q.kysely
      .updateTable("renewals")
      .set({ payment_retired: r.retired, updated_at: r.now })
      .where("id", "=", r.id)
      .where("payment_key", "=", r.paymentKey)
      .where("payment_retired", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async byId(q: Queryable, id: string): Promise<Renewal | null> {
    const row = await renewals(q).where("id", "=", id).executeTakeFirst();
    return row ? renewalOf(row) : null;
  },

  /** The renewal of one period of an account, whatever its state. */
  async forPeriod(
    q: Queryable,
    r: { userId: number; periodAnchor: number; periodIndex: number },
  ): Promise<Renewal | null> {
    const row = await renewals(q)
      .where("user_id", "=", r.userId)
      .where("period_anchor", "=", r.periodAnchor)
      .where("period_index", "=", r.periodIndex)
      .executeTakeFirst();
    return row ? renewalOf(row) : null;
  },

  /** Closes the failed renewals of an account whose subscription ended or changed. */
  async closeFailed(q: Queryable, userId: number, now: number): Promise<void> {
    await q.kysely
      .updateTable("renewals")
      .set({ state: "closed", updated_at: now })
      .where("user_id", "=", userId)
      .where("state", "=", "failed")
      .execute();
  },

  async forUser(q: Queryable, userId: number): Promise<Renewal[]> {
    const rows = await renewals(q)
      .where("user_id", "=", userId)
      .orderBy("period_start")
      .orderBy("created_at")
      .execute();
    return rows.map(renewalOf);
  },
};
