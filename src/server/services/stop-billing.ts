// An account deleted or converted to free stops paying (issue 33 item 4; decision 0076): before
// anything changes here, every recurring arrangement at every provider is ended: its PayPal
// subscription cancelled at PayPal, its saved card taken off the provider's customer (Stripe: the
// PaymentMethod detached), so neither PayPal nor a renewal can bill it again. The handlers call
// this under the account's lock and before their transaction: when a provider cannot be reached
// nothing here changes and the request is refused (billing_not_stopped, try again later), so an
// account is never gone, or free, while a provider can still bill it. Each step is idempotent (a
// subscription cancelled or a card detached already counts as done): a retry finishes the work.
// The account's own renewal is dropped by the handler's transaction (the subscription cancelled,
// or deleted with the account).
import type { AppDeps } from "../context.ts";
import type { Queryable } from "../db/db.ts";
import { PaypalStrays } from "../db/paypal-strays.ts";
import { type User, Users } from "../db/users.ts";
import { PaypalApiError } from "../payments/paypal-client.ts";

export type StopBillingDeps = Pick<AppDeps, "paypal" | "payments" | "log">;

/** What was stopped at a provider: what the e-mail tells the customer. */
export type StoppedBilling = { paypal: boolean; card: boolean };

export type StopBilling =
  | { ok: true; stopped: StoppedBilling }
  | { ok: false; provider: "paypal" | "card"; message: string };

export async function stopRecurringBilling(
  deps: StopBillingDeps,
  user: User,
  why: string,
): Promise<StopBilling> {
  const stopped: StoppedBilling = { paypal: false, card: false };
  // A subscription made through PayPal's API (a server without PAYPAL_* has none to cancel: its
  // stand-in's renewals are the renewal worker's, dropped with the subscription).
  if (user.paypalSubscriptionId !== null && deps.paypal) {
    try {
      await deps.paypal.cancelSubscription(user.paypalSubscriptionId, why);
      stopped.paypal = true;
    } catch (error) {
      // One PayPal does not know can bill nothing: nothing to cancel.
      if (!(error instanceof PaypalApiError && error.status === 404)) {
        const message = error instanceof Error ? error.message : String(error);
        deps.log.warn(
          `billing: PayPal ${user.paypalSubscriptionId} not cancelled (${why}): ${message}`,
        );
        return { ok: false, provider: "paypal", message };
      }
    }
  }
  if (user.paymentCustomer !== null) {
    let removed: Awaited<ReturnType<StopBillingDeps["payments"]["removeCard"]>>;
    try {
      removed = await deps.payments.removeCard({
        customerId: user.paymentCustomer,
        paymentMethodId: user.paymentMethod,
      });
    } catch (error) {
      removed = { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    if (!removed.ok) {
      deps.log.warn(
        `billing: card of ${user.paymentCustomer} not removed (${why}): ${removed.message}`,
      );
      return { ok: false, provider: "card", message: removed.message };
    }
    stopped.card = true;
  }
  return { ok: true, stopped };
}

/**
 * What the account's rows keep of the arrangements stopped, in the handler's transaction. An
 * account converted to free forgets its detached card (the PayPal subscription id stays: a sale
 * PayPal took before its cancel is then refunded as one with no renewal due). A deleted account's
 * PayPal subscription becomes a stray (services/paypal-strays.ts): a sale PayPal still takes
 * after the deletion finds no account, and is refunded instead of waiting for one for ever.
 */
export async function recordBillingStopped(
  tx: Queryable,
  user: User,
  input: { stopped: StoppedBilling; deleted: boolean; now: number },
): Promise<void> {
  if (input.deleted) {
    if (input.stopped.paypal && user.paypalSubscriptionId !== null)
      await PaypalStrays.open(tx, {
        subscriptionId: user.paypalSubscriptionId,
        approvalId: null,
        userId: null,
        reason: "the account was deleted",
        since: input.now,
        createdAt: input.now,
      });
    return;
  }
  if (input.stopped.card)
    await Users.update(tx, user.id, { paymentMethod: null, cardBrand: null, cardLast4: null });
}

/** Whether there was anything to stop (the e-mail is sent only then). */
export function anyStopped(stopped: StoppedBilling): boolean {
  return stopped.paypal || stopped.card;
}

/**
 * Tells the customer their billing has stopped, in the transaction that deletes or converts the
 * account (the outbox keeps the mail whatever becomes of the account's rows).
 */
export async function queueBillingStopped(
  tx: Queryable,
  deps: Pick<AppDeps, "mailer">,
  user: User,
  input: { stopped: StoppedBilling; deleted: boolean },
): Promise<void> {
  const what = [
    input.stopped.paypal ? "your PayPal subscription is cancelled at PayPal" : null,
    input.stopped.card
      ? `your saved card${user.cardLast4 ? ` ending in ${user.cardLast4}` : ""} is removed`
      : null,
  ].filter((line): line is string => line !== null);
  await deps.mailer.queue(tx, {
    to: user.email,
    subject: "Your billing has stopped",
    text: [
      `Hello ${user.firstName},`,
      "",
      input.deleted
        ? "Your account has been deleted, and your billing has stopped."
        : "Your account is now on the free plan, and your billing has stopped.",
      `${what.join(" and ")}: you will not be charged again.`.replace(/^./, (c) => c.toUpperCase()),
    ].join("\n"),
  });
}
