// Support commands for PayPal, on the server's own database and PayPal account (the same
// environment as the server: PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID,
// PAYPAL_ENVIRONMENT, DATABASE_URL or DATA_DIR).
//
//   npm run paypal-plans     find or make the PayPal product and plan of every catalogue price
//                            (services/paypal-plans.ts), and print what was created, found and
//                            left for its subscribers. A server does the same at start; run this
//                            after a catalogue release to see its new plans before it serves.
//
// On SQLite (DATA_DIR) run it while the server is stopped: one process at a time opens a data
// folder. On PostgreSQL (DATABASE_URL) it runs beside the servers (they agree on every plan).

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog } from "../src/server/catalog.ts";
import { systemClock } from "../src/server/clock.ts";
import { getConfig } from "../src/server/config.ts";
import { consoleLogger } from "../src/server/log.ts";
import { openDatabase } from "../src/server/main.ts";
import { PaypalClient } from "../src/server/payments/paypal-client.ts";
import { describePlanSync, syncPaypalPlans } from "../src/server/services/paypal-plans.ts";

async function main(command: string | undefined): Promise<number> {
  if (command !== "plans") {
    console.error("usage: node scripts/paypal-support.ts plans   (npm run paypal-plans)");
    return 1;
  }
  const parsed = getConfig(process.env);
  if (!parsed.ok) {
    console.error(`paypal-support: ${parsed.errors.join("; ")}`);
    return 1;
  }
  const { config } = parsed;
  if (!config.paypal) {
    console.error(
      "paypal-support: set PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET and PAYPAL_WEBHOOK_ID as for the server.",
    );
    return 1;
  }
  const { db } = await openDatabase(config, {}, systemClock.now());
  const paypal = new PaypalClient({
    clientId: config.paypal.clientId,
    clientSecret: config.paypal.clientSecret,
    apiUrl: config.paypal.apiUrl,
  });
  try {
    const report = await syncPaypalPlans({
      db,
      catalog: loadCatalog(),
      clock: systemClock,
      log: consoleLogger,
      paypal,
    });
    console.log(describePlanSync(report).join("\n"));
    return 0;
  } catch (error) {
    console.error(`paypal-support: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv[2]);
}
