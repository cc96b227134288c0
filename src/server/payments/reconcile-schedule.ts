// Runs the reconciliation of Stripe's payments with our orders (stripe-reconcile.ts) on a
// schedule, on every server with PAYMENTS=stripe (RECONCILE_INTERVAL_SECONDS, default 900; 0 runs
// none on this server), and at once after a settable clock moves (local runs and tests), as the
// renewal worker does. Several servers may run it on one database: what it does is idempotent
// (a refund carries one idempotency key per payment, and a payment Stripe has refunded already
// is left alone), and what it reports is only logged. One pass at a time per server.
import type Stripe from "stripe";
import { type Clock, isSettableClock } from "../clock.ts";
import type { Db } from "../db/db.ts";
import type { Logger } from "../log.ts";
import type { InvoiceDeps } from "../services/invoices.ts";
import { type ReconcileReport, reconcileStripe } from "./stripe-reconcile.ts";

/** How far back each pass looks: the manual command's default, so a pass missed is caught up. */
export const RECONCILE_LOOKBACK_MS = 48 * 3_600_000;

export type ReconcileDeps = InvoiceDeps & { db: Db; stripe: Stripe; log: Logger; clock: Clock };

export class ReconcileSchedule {
  private readonly deps: ReconcileDeps;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private current: Promise<ReconcileReport | null> | null = null;

  constructor(deps: ReconcileDeps, options: { intervalMs: number }) {
    this.deps = deps;
    this.intervalMs = options.intervalMs;
  }

  /** Every intervalMs (0: only when kicked or the clock moves), the first pass after one interval. */
  start(): void {
    if (this.intervalMs > 0 && this.timer === null) {
      this.timer = setInterval(() => void this.kick(), this.intervalMs);
      this.timer.unref();
    }
    const { clock } = this.deps;
    if (this.unsubscribe === null && isSettableClock(clock)) {
      this.unsubscribe = clock.onChange(() => void this.kick());
    }
  }

  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.current;
  }

  /** A pass now (or the one running); its report, or null when it failed (logged). */
  kick(): Promise<ReconcileReport | null> {
    this.current ??= this.runOnce().finally(() => {
      this.current = null;
    });
    return this.current;
  }

  private async runOnce(): Promise<ReconcileReport | null> {
    const { clock, log } = this.deps;
    try {
      return await reconcileStripe(this.deps, { sinceMs: clock.now() - RECONCILE_LOOKBACK_MS });
    } catch (error) {
      log.error("reconcile: the pass failed; the next one tries again", error);
      return null;
    }
  }
}
