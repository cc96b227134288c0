// The steps of one renewal period (services/renewals.ts runs them): charging the provider, and
// recording what it answered: the paid period, a refused charge (the retry schedule and its
// e-mails, or the lapse), or the end of a subscription that does not renew.
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { nextAttemptAt, type RenewalCharge } from "../../domain/renewals/index.ts";
import { keyedHash } from "../auth/tokens.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db, Queryable } from "../db/db.ts";
import { type Renewal, Renewals } from "../db/renewals.ts";
import type { Subscription } from "../db/subscriptions.ts";
import type { User } from "../db/users.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import { storedPriceChoice } from "./experiments.ts";
import { numberAfterCommit } from "./invoice-numbering.ts";
import { type RenewStep, recordPaidRenewal, renewalOrder } from "./paid-renewal.ts";
import {
  refusalReason,
  renewalAuthenticationMail,
  renewalFailedMail,
  subscriptionEndedMail,
} from "./renewal-emails.ts";
import { endSubscription } from "./subscription-end.ts";

export type RenewalDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  catalog: Catalog;
  payments: PaymentProvider;
  mailer: Mailer;
  config: Pick<Config, "payments" | "publicBaseUrl" | "paypal" | "seller">;
  /** Signs the link of the dunning e-mail that asks the customer to authenticate a payment. */
  secret: Buffer;
};

/** The page where a customer authenticates a renewal's payment (handlers/renewal-payment.ts). */
export const RENEWAL_PAYMENT_PATH = "/orders/renewal";

/** The token of a renewal's payment link: only the e-mail's reader can open that page. */
export const renewalPaymentToken = (secret: Buffer, renewalId: string) =>
  keyedHash(secret, `renewal-payment:${renewalId}`);

/** The path of a renewal's payment page, with its token. */
export function renewalPaymentPath(secret: Buffer, renewalId: string): string {
  const query = new URLSearchParams({
    id: renewalId,
    token: renewalPaymentToken(secret, renewalId),
  });
  return `${RENEWAL_PAYMENT_PATH}?${query}`;
}

/** The worker a step runs for: its dependencies, and its id (it names claims and locks). */
export type WorkerRef = { readonly deps: RenewalDeps; readonly id: string };

/** How long a provider that could not be reached is left before the same attempt is tried again. */
export const PROVIDER_RETRY_MS = 10 * 60_000;

export type PeriodOutcome = "charged" | "failed" | "lapsed" | "waiting";

export type Collected =
  | { ok: true; chargeRef: string | null }
  | {
      ok: false;
      kind: "refused";
      code: string;
      /** The payment that waits for the customer's authentication, for the dunning e-mail. */
      payment?: { id: string; key: string };
    }
  | { ok: false; kind: "unavailable"; message: string };

export async function collectCharge(
  w: WorkerRef,
  user: User,
  claim: Renewal,
  key: string,
): Promise<Collected> {
  if (claim.amount === 0) return { ok: true, chargeRef: null };
  if (claim.processor === "paypal") {
    // Sandbox: PayPal's stand-in approves every renewal (no PayPal API; dueAccounts lists
    // PayPal subscriptions only in sandbox mode).
    return { ok: true, chargeRef: `PAYPAL-${claim.id}-${claim.attempts}` };
  }
  if (!user.paymentCustomer) return { ok: false, kind: "refused", code: "no_payment_method" };
  try {
    const charged = await w.deps.payments.charge({
      customerId: user.paymentCustomer,
      paymentMethodId: user.paymentMethod,
      amount: claim.amount,
      description: `Renewal: ${claim.productCode} × ${claim.seats}`,
      idempotencyKey: key,
      orderKey: key,
      // The customer is not there: the mandate saved with the card pays (SetupIntent).
      offSession: true,
      metadata: {
        userId: String(user.id),
        productCode: claim.productCode,
        renewalId: claim.id,
      },
    });
    if (charged.ok) return { ok: true, chargeRef: charged.chargeId };
    // Not reached, or perhaps charged: the same attempt (same key) is tried again later, which
    // finds the first payment instead of making another; never a refusal.
    if (charged.kind === "unavailable" || charged.kind === "unknown") {
      return { ok: false, kind: "unavailable", message: charged.message };
    }
    // The bank wants the customer (3-D Secure): dunning, whose e-mail links to a page where
    // the customer authenticates this very payment (renewal-payment.ts).
    if (charged.kind === "action") {
      return {
        ok: false,
        kind: "refused",
        code: "authentication_required",
        payment: { id: charged.intentId, key },
      };
    }
    return {
      ok: false,
      kind: "refused",
      code: charged.kind === "card" ? charged.code : "invalid_card",
    };
  } catch (error) {
    return {
      ok: false,
      kind: "unavailable",
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

/** The paid period: the order and invoice, the subscription's new period, the receipt. */
export async function recordPaid(
  w: WorkerRef,
  user: User,
  step: RenewStep,
  claim: Renewal,
  chargeRef: string | null,
  key: string,
  now: number,
  charge: RenewalCharge,
  how: {
    /** A payment after a refusal: the receipt says the subscription continues. */
    recovered: boolean;
    /** Marks the renewal paid; false when it is no longer ours to record (nothing written). */
    mark: (tx: Queryable, orderId: string) => Promise<boolean>;
  },
): Promise<boolean> {
  const { db, catalog } = w.deps;
  const order = renewalOrder(catalog, user, {
    productCode: claim.productCode,
    seats: claim.seats,
    subTotal: claim.subTotal,
    salesTax: claim.salesTax,
    total: claim.amount,
    processor: claim.processor,
    chargeRef,
    periodStart: claim.periodStart,
    periodEnd: claim.periodEnd,
    termMonths: step.termMonths,
    idempotencyKey: key,
    createdAt: now,
    priceChoice: await storedPriceChoice(db, catalog, user, now),
  });
  const committed = await db.transaction(async (tx) => {
    // Only the holder of the claim records it: a worker whose claim was taken over (it was
    // thought dead) writes nothing, and the one that took over writes the one order.
    if (!(await how.mark(tx, order.id))) return false;
    // The prices this period was charged at: the next renewal keeps them.
    await recordPaidRenewal(tx, w.deps, {
      user,
      order,
      step,
      basis: charge.basis,
      charge,
      recovered: how.recovered,
      now,
    });
    return true;
  });
  if (committed) await numberAfterCommit(w.deps, order.id);
  return committed;
}

/** A refused charge: the next try of the schedule, with an e-mail, or the lapse. */
export async function recordRefused(
  w: WorkerRef,
  user: User,
  sub: Subscription,
  claim: Renewal,
  code: string,
  now: number,
  payment: { id: string; key: string } | null,
): Promise<PeriodOutcome> {
  const { db, catalog, mailer, config } = w.deps;
  const next = nextAttemptAt(claim.periodStart, claim.attempts);
  const planName =
    catalog.plans.find((p) => p.code === claim.productCode)?.name ?? claim.productCode;
  // The account page, where Update card saves the card the next try charges (issue 34).
  const accountUrl = `${config.publicBaseUrl}/cart/home`;
  const committed = await db.transaction(async (tx) => {
    if (
      !(await Renewals.markRefused(tx, {
        id: claim.id,
        worker: w.id,
        error: code,
        nextAttemptAt: next,
        now,
        // On the lapse too: the payment is then cancelled with the renewal's (retireUnpayable).
        payment,
      }))
    )
      return false;
    if (next === null) {
      await endSubscription(tx, user, sub, now);
      await mailer.queue(
        tx,
        subscriptionEndedMail(user, {
          planName,
          endedAt: claim.periodStart,
          reason: "lapsed",
          accountUrl,
        }),
      );
    } else if (payment !== null) {
      // The bank wants the customer: a link to the page that authenticates this payment.
      await mailer.queue(
        tx,
        renewalAuthenticationMail(user, {
          planName,
          total: claim.amount,
          nextAttemptAt: next,
          payUrl: `${config.publicBaseUrl}${renewalPaymentPath(w.deps.secret, claim.id)}`,
          accountUrl,
        }),
      );
    } else {
      await mailer.queue(
        tx,
        renewalFailedMail(user, {
          planName,
          total: claim.amount,
          reason: refusalReason(code),
          nextAttemptAt: next,
          accountUrl,
        }),
      );
    }
    return true;
  });
  if (!committed) return "waiting";
  mailer.kick();
  return next === null ? "lapsed" : "failed";
}

/** A subscription that does not renew (cancelled, one-time) ends at its period end. */
export async function endNotRenewed(
  w: WorkerRef,
  user: User,
  sub: Subscription,
  reason: "cancelled" | "one_time",
  endedAt: number,
  now: number,
): Promise<void> {
  const { db, catalog, mailer, config } = w.deps;
  const planName = catalog.plans.find((p) => p.code === sub.productCode)?.name ?? sub.productCode;
  await db.transaction(async (tx) => {
    await endSubscription(tx, user, sub, now);
    await mailer.queue(
      tx,
      subscriptionEndedMail(user, {
        planName,
        endedAt,
        reason,
        accountUrl: `${config.publicBaseUrl}/cart`,
      }),
    );
  });
  mailer.kick();
}
