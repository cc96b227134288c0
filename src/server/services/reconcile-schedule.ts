// Runs the reconciliation of Stripe's payments with our orders (stripe-reconcile.ts) on a
// schedule, on every server with PAYMENTS=stripe (RECONCILE_INTERVAL_SECONDS, default 900; 0 runs
// none on this server), and at once after a settable clock moves (local runs and tests), as the
// renewal worker does. Several servers may run it on one database: what it does is idempotent
// (a refund carries one idempotency key per payment, and a payment Stripe has refunded already
// is left alone), and what it reports is only logged. One pass at a time per server, and a clock
// move during a pass gets one more pass after it (periodic-pass.ts).
import type Stripe from "stripe";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/db.ts";
import type { Logger } from "../log.ts";
import { PeriodicPass } from "../periodic-pass.ts";
import type { InvoiceDeps } from "./invoices.ts";
import { type ReconcileReport, reconcileStripe } from "./stripe-reconcile.ts";

/** How far back each pass looks: the manual command's default, so a pass missed is caught up. */
const RECONCILE_LOOKBACK_MS = 48 * 3_600_000;

export type ReconcileDeps = InvoiceDeps & { db: Db; stripe: Stripe; log: Logger; clock: Clock };

/**
 * Every intervalMs (0: only when kicked or the clock moves), the first pass after one interval;
 * a kick answers the pass's report, or null when it failed (logged).
 */
export class ReconcileSchedule extends PeriodicPass<ReconcileReport | null> {
  constructor(deps: ReconcileDeps, options: { intervalMs: number }) {
    super({
      pass: () => reconcileStripe(deps, { sinceMs: deps.clock.now() - RECONCILE_LOOKBACK_MS }),
      fallback: null,
      failure: "reconcile: the pass failed; the next one tries again",
      log: deps.log,
      intervalMs: options.intervalMs,
      clock: deps.clock,
    });
  }
}
