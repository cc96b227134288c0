// The renewal worker: charges automatic subscriptions whose paid period has ended, once per period
// however many workers run on however many servers, and ends the ones that do not renew
// (docs/decisions/0015-renewals-and-dunning.md). The rules (what is due, what it costs, the retry
// schedule, the ended state) are src/domain/renewals'; this file does the I/O around them.
//
// For each account with something due, under the account's lock (account-lock.ts, so a purchase
// and a renewal of one account never interleave) and period after period until nothing is due:
//   1. claim the period in the database (db/renewals.ts: one row per account, anchor and period
//      index; a second worker's claim of the same period finds it taken);
//   2. charge the provider with an idempotency key derived from the claim and its attempt, so a
//      worker that died mid-charge and is taken over does not charge twice;
//   3. in one transaction: mark the claim charged (only if still ours), write the order and its
//      invoice, move the subscription to the new period, queue the receipt.
// A refused charge follows the retry schedule (day 0, 3, 7) with an e-mail each time, then the
// subscription lapses to the free plan. A cancelled subscription is not charged: it ends at its
// period end. PayPal subscriptions renew as a PayPal charge in sandbox mode without PAYPAL_* (no
// PayPal API call); with PayPal's API they are left to PayPal's own billing (its PAYMENT.SALE.
// COMPLETED webhook writes each renewal), and a cancelled one still ends here at its period end.
//
// The worker runs every `intervalMs` of real time, and at once when a settable clock moves, so
// that a clock jumped months ahead catches up period by period.

import { FREE_PRODUCT } from "../../domain/account/tier.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import {
  endedState,
  nextAttemptAt,
  nextRenewalStep,
  type RenewalCharge,
} from "../../domain/renewals/index.ts";
import { keyedHash, randomId } from "../auth/tokens.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db, Queryable } from "../db/db.ts";
import { Instances, Invites } from "../db/instances.ts";
import { type Renewal, Renewals } from "../db/renewals.ts";
import { type Subscription, Subscriptions } from "../db/subscriptions.ts";
import { type User, Users } from "../db/users.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "../mail/mailer.ts";
import type {
  ActionRequired,
  CancelResult,
  ChargeResult,
  PaymentProvider,
} from "../payments/provider.ts";
import { PeriodicPass } from "../periodic-pass.ts";
import { LOCK_LEASE_MS, tryWithAccountLock } from "./account-lock.ts";
import { numberAfterCommit, numberWaiting } from "./invoice-numbering.ts";
import { remindOneTimeEnding } from "./one-time-reminders.ts";
import {
  ownedInstance,
  priceRenewal,
  type RenewStep,
  recordPaidRenewal,
  renewalOrder,
} from "./paid-renewal.ts";
import {
  refusalReason,
  renewalAuthenticationMail,
  renewalFailedMail,
  subscriptionEndedMail,
} from "./renewal-emails.ts";

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

/** What one pass did. */
export type RenewalRun = {
  charged: number;
  failed: number;
  lapsed: number;
  ended: number;
  /** Accounts skipped because a purchase (or another worker) held their lock: next pass. */
  busy: number;
};

/** How long a provider that could not be reached is left before the same attempt is tried again. */
export const PROVIDER_RETRY_MS = 10 * 60_000;

/** Accounts read per query; a pass reads on until none is left. */
const BATCH = 100;
/** Periods renewed for one account in one pass (a clock jumped a century stops here). */
const MAX_PERIODS_PER_PASS = 1200;

type Outcome = "charged" | "failed" | "lapsed" | "waiting";

type Collected =
  | { ok: true; chargeRef: string | null }
  | {
      ok: false;
      kind: "refused";
      code: string;
      /** The payment that waits for the customer's authentication, for the dunning e-mail. */
      payment?: { id: string; key: string };
    }
  | { ok: false; kind: "unavailable"; message: string };

const emptyRun = (): RenewalRun => ({ charged: 0, failed: 0, lapsed: 0, ended: 0, busy: 0 });

/**
 * Runs a pass at start, then every intervalMs (0: only when kicked) and whenever a settable clock
 * moves; a kick during a pass gets one more after it (periodic-pass.ts).
 */
export class RenewalWorker extends PeriodicPass<RenewalRun> {
  /** Names this worker's claims and locks (one per server process). */
  readonly id: string;
  private readonly deps: RenewalDeps;

  constructor(deps: RenewalDeps, options: { intervalMs?: number; id?: string } = {}) {
    super({
      pass: () => this.runOnce(),
      fallback: emptyRun(),
      failure: "renewals: a pass failed",
      log: deps.log,
      intervalMs: options.intervalMs ?? 60_000,
      clock: deps.clock,
      atStart: true,
    });
    this.deps = deps;
    this.id = options.id ?? randomId("worker", 9);
  }

  /**
   * Catches up after the clock moved: waits for the pass in progress (a clock listener started
   * it) and one more, and answers what both did (POST /dev/clock).
   */
  async catchUp(): Promise<RenewalRun> {
    const running = this.running;
    const next = this.kick();
    const runs = await Promise.all(running === null ? [next] : [running, next]);
    return runs.reduce((sum, run) => ({
      charged: sum.charged + run.charged,
      failed: sum.failed + run.failed,
      lapsed: sum.lapsed + run.lapsed,
      ended: sum.ended + run.ended,
      busy: sum.busy + run.busy,
    }));
  }

  /** One pass over every account with something due at the clock's time. Never rejects. */
  async runOnce(): Promise<RenewalRun> {
    const run = emptyRun();
    const { db, clock, log, config } = this.deps;
    const seen = new Set<number>();
    try {
      for (;;) {
        const due = await Renewals.dueAccounts(db, {
          now: clock.now(),
          limit: seen.size + BATCH,
          // With PayPal's Subscriptions API, PayPal bills its subscribers itself and says so by
          // webhook (services/paypal-webhooks.ts); only the sandbox's stand-in is renewed here.
          paypal: config.payments === "sandbox" && config.paypal === null,
        });
        const fresh = due.filter((id) => !seen.has(id));
        if (fresh.length === 0) break;
        for (const userId of fresh) {
          seen.add(userId);
          try {
            await this.renewAccount(userId, run);
          } catch (error) {
            log.error(`renewals: account ${userId} failed`, error);
          }
        }
      }
    } catch (error) {
      log.error("renewals: a pass failed", error);
    }
    // Each round also reminds the holders of one-time products (Flex) that run out soon.
    try {
      await remindOneTimeEnding(this.deps, this.id);
    } catch (error) {
      log.error("renewals: one-time reminders failed; the next round tries again", error);
    }
    // Each round also cancels the payments that wait for a customer but pay for nothing any more
    // (decision 0070): a renewal lapsed or closed, a period a purchase or a cancellation replaced.
    try {
      await this.retireUnpayable();
    } catch (error) {
      log.error(
        "renewals: cancelling unpayable payments failed; the next round tries again",
        error,
      );
    }
    // Each round also numbers the invoices whose pass after their charge failed or was cut off
    // by a crash (decision 0062): what a request left waiting waits at most one round.
    try {
      await numberWaiting(this.deps);
    } catch (error) {
      log.error("renewals: numbering waiting invoices failed; the next round tries again", error);
    }
    return run;
  }

  private async renewAccount(userId: number, run: RenewalRun): Promise<void> {
    const { db, clock, catalog } = this.deps;
    const outcome = await tryWithAccountLock(
      this.deps,
      userId,
      async () => {
        for (let i = 0; i < MAX_PERIODS_PER_PASS; i++) {
          const user = await Users.byId(db, userId);
          const sub = await Subscriptions.get(db, userId);
          if (!user || !sub) return;
          const now = clock.now();
          const step = nextRenewalStep(
            catalog,
            { ...billingState(sub), seatsInUse: await seatsHeld(db, user) },
            now,
          );
          if (step.kind === "none") return;
          if (step.kind === "end") {
            await this.end(user, sub, step.reason, step.endedAt, now);
            run.ended += 1;
            return;
          }
          const result = await this.renewPeriod(user, sub, step, now);
          if (result === "waiting") return;
          run[result] += 1;
          if (result === "lapsed") return;
        }
      },
      `renewal:${this.id}`,
    );
    if (!outcome.locked && outcome.reason === "busy") run.busy += 1;
  }

  /** One period: claim, charge, record. */
  private async renewPeriod(
    user: User,
    sub: Subscription,
    step: RenewStep,
    now: number,
  ): Promise<Outcome> {
    const { db, log } = this.deps;
    const priced = await this.price(user, sub, step, now);
    if (!priced.ok) {
      // A catalogue that cannot price the product is the operator's to fix, not the customer's
      // to pay for with a lapse: nothing is claimed, and the next pass tries again.
      log.warn(
        `renewals: account ${user.id} cannot renew ${step.productCode}: ${priced.error.message}`,
      );
      return "waiting";
    }
    const { charge } = priced;
    // A refused attempt whose payment still waits for the customer: cancelled before a new
    // attempt replaces it, so that a page left open cannot pay it too (decision 0070); paid
    // meanwhile (the page's confirmation lost, or never asked), it is recorded instead of
    // charging again.
    const open = await Renewals.forPeriod(db, {
      userId: user.id,
      periodAnchor: step.slot.anchor,
      periodIndex: step.slot.index,
    });
    if (
      open?.state === "failed" &&
      open.paymentKey !== null &&
      open.paymentRetired === null &&
      open.nextAttemptAt <= now
    ) {
      const before = await this.cancelWaiting(user, open, now, "a new attempt replaces it");
      // The provider cannot say: no new payment beside one that may yet be paid; next round.
      if (before.kind === "unknown") return "waiting";
      if (before.kind === "succeeded") {
        const settled = await this.settleLocked(user, sub, open, now);
        return settled.kind === "paid" ? "charged" : "waiting";
      }
    }
    const claim = await db.transaction((tx) =>
      Renewals.claim(tx, {
        id: randomId("ren"),
        userId: user.id,
        periodAnchor: step.slot.anchor,
        periodIndex: step.slot.index,
        periodStart: step.start,
        periodEnd: step.end,
        productCode: step.productCode,
        seats: step.seats,
        subTotal: charge.subTotal,
        salesTax: charge.salesTax,
        amount: charge.total,
        processor: sub.paymentProcessor === "paypal" ? "paypal" : "cc",
        worker: this.id,
        now,
        leaseUntil: now + LOCK_LEASE_MS,
      }),
    );
    if (claim === null) return "waiting";
    // One provider key per claim and attempt: a takeover of this attempt sends the same key, and
    // the provider answers with the charge already made instead of making another.
    const key = `renewal:${claim.id}:${claim.attempts}`;
    const collected = await this.collect(user, claim, key);
    if (collected.ok) {
      const paid = await this.recordPaid(user, step, claim, collected.chargeRef, key, now, charge, {
        recovered: claim.attempts > 1,
        mark: (tx, orderId) =>
          Renewals.markCharged(tx, { id: claim.id, worker: this.id, orderId, now }),
      });
      return paid ? "charged" : "waiting";
    }
    if (collected.kind === "unavailable") {
      log.warn(`renewals: ${claim.id} not charged, provider unavailable: ${collected.message}`);
      await db.transaction((tx) =>
        Renewals.postpone(tx, {
          id: claim.id,
          worker: this.id,
          error: collected.message.slice(0, 500),
          retryAt: now + PROVIDER_RETRY_MS,
          now,
        }),
      );
      return "waiting";
    }
    return this.recordRefused(user, sub, claim, collected.code, now, collected.payment ?? null);
  }

  /**
   * The payment of a refused renewal that the customer was asked to authenticate, as the provider
   * has it now; recorded (order, invoice, period, receipt) when it succeeded. Called by the
   * dunning e-mail's page after the customer's step, under the account's lock; a second call
   * finds the renewal paid and records nothing.
   */
  async settleByCustomer(renewalId: string): Promise<CustomerPayment> {
    const { db, clock } = this.deps;
    const renewal = await Renewals.byId(db, renewalId);
    if (renewal === null) return { kind: "closed", renewal: null };
    if (renewal.state === "charged") return { kind: "paid", renewal };
    if (renewal.paymentRetired === "cancelled") return { kind: "cancelled", renewal };
    // A payment that waits on a renewal no longer due is cancelled by settleLocked.
    if (renewal.state === "claimed" || renewal.paymentKey === null) {
      return { kind: "closed", renewal };
    }
    const outcome = await tryWithAccountLock(
      this.deps,
      renewal.userId,
      async ({ user }) => {
        const sub = await Subscriptions.get(db, user.id);
        const fresh = await Renewals.byId(db, renewalId);
        if (!sub || !fresh) return { kind: "closed", renewal: fresh } as const;
        if (fresh.state === "charged") return { kind: "paid", renewal: fresh } as const;
        return this.settleLocked(user, sub, fresh, clock.now());
      },
      `renewal:${this.id}`,
    );
    if (outcome.locked) return outcome.value;
    return outcome.reason === "busy" ? { kind: "busy", renewal } : { kind: "closed", renewal };
  }

  /** settleByCustomer's work, the account's lock held (by the page or by the worker). */
  private async settleLocked(
    user: User,
    sub: Subscription,
    renewal: Renewal,
    now: number,
  ): Promise<CustomerPayment> {
    const { db, catalog, payments, log } = this.deps;
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
      return this.retireLocked(user, renewal, now);
    }
    if (!user.paymentCustomer) return { kind: "closed", renewal };
    let found: ChargeResult | null;
    try {
      // Read back from the provider (Stripe: the PaymentIntent retrieved by its id, its amount,
      // currency, customer and order key checked), never taken from the browser.
      found = await payments.findPayment(
        asked(user.paymentCustomer, renewal, paymentId, paymentKey),
      );
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
    const priced = await this.price(user, sub, step, now);
    if (!priced.ok) {
      log.warn(
        `renewals: ${renewal.id} paid by the customer, cannot be priced: ${priced.error.message}`,
      );
      return { kind: "unknown", renewal };
    }
    const paid = await this.recordPaid(
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
  private async cancelWaiting(
    user: User,
    renewal: Renewal,
    now: number,
    why: string,
  ): Promise<CancelResult> {
    const { db, payments, log } = this.deps;
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
  private async retireLocked(user: User, renewal: Renewal, now: number): Promise<CustomerPayment> {
    const { db, log } = this.deps;
    const answer = await this.cancelWaiting(user, renewal, now, "its renewal is no longer due");
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
   * renewals that no longer pay for anything (Renewals.unpayableWaiting). A busy account, or a
   * provider that cannot say, is left to the next round.
   */
  private async retireUnpayable(): Promise<void> {
    const { db, clock, log } = this.deps;
    for (const found of await Renewals.unpayableWaiting(db, BATCH)) {
      try {
        await tryWithAccountLock(
          this.deps,
          found.userId,
          async ({ user }) => {
            const sub = await Subscriptions.get(db, user.id);
            const fresh = await Renewals.byId(db, found.id);
            if (!sub || !fresh) return;
            await this.settleLocked(user, sub, fresh, clock.now());
          },
          `renewal:${this.id}`,
        );
      } catch (error) {
        log.error(`renewals: ${found.id} waiting payment not cancelled`, error);
      }
    }
  }

  /** What the period of `step` costs this customer now (the order summary's recurring figures). */
  private price(user: User, sub: Subscription, step: RenewStep, now: number) {
    return priceRenewal(this.deps, user, sub, step, now);
  }

  private async collect(user: User, claim: Renewal, key: string): Promise<Collected> {
    if (claim.amount === 0) return { ok: true, chargeRef: null };
    if (claim.processor === "paypal") {
      // Sandbox: PayPal's stand-in approves every renewal (no PayPal API; dueAccounts lists
      // PayPal subscriptions only in sandbox mode).
      return { ok: true, chargeRef: `PAYPAL-${claim.id}-${claim.attempts}` };
    }
    if (!user.paymentCustomer) return { ok: false, kind: "refused", code: "no_payment_method" };
    try {
      const charged = await this.deps.payments.charge({
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
  private async recordPaid(
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
    const { db, catalog } = this.deps;
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
    });
    const committed = await db.transaction(async (tx) => {
      // Only the holder of the claim records it: a worker whose claim was taken over (it was
      // thought dead) writes nothing, and the one that took over writes the one order.
      if (!(await how.mark(tx, order.id))) return false;
      // The prices this period was charged at: the next renewal keeps them.
      await recordPaidRenewal(tx, this.deps, {
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
    if (committed) await numberAfterCommit(this.deps, order.id);
    return committed;
  }

  /** A refused charge: the next try of the schedule, with an e-mail, or the lapse. */
  private async recordRefused(
    user: User,
    sub: Subscription,
    claim: Renewal,
    code: string,
    now: number,
    payment: { id: string; key: string } | null,
  ): Promise<Outcome> {
    const { db, catalog, mailer, config } = this.deps;
    const next = nextAttemptAt(claim.periodStart, claim.attempts);
    const planName =
      catalog.plans.find((p) => p.code === claim.productCode)?.name ?? claim.productCode;
    // The account page, where Update card saves the card the next try charges (issue 34).
    const accountUrl = `${config.publicBaseUrl}/cart/home`;
    const committed = await db.transaction(async (tx) => {
      if (
        !(await Renewals.markRefused(tx, {
          id: claim.id,
          worker: this.id,
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
            payUrl: `${config.publicBaseUrl}${renewalPaymentPath(this.deps.secret, claim.id)}`,
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
  private async end(
    user: User,
    sub: Subscription,
    reason: "cancelled" | "one_time",
    endedAt: number,
    now: number,
  ): Promise<void> {
    const { db, catalog, mailer, config } = this.deps;
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
}

/**
 * A renewal's waiting payment as the provider is asked about it: by its id, and trusted only
 * when it is the renewal's (customer, order key, amount).
 */
function asked(customerId: string, renewal: Renewal, paymentId: string, paymentKey: string) {
  return { customerId, orderKey: paymentKey, amount: renewal.amount, paymentId };
}

/** The facts of a subscription the renewal rules read. */
export function billingState(sub: Subscription) {
  return {
    productCode: sub.productCode,
    orderState: sub.orderState,
    seats: sub.seats,
    termMonths: sub.termMonths,
    orderStart: sub.orderStart,
    orderEnd: sub.orderEnd,
    periodAnchor: sub.periodAnchor,
    periodIndex: sub.periodIndex,
    pendingProductCode: sub.pendingProductCode,
    pendingSeats: sub.pendingSeats,
    pendingAt: sub.pendingAt,
    expired: sub.expiredFlag,
  };
}

/** Seats held in the workspace the account owns (members and pending invitations), else 0. */
async function seatsHeld(q: Queryable, user: User): Promise<number> {
  const owned = await ownedInstance(q, user);
  if (owned === null) return 0;
  return (
    (await Users.countApprovedMembers(q, owned.id)) + (await Invites.countPending(q, owned.id))
  );
}

/**
 * The account once its subscription has ended (src/domain/renewals endedState): the free plan,
 * cancelled and expired; the team workspace it owns falls to the free plan with it.
 */
export async function endSubscription(
  tx: Queryable,
  user: User,
  sub: Subscription,
  now: number,
): Promise<void> {
  const ended = endedState(sub);
  await Subscriptions.update(tx, user.id, {
    productCode: ended.productCode,
    orderState: ended.orderState,
    prevOrderState: ended.prevOrderState,
    expiredFlag: ended.expired,
    seats: ended.seats,
    paidCents: ended.paidCents,
    pendingProductCode: null,
    pendingSeats: null,
    pendingAt: null,
    recurringCampaign: null,
    updatedAt: now,
  });
  await Renewals.closeFailed(tx, user.id, now);
  const owned = await ownedInstance(tx, user);
  if (owned !== null) await Instances.update(tx, owned.id, { productCode: FREE_PRODUCT });
}
