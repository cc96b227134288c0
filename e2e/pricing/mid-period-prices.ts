// The mid-period leg of the price cross-test (issue 18, item 9): for every recurring plan of the
// catalogue that takes more seats or the essentials add-on, a fresh account buys it, a third of a
// month passes, and it adds two seats (or essentials). The summary shown must be the pricing
// module's figure for that addition, the upgrade call must charge exactly it (sandbox charge and
// invoice), and the subscription must keep its renewal date. Separate from the main test so that
// it stays small beside the main test's restructuring.

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api } from "../../src/contract/index.ts";
import type { Catalog, PlanEntry } from "../../src/domain/catalog/catalog-schema.ts";
import { choiceOfGroup } from "../../src/domain/experiments/price-choice.ts";
import { orderSummary } from "../../src/domain/pricing/index.ts";
import { purchasablePlans } from "../../src/domain/testing/price-combinations.ts";
import { testClock } from "../../src/server/clock.ts";
import { Subscriptions } from "../../src/server/db/subscriptions.ts";
import { Users } from "../../src/server/db/users.ts";
import { locationOf } from "../../src/server/services/location.ts";
import { newKey, startTestServer, type TestClient } from "../../src/server/testing/harness.ts";
import { newBuyer } from "./server-prices.ts";

const DAY = 86_400_000;

type Addition = { from: PlanEntry; target: string; seats: number | undefined; what: string };

/** The additions to try: two more seats on each plan that sells them, essentials where offered. */
export function midPeriodAdditions(catalog: Catalog): Addition[] {
  const additions: Addition[] = [];
  for (const plan of purchasablePlans(catalog).filter((p) => p.recurring)) {
    const banded = catalog.seatStructures.some((s) => s.appliesTo.includes(plan.code));
    if (plan.multiUser && (banded || plan.seatPrice >= 0)) {
      const start = Math.max(1, plan.minSeats, plan.includedSeats);
      additions.push({ from: plan, target: plan.code, seats: start + 2, what: "2 seats" });
    }
    if (plan.essentialsUpgrade) {
      additions.push({
        from: plan,
        target: plan.essentialsUpgrade,
        seats: undefined,
        what: "essentials",
      });
    }
  }
  return additions;
}

/** Runs the leg at `atMs`; answers how many additions were proved and what went wrong. */
export async function proveMidPeriodAdditions(
  catalog: Catalog,
  atMs: number,
): Promise<{ proved: number; problems: string[] }> {
  const dataDir = mkdtempSync(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "mid-period-"));
  const server = await startTestServer({
    catalog,
    seed: false,
    rateLimitScale: 1_000_000,
    clock: testClock(atMs),
    env: { DATA_DIR: dataDir },
  });
  const problems: string[] = [];
  let proved = 0;
  try {
    const additions = midPeriodAdditions(catalog);
    const buyers: { addition: Addition; client: TestClient; userId: number; periodEnd: number }[] =
      [];
    for (const addition of additions) {
      const school =
        addition.from.category === "education" || addition.from.code.includes("teacher");
      const client = await newBuyer(server, { school });
      const bought = await client.call(api.upgrade, {
        body: { product: { code: addition.from.code } },
        idempotencyKey: newKey(),
      });
      if (!bought.ok) {
        problems.push(`${addition.from.code}: buying it first: ${bought.body.message}`);
        continue;
      }
      const context = await client.call(api.userContext);
      const userId = context.ok ? context.body.userId : 0;
      buyers.push({ addition, client, userId, periodEnd: bought.body.orderEndDate ?? 0 });
    }
    server.clock.set(atMs + 10 * DAY);
    const db = server.running.deps.db;
    for (const { addition, client, userId, periodEnd } of buyers) {
      const name = `${addition.from.code} + ${addition.what}`;
      const seats = addition.seats === undefined ? {} : { seats: addition.seats };
      const user = await Users.byId(db, userId);
      const sub = user && (await Subscriptions.get(db, user.id));
      if (!user || !sub || sub.orderStart === null || sub.orderEnd === null) {
        problems.push(`${name}: no running subscription`);
        continue;
      }
      // The pricing module's figure for this addition, from the subscription as stored.
      const expected = orderSummary(catalog, {
        targetProduct: addition.target,
        ...seats,
        atMs: server.clock.now(),
        priceChoice: choiceOfGroup(user.priceTestingGroupValue),
        current: {
          planCode: sub.productCode,
          seats: sub.seats,
          periodStart: sub.orderStart,
          periodEnd: sub.orderEnd,
          paidCents: sub.paidCents,
        },
        tax: (({ countryCode, stateCode }) => ({ country: countryCode, state: stateCode }))(
          locationOf(user),
        ),
      });
      const shown = await client.call(api.orderSummary, {
        body: { targetProduct: addition.target, ...seats },
      });
      if (!shown.ok) {
        problems.push(`${name}: summary refused: ${shown.body.message}`);
        continue;
      }
      const same = (what: string, a: unknown, b: unknown) => {
        if (JSON.stringify(a) !== JSON.stringify(b))
          problems.push(`${name}: ${what}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
      };
      same("summary vs pricing module", shown.body.total, expected.total);
      same("summary is an addition", shown.body.change, "addition");
      same("renewal date shown", shown.body.addition?.periodEnd, periodEnd);
      const paid = await client.call(api.upgrade, {
        body: {
          product: { code: addition.target },
          ...seats,
          expectedTotal: shown.body.total,
        },
        idempotencyKey: newKey(),
      });
      if (!paid.ok) {
        problems.push(`${name}: purchase refused: ${paid.body.message}`);
        continue;
      }
      const charge = await db.get<{ amount: number }>(
        `SELECT c.amount FROM orders o JOIN sandbox_charges c ON c.id = o.charge_ref
         WHERE o.id = ? AND c.error_code IS NULL`,
        [paid.body.orderId],
      );
      const invoices = await client.call(api.invoices, { params: { page: 1 } });
      const invoice = invoices.ok
        ? invoices.body.find((i) => i.orderId === paid.body.orderId)
        : undefined;
      const before = problems.length;
      same("upgrade total", paid.body.total, shown.body.total);
      same("sandbox charge", charge?.amount, shown.body.total);
      same("invoice amount paid", invoice?.amountPaid, shown.body.total);
      same("renewal date kept", paid.body.orderEndDate, periodEnd);
      if (problems.length === before) proved += 1;
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { proved, problems };
}
