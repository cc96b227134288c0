// The sandbox provider's charges, as a provider keeps them: the first charge of a key answers
// every call with it, and only the call that made it says it is new (the purchase then skips
// looking for an order that already names it, handlers/payments.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testClock } from "../clock.ts";
import { CardTokens, SandboxCustomers } from "../db/ledger.ts";
import { migrate } from "../db/migrations.ts";
import { SqliteDb } from "../db/sqlite.ts";
import type { ChargeInput } from "./provider.ts";
import { createSandboxProvider } from "./sandbox.ts";

const NOW = Date.UTC(2026, 10, 28, 12);

describe("sandbox charges", () => {
  let dir: string;
  let db: SqliteDb;
  const customerId = "cus_sandbox_1";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "sandbox-charges-"));
    db = new SqliteDb(join(dir, "db.sqlite"));
    await migrate(db, 0);
    await db.transaction(async (tx) => {
      await CardTokens.insert(tx, {
        id: "tok_1",
        numberHash: "hash-4242",
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2040,
        attachError: null,
        chargeError: null,
        createdAt: NOW,
      });
      await SandboxCustomers.upsert(tx, {
        id: customerId,
        tokenId: "tok_1",
        email: "a@example.com",
        now: NOW,
      });
    });
  });

  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const purchase = (key: string): ChargeInput => ({
    customerId,
    paymentMethodId: null,
    amount: 299,
    description: "single_export_hd × 1",
    idempotencyKey: key,
    orderKey: key,
    offSession: false,
    metadata: {},
  });

  it("says a charge is new only to the call that made it", async () => {
    const sandbox = createSandboxProvider(db, testClock(NOW));
    const first = await sandbox.charge(purchase("order:1:a"));
    expect(first).toMatchObject({ ok: true, new: true });
    const again = await sandbox.charge(purchase("order:1:a"));
    expect(again.ok && again.chargeId).toBe(first.ok && first.chargeId);
    expect(again).not.toHaveProperty("new");
  });

  it("says so to one of many calls with one key at once", async () => {
    const sandbox = createSandboxProvider(db, testClock(NOW));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => sandbox.charge(purchase("order:1:b"))),
    );
    expect(new Set(answers.map((a) => a.ok && a.chargeId)).size).toBe(1);
    expect(answers.filter((a) => a.ok && a.new)).toHaveLength(1);
  });
});
