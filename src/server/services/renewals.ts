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

import { nextRenewalStep } from "../../domain/renewals/index.ts";
import { randomId } from "../auth/tokens.ts";
import { RenewalScans } from "../db/renewal-scans.ts";
import { Renewals } from "../db/renewals.ts";
import { type Subscription, Subscriptions } from "../db/subscriptions.ts";
import { type User, Users } from "../db/users.ts";
import { PeriodicPass } from "../periodic-pass.ts";
import { LOCK_LEASE_MS, tryWithAccountLock } from "./account-lock.ts";
import { numberWaiting } from "./invoice-numbering.ts";
import { remindOneTimeEnding } from "./one-time-reminders.ts";
import { priceRenewal, type RenewStep } from "./paid-renewal.ts";
import type { CustomerPayment } from "./renewal-settle.ts";

import { cancelWaiting, retireUnpayable, settleLocked, settleRenewal } from "./renewal-settle.ts";
import {
  collectCharge,
  endNotRenewed,
  type PeriodOutcome,
  PROVIDER_RETRY_MS,
  type RenewalDeps,
  recordPaid,
  recordRefused,
  type WorkerRef,
} from "./renewal-steps.ts";
import { billingState, seatsHeld } from "./subscription-end.ts";

/** What one pass did. */
export type RenewalRun = {
  charged: number;
  failed: number;
  lapsed: number;
  ended: number;
  /** Accounts skipped because a purchase (or another worker) held their lock: next pass. */
  busy: number;
};

/** Accounts read per query; a pass reads on until none is left. */
const BATCH = 100;
/** Periods renewed for one account in one pass (a clock jumped a century stops here). */
const MAX_PERIODS_PER_PASS = 1200;

const emptyRun = (): RenewalRun => ({ charged: 0, failed: 0, lapsed: 0, ended: 0, busy: 0 });
/**
 * Runs a pass at start, then every intervalMs (0: only when kicked) and whenever a settable clock
 * moves; a kick during a pass gets one more after it (periodic-pass.ts).
 */
export class RenewalWorker extends PeriodicPass<RenewalRun> {
  /** Names this worker's claims and locks (one per server process). */
  readonly id: string;
  private readonly deps: RenewalDeps;
  private readonly ref: WorkerRef;

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
    this.ref = { deps, id: this.id };
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
        const due = await RenewalScans.dueAccounts(db, {
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
      await retireUnpayable(this.ref);
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
            await endNotRenewed(this.ref, user, sub, step.reason, step.endedAt, now);
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
  ): Promise<PeriodOutcome> {
    const { db, log } = this.deps;
    const priced = await priceRenewal(this.deps, user, sub, step, now);
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
      const before = await cancelWaiting(this.ref, user, open, now, "a new attempt replaces it");
      // The provider cannot say: no new payment beside one that may yet be paid; next round.
      if (before.kind === "unknown") return "waiting";
      if (before.kind === "succeeded") {
        const settled = await settleLocked(this.ref, user, sub, open, now);
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
    const collected = await collectCharge(this.ref, user, claim, key);
    if (collected.ok) {
      const paid = await recordPaid(
        this.ref,
        user,
        step,
        claim,
        collected.chargeRef,
        key,
        now,
        charge,
        {
          recovered: claim.attempts > 1,
          mark: (tx, orderId) =>
            Renewals.markCharged(tx, { id: claim.id, worker: this.id, orderId, now }),
        },
      );
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
    return recordRefused(
      this.ref,
      user,
      sub,
      claim,
      collected.code,
      now,
      collected.payment ?? null,
    );
  }

  /**
   * The payment of a refused renewal that the customer was asked to authenticate, as the provider
   * has it now; recorded (order, invoice, period, receipt) when it succeeded (renewal-settle.ts).
   */
  settleByCustomer(renewalId: string): Promise<CustomerPayment> {
    return settleRenewal(this.ref, renewalId);
  }
}
