// A renewal payment the customer was asked to authenticate (3-D Secure): settled when the
// customer comes back from the dunning e-mail's page, cancelled at the provider once it pays for
// nothing (a new attempt replaced it, the subscription lapsed or changed; decision 0070).
import { nextRenewalStep } from "../../domain/renewals/index.ts";
import { RenewalScans } from "../db/renewal-scans.ts";
import { type Renewal, Renewals } from "../db/renewals.ts";
import { type Subscription, Subscriptions } from "../db/subscriptions.ts";
import type { User } from "../db/users.ts";
import type { ActionRequired, CancelResult, ChargeResult } from "../payments/provider.ts";
import { tryWithAccountLock } from "./account-lock.ts";
import { priceRenewal } from "./paid-renewal.ts";

import { recordPaid, type WorkerRef } from "./renewal-steps.ts";
import { billingState, seatsHeld } from "./subscription-end.ts";

/** Waiting payments read per query; a pass reads on until none is left. */
const BATCH = 100;

/**
 * What became of a renewal payment the customer was asked to authenticate (3-D Secure):
 * `paid` (recorded now, or before), still `waiting` for the customer, `refused` (the step
 * failed, or the card declined after it), `unknown` (the provider could not say), `busy` (the
 * account is being changed: ask again), `cancelled` (cancelled at the provider once it no longer
 * paid for anything: a new attempt replaced it, the subscription lapsed or changed; decision
 * 0070), or `closed` (no longer payable: the period was paid otherwise, or no payment waited).
 */
export type CustomerPayment =
  | { kind: "paid"; renewal: Renewal }
  | {
      kind: "waiting";
      renewal: Renewal;
      action: ActionRequired;
      /** The saved card the payment was made with (Stripe's pm_…; the sandbox has none). */
      paymentMethodId: string | null;
    }
  | { kind: "refused"; renewal: Renewal; code: string }
  | { kind: "unknown"; renewal: Renewal }
  | { kind: "busy"; renewal: Renewal }
  | { kind: "cancelled"; renewal: Renewal }
  | { kind: "closed"; renewal: Renewal | null };

/**
 * The payment of a refused renewal that the customer was asked to authenticate, as the provider
 * has it now; recorded (order, invoice, period, receipt) when it succeeded. Called by the
 * dunning e-mail's page after the customer's step, under the account's lock; a second call
 * finds the renewal paid and records nothing.
 */
export async function settleRenewal(w: WorkerRef, renewalId: string): Promise<CustomerPayment> {
  const { db, clock } = w.deps;
  const renewal = await Renewals.byId(db, renewalId);
  if (renewal === null) return { kind: "closed", renewal: null };
  if (renewal.state === "charged") return { kind: "paid", renewal };
  if (renewal.paymentRetired === "cancelled") return { kind: "cancelled", renewal };
  // A payment that waits on a renewal no longer due is cancelled by settleLocked.
  if (renewal.state === "claimed" || renewal.paymentKey === null) {
    return { kind: "closed", renewal };
  }
  const outcome = await tryWithAccountLock(
    w.deps,
    renewal.userId,
    async ({ user }) => {
      const sub = await Subscriptions.get(db, user.id);
      const fresh = await Renewals.byId(db, renewalId);
      if (!sub || !fresh) return { kind: "closed", renewal: fresh } as const;
      if (fresh.state === "charged") return { kind: "paid", renewal: fresh } as const;
      return settleLocked(w, user, sub, fresh, clock.now());
    },
    `renewal:${w.id}`,
  );
  if (outcome.locked) return outcome.value;
  return outcome.reason === "busy" ? { kind: "busy", renewal } : { kind: "closed", renewal };
}

/** settleByCustomer's work, the account's lock held (by the page or by the worker). */
export async function settleLocked(
  w: WorkerRef,
  user: User,
  sub: Subscription,
  renewal: Renewal,
  now: number,
): Promise<CustomerPayment> {
  const { db, catalog, payments, log } = w.deps;
  const { paymentId, paymentKey } = renewal;
  if (renewal.paymentRetired === "cancelled") return { kind: "cancelled", renewal };
  if (
    renewal.state === "charged" ||
    renewal.state === "claimed" ||
    paymentId === null ||
    paymentKey === null ||
    renewal.paymentRetired !== null
  ) {
    return { kind: "closed", renewal };
  }
  // The period it pays for must still be the one due: not lapsed, not replaced by a purchase.
  const step = nextRenewalStep(
    catalog,
    { ...billingState(sub), seatsInUse: await seatsHeld(db, user) },
    now,
  );
  if (
    renewal.state !== "failed" ||
    step.kind !== "renew" ||
    step.slot.anchor !== renewal.periodAnchor ||
    step.slot.index !== renewal.periodIndex
  ) {
    return retireLocked(w, user, renewal, now);
  }
  if (!user.paymentCustomer) return { kind: "closed", renewal };
  let found: ChargeResult | null;
  try {
    // Read back from the provider (Stripe: the PaymentIntent retrieved by its id, its amount,
    // currency, customer and order key checked), never taken from the browser.
    found = await payments.findPayment(asked(user.paymentCustomer, renewal, paymentId, paymentKey));
  } catch (error) {
    log.warn(`renewals: ${renewal.id} payment ${paymentId} could not be read: ${String(error)}`);
    return { kind: "unknown", renewal };
  }
  if (found === null) return { kind: "unknown", renewal };
  if (!found.ok) {
    if (found.kind === "action") {
      return { kind: "waiting", renewal, action: found, paymentMethodId: user.paymentMethod };
    }
    if (found.kind === "card") return { kind: "refused", renewal, code: found.code };
    return { kind: "unknown", renewal };
  }
  // The invoice's tax rate and lines come from the period's price; the amounts recorded are
  // the renewal's (what the provider charged), as renewalLines says.
  const priced = await priceRenewal(w.deps, user, sub, step, now);
  if (!priced.ok) {
    log.warn(
      `renewals: ${renewal.id} paid by the customer, cannot be priced: ${priced.error.message}`,
    );
    return { kind: "unknown", renewal };
  }
  const paid = await recordPaid(
    w,
    user,
    step,
    renewal,
    found.chargeId,
    paymentKey,
    now,
    priced.charge,
    {
      recovered: true,
      mark: (tx, orderId) =>
        Renewals.markPaidByCustomer(tx, { id: renewal.id, paymentKey, orderId, now }),
    },
  );
  if (paid) log.info(`renewals: ${renewal.id} paid by the customer (${found.chargeId})`);
  const after = (await Renewals.byId(db, renewal.id)) ?? renewal;
  return after.state === "charged"
    ? { kind: "paid", renewal: after }
    : { kind: "closed", renewal: after };
}

/**
 * Cancels the payment of `renewal` that waits for the customer (decision 0070), recorded on
 * the renewal once the provider says it can no longer be paid. `succeeded` and `unknown` are
 * the caller's.
 */
export async function cancelWaiting(
  w: WorkerRef,
  user: User,
  renewal: Renewal,
  now: number,
  why: string,
): Promise<CancelResult> {
  const { db, payments, log } = w.deps;
  const { paymentId, paymentKey } = renewal;
  if (paymentId === null || paymentKey === null) return { kind: "cancelled" };
  let answer: CancelResult;
  if (!user.paymentCustomer) {
    answer = { kind: "unknown", message: "the account has no customer at the provider" };
  } else {
    try {
      answer = await payments.cancelPayment(
        asked(user.paymentCustomer, renewal, paymentId, paymentKey),
      );
    } catch (error) {
      answer = {
        kind: "unknown",
        message: error instanceof Error ? error.message : String(error),
      };
    }
  }
  if (answer.kind === "cancelled") {
    await db.transaction((tx) =>
      Renewals.retirePayment(tx, { id: renewal.id, paymentKey, retired: "cancelled", now }),
    );
    log.info(`renewals: ${renewal.id} payment ${paymentId} cancelled: ${why}`);
  } else if (answer.kind === "unknown") {
    log.warn(
      `renewals: ${renewal.id} payment ${paymentId} could not be cancelled (${why}): ${answer.message}; tried again next round`,
    );
  }
  return answer;
}

/**
 * The waiting payment of a renewal that no longer pays for anything (lapsed, closed, or its
 * period replaced or not renewed), the account's lock held: cancelled. Found paid meanwhile,
 * it paid for a period that is no longer due: no order is written (nothing was bought), the
 * renewal records it, and support is told to give the money back, as the reconciliation
 * reports a payment it cannot match (the worker does not refund: decision 0070).
 */
async function retireLocked(
  w: WorkerRef,
  user: User,
  renewal: Renewal,
  now: number,
): Promise<CustomerPayment> {
  const { db, log } = w.deps;
  const answer = await cancelWaiting(w, user, renewal, now, "its renewal is no longer due");
  if (answer.kind === "unknown") return { kind: "unknown", renewal };
  if (answer.kind === "succeeded") {
    const marked = await db.transaction((tx) =>
      Renewals.retirePayment(tx, {
        id: renewal.id,
        paymentKey: renewal.paymentKey ?? "",
        retired: "paid",
        now,
      }),
    );
    if (marked) {
      log.error(
        `renewals: SUPPORT renewal ${renewal.id} of account ${renewal.userId}: payment ${answer.chargeId} (${renewal.amount} cents) was paid after its period stopped being due (${renewal.state}); no order is written; reconciliation refunds it (Stripe), else refund it at the provider`,
      );
    }
    return { kind: "closed", renewal: (await Renewals.byId(db, renewal.id)) ?? renewal };
  }
  return { kind: "cancelled", renewal: (await Renewals.byId(db, renewal.id)) ?? renewal };
}

/**
 * Cancels, each under its account's lock, the payments that still wait for a customer on
 * renewals that no longer pay for anything (RenewalScans.unpayableWaiting). A busy account, or a
 * provider that cannot say, is left to the next round.
 */
export async function retireUnpayable(w: WorkerRef): Promise<void> {
  const { db, clock, log } = w.deps;
  for (const found of await RenewalScans.unpayableWaiting(db, BATCH)) {
    try {
      await tryWithAccountLock(
        w.deps,
        found.userId,
        async ({ user }) => {
          const sub = await Subscriptions.get(db, user.id);
          const fresh = await Renewals.byId(db, found.id);
          if (!sub || !fresh) return;
          await settleLocked(w, user, sub, fresh, clock.now());
        },
        `renewal:${w.id}`,
      );
    } catch (error) {
      log.error(`renewals: ${found.id} waiting payment not cancelled`, error);
    }
  }
}

/**
 * A renewal's waiting payment as the provider is asked about it: by its id, and trusted only
 * when it is the renewal's (customer, order key, amount).
 */
function asked(customerId: string, renewal: Renewal, paymentId: string, paymentKey: string) {
  return { customerId, orderKey: paymentKey, amount: renewal.amount, paymentId };
}
