// Issue 11, "Renewals": several workers on one database, and when the worker runs.

import { describe, expect, it } from "vitest";
import { addMonthsClamped, periodEnd } from "../../domain/calendar/index.ts";
import { SandboxCharges } from "../db/ledger.ts";
import { Orders } from "../db/orders.ts";
import { Renewals } from "../db/renewals.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import {
  chargesOf,
  db,
  invoices,
  server,
  startsRenewalServer,
  subscriber,
} from "../testing/renewal-flow.ts";
import { LOCK_LEASE_MS } from "./account-lock.ts";
import { RenewalWorker } from "./renewals.ts";

startsRenewalServer();

describe("several workers on one database", () => {
  it("charge each period once when two workers race (and the server's own joins in)", async () => {
    const accounts = await Promise.all(
      ["race-a", "race-b", "race-c"].map((name) =>
        subscriber(`${name}@example.com`, { code: "wv_single_1m" }),
      ),
    );
    const deps = server.running.deps;
    const one = new RenewalWorker(deps, { intervalMs: 0, id: "worker-one" });
    const two = new RenewalWorker(deps, { intervalMs: 0, id: "worker-two" });
    const t0 = Math.max(...accounts.map((a) => a.t0));
    // Moving the test clock directly kicks the server's worker too: three workers race.
    server.clock.set(addMonthsClamped(t0, 3));
    await Promise.all([
      one.runOnce(),
      two.runOnce(),
      one.runOnce(),
      two.runOnce(),
      server.running.renewals?.kick(),
    ]);
    for (const account of accounts) {
      const charges = await chargesOf(account.userId);
      expect(charges).toHaveLength(4); // the purchase and three renewals, each once
      expect(await invoices(account.email)).toHaveLength(4);
      const renewals = await Renewals.forUser(db(), account.userId);
      expect(renewals.map((r) => [r.periodIndex, r.state, r.attempts])).toEqual([
        [1, "charged", 1],
        [2, "charged", 1],
        [3, "charged", 1],
      ]);
    }
  });

  it("lets exactly one of two claims of the same period win", async () => {
    const claim = (worker: string) =>
      db().transaction((tx) =>
        Renewals.claim(tx, {
          id: `ren_${worker}`,
          userId: 999_999,
          periodAnchor: 1,
          periodIndex: 1,
          periodStart: 2,
          periodEnd: 3,
          productCode: "wv_single_1m",
          seats: 1,
          subTotal: 999,
          salesTax: 0,
          amount: 999,
          processor: "cc",
          worker,
          now: server.clock.now(),
          leaseUntil: server.clock.now() + LOCK_LEASE_MS,
        }),
      );
    const [a, b] = await Promise.all([claim("a"), claim("b")]);
    expect([a, b].filter((c) => c !== null)).toHaveLength(1);
  });

  it("takes over a worker that died after charging: the same provider key, one charge, one order", async () => {
    const email = "takeover@example.com";
    const { userId, t0 } = await subscriber(email, {
      code: "wv_single_1m",
    });
    const deps = server.running.deps;
    let charged = false;
    // This worker's process "dies" right after the provider charged this account: it never
    // answers again (other accounts it meets first are charged as usual).
    const dying: PaymentProvider = {
      ...deps.payments,
      async charge(input) {
        const result = await deps.payments.charge(input);
        if (input.customerId !== `cus_sandbox_${userId}`) return result;
        charged = true;
        return new Promise(() => {});
      },
    };
    const doomed = new RenewalWorker({ ...deps, payments: dying }, { intervalMs: 0, id: "doomed" });
    await server.running.renewals?.stop(); // only the doomed worker sees the period first
    try {
      server.clock.set(periodEnd(t0, 0, 1));
      void doomed.runOnce();
      await expect.poll(() => charged).toBe(true);
      const [claimed] = await Renewals.forUser(db(), userId);
      expect(claimed).toMatchObject({ state: "claimed", worker: "doomed", attempts: 1 });

      // Another worker waits for the lock's and the claim's leases, then takes the attempt over.
      const heir = new RenewalWorker(deps, { intervalMs: 0, id: "heir" });
      await heir.runOnce(); // still leased: the account is busy, the claim taken
      expect(await Renewals.forUser(db(), userId)).toMatchObject([{ worker: "doomed" }]);
      expect(await chargesOf(userId)).toHaveLength(2);
      server.clock.advance(LOCK_LEASE_MS);
      await heir.runOnce();
      const charges = await chargesOf(userId);
      expect(charges.map((c) => c.error)).toEqual([null, null]); // the purchase and one renewal
      const list = await invoices(email);
      expect(list).toHaveLength(2);
      const [renewal] = await Renewals.forUser(db(), userId);
      expect(renewal).toMatchObject({ state: "charged", worker: "heir", attempts: 1 });
      const order = await Orders.byId(db(), renewal?.orderId ?? "");
      const first = await SandboxCharges.byKey(db(), order?.idempotencyKey ?? "");
      expect(order?.chargeRef).toBe(first?.id);
    } finally {
      server.running.renewals?.start();
    }
  });
});

describe("when the worker runs", () => {
  it("runs on its interval of real time, without any clock change", async () => {
    const email = "interval@example.com";
    const { t0 } = await subscriber(email, { code: "wv_single_1m" });
    let offset = 0;
    // A clock nobody can subscribe to: only the interval can notice that time has passed.
    const clock = { now: () => server.clock.now() + offset };
    const worker = new RenewalWorker(
      { ...server.running.deps, clock },
      { intervalMs: 25, id: "ticking" },
    );
    worker.start();
    try {
      offset = periodEnd(t0, 0, 1) - server.clock.now();
      await expect.poll(async () => (await invoices(email)).length, { timeout: 5000 }).toBe(2);
    } finally {
      await worker.stop();
    }
  });
});
