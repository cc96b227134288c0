// The renewal workers' scans (services/renewals.ts, one-time-reminders.ts, renewal-settle.ts):
// which accounts have a period to renew or end, which one-time products need their reminder,
// and which waiting payments pay for nothing any more. They only find work; renewals.ts claims
// and settles it. Kysely's typed builder (decision 0082).
import { FREE_PRODUCT } from "../../domain/account/tier.ts";
import type { Queryable } from "./db.ts";
import { type Renewal, renewalOf } from "./renewals.ts";

/**
 * The subscriptions of `codes` (one-time products) still running at `now` whose reminder for
 * their current end has not been recorded. The reminder is an event whose payload names the end
 * ({"orderEnd":…}), so a product bought again, with another end, gets its own reminder.
 */
const oneTimeWaiting = (q: Queryable, codes: readonly string[], now: number) =>
  q.kysely
    .selectFrom("subscriptions as s")
    .where("s.order_state", "=", "automatic")
    .where("s.expired_flag", "=", 0)
    .where("s.product_code", "in", codes)
    .where("s.order_end", "is not", null)
    .where("s.order_end", ">", now)
    .where((w) =>
      w.not(
        w.exists(
          w
            .selectFrom("events as e")
            .select(w.lit(1).as("one"))
            .where("e.kind", "=", "reminder")
            .whereRef("e.user_id", "=", "s.user_id")
            .where("e.name", "=", "one_time_ending")
            .where(
              "e.payload",
              "=",
              w(
                w(w.val('{"orderEnd":'), "||", w.cast<string>("s.order_end", "text")),
                "||",
                w.val("}"),
              ),
            ),
        ),
      ),
    );

export const RenewalScans = {
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
    let due = q.kysely
      .selectFrom("subscriptions as s")
      .innerJoin("users as u", "u.id", "s.user_id")
      .select("s.user_id")
      .where("s.order_state", "in", ["automatic", "cancelled"])
      .where("s.order_end", "is not", null)
      .where("s.order_end", "<=", input.now)
      .where("s.order_start", "is not", null)
      .where("s.term_months", "is not", null)
      .where("s.term_months", ">", 0)
      .where("s.product_code", "<>", FREE_PRODUCT)
      .where("s.expired_flag", "=", 0)
      .where("u.itunes_subscription", "=", 0)
      .where("u.android_subscription", "=", 0)
      .where("u.google_wallet_subscription", "=", 0);
    if (!input.paypal) {
      due = due.where((w) =>
        w.or([
          w("s.order_state", "=", "cancelled"),
          w("s.payment_processor", "is", null),
          w("s.payment_processor", "<>", "paypal"),
        ]),
      );
    }
    const rows = await due
      .where((w) =>
        w.or([
          w("s.order_state", "=", "cancelled"),
          w.not(
            w.exists(
              w
                .selectFrom("renewals as r")
                .select(w.lit(1).as("one"))
                .whereRef("r.user_id", "=", "s.user_id")
                .where("r.period_anchor", "=", w.fn.coalesce("s.period_anchor", "s.order_start"))
                .where("r.period_index", "=", w("s.period_index", "+", 1))
                .where("r.state", "in", ["claimed", "failed"])
                .where("r.next_attempt_at", ">", input.now),
            ),
          ),
        ]),
      )
      .orderBy("s.order_end")
      .orderBy("s.user_id")
      .limit(input.limit)
      .execute();
    return rows.map((row) => Number(row.user_id));
  },

  /**
   * Accounts whose one-time product (`codes`: Flex) runs out after `now` and by `until`, and
   * that have no reminder event for that end yet (issue 33, item 7).
   */
  async oneTimeEnding(
    q: Queryable,
    input: { now: number; until: number; codes: readonly string[]; limit: number },
  ): Promise<number[]> {
    if (input.codes.length === 0) return [];
    const rows = await oneTimeWaiting(q, input.codes, input.now)
      .select("s.user_id")
      .where("s.order_end", "<=", input.until)
      .orderBy("s.order_end")
      .orderBy("s.user_id")
      .limit(input.limit)
      .execute();
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
    const row = await oneTimeWaiting(q, codes, now)
      .select(["s.product_code", "s.order_end"])
      .where("s.user_id", "=", userId)
      .executeTakeFirst();
    return row ? { productCode: row.product_code, orderEnd: Number(row.order_end) } : null;
  },

  /**
   * Renewals whose payment still waits for the customer although it pays for nothing any more:
   * the renewal lapsed or was closed, or its period is no longer the subscription's next one
   * (a purchase replaced it) or will not be renewed (cancelled, ended). The worker cancels them
   * (services/renewal-settle.ts), each again under the account's lock.
   */
  async unpayableWaiting(q: Queryable, limit: number): Promise<Renewal[]> {
    const rows = await q.kysely
      .selectFrom("renewals as r")
      .leftJoin("subscriptions as s", "s.user_id", "r.user_id")
      .selectAll("r")
      .where("r.payment_id", "is not", null)
      .where("r.payment_key", "is not", null)
      .where("r.payment_retired", "is", null)
      .where((w) =>
        w.or([
          w("r.state", "in", ["lapsed", "closed"]),
          w.and([
            w("r.state", "=", "failed"),
            w.or([
              w("s.user_id", "is", null),
              w("s.order_state", "<>", "automatic"),
              w("s.expired_flag", "<>", 0),
              w("r.period_anchor", "<>", w.fn.coalesce("s.period_anchor", "s.order_start")),
              w("r.period_index", "<>", w("s.period_index", "+", 1)),
            ]),
          ]),
        ]),
      )
      .orderBy("r.updated_at")
      .orderBy("r.id")
      .limit(limit)
      .execute();
    return rows.map(renewalOf);
  },
};
