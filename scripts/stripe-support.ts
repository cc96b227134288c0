// Support commands for Stripe payments, on the server's own database and Stripe account (the
// same environment as the server: PAYMENTS=stripe, STRIPE_SECRET_KEY, DATABASE_URL or DATA_DIR).
//
//   npm run refund-order -- <orderId> [cents]   refund an order (all that is left, or cents),
//                                               recorded on the order as a dashboard refund is
//   npm run reconcile-payments -- [hours]       settle payments and orders of the last hours
//                                               (default 48): see services/stripe-reconcile.ts
//
// On SQLite (DATA_DIR) run them while the server is stopped: one process at a time opens a data
// folder. On PostgreSQL (DATABASE_URL) they run beside the servers.

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { systemClock } from "../src/server/clock.ts";
import { getConfig } from "../src/server/config.ts";
import { consoleLogger } from "../src/server/log.ts";
import { Mailer } from "../src/server/mail/mailer.ts";
import { openDatabase } from "../src/server/main.ts";
import { stripeClient } from "../src/server/payments/stripe.ts";
import { reconcileStripe, refundStripeOrder } from "../src/server/services/stripe-reconcile.ts";

async function main(command: string | undefined, args: string[]): Promise<number> {
  const parsed = getConfig(process.env);
  if (!parsed.ok) {
    console.error(`stripe-support: ${parsed.errors.join("; ")}`);
    return 1;
  }
  const { config } = parsed;
  if (config.payments !== "stripe" || !config.stripe) {
    console.error(
      "stripe-support: set PAYMENTS=stripe, STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY as for the server.",
    );
    return 1;
  }
  const { db } = await openDatabase(config, {}, systemClock.now());
  const deps = {
    db,
    stripe: stripeClient(config.stripe.secretKey, config.stripe.apiUrl),
    log: consoleLogger,
    clock: systemClock,
    // Credit notes and refund receipts are queued in the outbox; the server delivers them.
    mailer: new Mailer({
      db,
      clock: systemClock,
      log: consoleLogger,
      transport: null,
      from: "Checkout <no-reply@localhost>",
    }),
    config,
  };
  try {
    if (command === "refund") {
      const [orderId, cents] = args;
      if (!orderId) {
        console.error("usage: npm run refund-order -- <orderId> [cents]");
        return 1;
      }
      const done = await refundStripeOrder(deps, {
        orderId,
        ...(cents === undefined ? {} : { amount: Number(cents) }),
      });
      console.log(
        `refunded ${done.amount} cents of ${orderId} (${done.refundId})${done.ended ? "; what it bought has ended" : ""}`,
      );
      return 0;
    }
    if (command === "reconcile") {
      const hours = Number(args[0] ?? 48);
      const report = await reconcileStripe(deps, { sinceMs: Date.now() - hours * 3_600_000 });
      console.log(JSON.stringify(report, null, 2));
      return report.ordersWithoutCharge.length > 0 ? 2 : 0;
    }
    console.error("usage: node scripts/stripe-support.ts refund|reconcile ...");
    return 1;
  } catch (error) {
    console.error(`stripe-support: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv[2], process.argv.slice(3));
}
