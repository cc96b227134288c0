// Two server processes on one PostgreSQL database, as a deployment behind a proxy runs them
// (issue 11, "Several servers"): sessions, Idempotency-Keys, account locks and the health check
// hold across both. Needs a PostgreSQL server (DATABASE_URL; a schema of its own, dropped after):
// PGlite lives inside one process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../contract/index.ts";
import type { Db } from "./db/db.ts";
import { MIGRATIONS } from "./db/migrations.ts";
import { Users } from "./db/users.ts";
import { HEALTH_PATH } from "./handlers/health.ts";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "./seed.ts";
import type { ChildServer } from "./testing/children.ts";
import { newKey, TestClient } from "./testing/harness.ts";
import { postgresUrl, tellPostgresSkipped } from "./testing/postgres.ts";
import { saveSandboxCard } from "./testing/sandbox-cards.ts";
import {
  countAppliedMigrations,
  countCharges,
  countOrdersOf,
  countOrdersWithKey,
} from "./testing/tables.ts";
import { sameBrowser, startTwoServers, type TwoServers } from "./testing/two-servers.ts";

const url = postgresUrl();
if (!url) tellPostgresSkipped("two servers on one PostgreSQL database");

describe.skipIf(!url)("two servers on one PostgreSQL database", { timeout: 30_000 }, () => {
  let servers: TwoServers | undefined;
  let a: ChildServer;
  let b: ChildServer;
  let db: Db;

  beforeAll(async () => {
    // Both at once on an empty schema: they take turns to migrate, and seed the demo accounts once.
    servers = await startTwoServers(url ?? "", { PAYMENTS: "sandbox", SEED: "true" });
    ({ a, b, db } = servers);
  }, 60_000);

  afterAll(() => servers?.stop());

  it("started together: migrated once, demo accounts once", async () => {
    expect(await countAppliedMigrations(db)).toBe(MIGRATIONS.length);
    expect(await Users.count(db)).toBe(DEMO_ACCOUNTS.length);
  });

  it("answers the health check on both, naming the database", async () => {
    for (const server of [a, b]) {
      const response = await fetch(`${server.url}${HEALTH_PATH}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true, database: "postgres" });
    }
  });

  it("takes a session made on one server on the other, and ends it on both", async () => {
    const onA = new TestClient(a.url);
    const signIn = await onA.call(api.signIn, {
      body: { email: "free@demo.test", password: DEMO_PASSWORD },
    });
    expect(signIn.ok).toBe(true);
    const onB = sameBrowser(onA, b);
    const info = await onB.call(api.userInfo);
    expect(info.ok && info.body.email).toBe("free@demo.test");

    const logout = await onB.fetch("/login?action=logout", { method: "POST" });
    expect(logout.status).toBeLessThan(400);
    const after = await sameBrowser(onA, a).call(api.userInfo);
    expect(after.status).toBe(401);
  });

  it("makes one order and one charge for 100 payments with one key spread over both", async () => {
    const onA = new TestClient(a.url);
    const signIn = await onA.call(api.signIn, {
      body: { email: "monthly@demo.test", password: DEMO_PASSWORD },
    });
    expect(signIn.ok).toBe(true);
    const clients = [onA, sameBrowser(onA, b)];
    const key = newKey();
    const chargesBefore = await countCharges(db, "succeeded");
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        (clients[i % 2] as TestClient).call(api.upgrade, {
          body: { product: { code: "wv_unloct17_12m" }, newCart: true },
          idempotencyKey: key,
        }),
      ),
    );
    expect(answers.map((x) => x.status)).toEqual(answers.map(() => 200));
    expect(new Set(answers.map((x) => JSON.stringify(x.body))).size).toBe(1);
    // Both servers answered, one of them with the other's stored answer.
    expect(answers.filter((x) => x.headers.get("idempotent-replayed") === "true")).toHaveLength(99);
    expect(await countOrdersWithKey(db, key)).toBe(1);
    expect(await countCharges(db, "succeeded")).toBe(chargesBefore + 1);
  });

  it("serialises purchases with different keys for one account across both servers", async () => {
    const onA = new TestClient(a.url);
    const signUp = await onA.call(api.signUp, {
      body: {
        email: "two-servers@example.com",
        password: "secret-1",
        firstName: "Pat",
        lastName: "B",
      },
    });
    expect(signUp.ok).toBe(true);
    const onB = sameBrowser(onA, b);
    // Tokenised on one server, saved on the other.
    const saved = await saveSandboxCard(onA, {}, onB);
    expect(saved.ok).toBe(true);

    const chargesBefore = await countCharges(db, "succeeded");
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 === 0 ? onA : onB).call(api.upgrade, {
          body: { product: { code: "wv_unloct17_12m" }, newCart: true },
          idempotencyKey: newKey(),
        }),
      ),
    );
    expect(answers.filter((x) => x.ok)).toHaveLength(1);
    for (const refused of answers.filter((x) => !x.ok)) {
      expect(refused.status).toBe(409);
      expect(["account_busy", "already_subscribed"]).toContain(
        !refused.ok && refused.body.error_code,
      );
    }
    expect(await countCharges(db, "succeeded")).toBe(chargesBefore + 1);
    expect(await countOrdersOf(db, "two-servers@example.com")).toBe(1);
  });
});

// Issue 18 item 20: rate limits are one budget across servers, not one per server (buckets in the
// shared database, http/rate-limit.ts DatabaseRateStore, decision 0028). Two more servers, with
// the real limits, on a schema of their own; one client alternates between them.
describe.skipIf(!url)("rate limits across two servers", { timeout: 60_000 }, () => {
  let servers: TwoServers | undefined;
  let a: ChildServer;
  let b: ChildServer;

  beforeAll(async () => {
    servers = await startTwoServers(
      url ?? "",
      { DATABASE_POOL_SIZE: "3", PAYMENTS: "sandbox", SEED: "false", RATE_LIMIT_SCALE: "1" },
      { oneAfterTheOther: true },
    );
    ({ a, b } = servers);
  }, 60_000);

  afterAll(() => servers?.stop());

  const either = (i: number) => new TestClient((i % 2 === 0 ? a : b).url);

  it("allows one client 5 reset requests a minute in all, not 5 per server", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const answer = await either(i).call(api.forgotPassword, {
        body: { email: `nobody${i}@example.com` },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
  });

  it("counts one client's failed sign-ins on an account on both servers together", async () => {
    const up = await either(0).call(api.signUp, {
      body: { email: "limited@example.com", password: "secret-123", firstName: "L", lastName: "S" },
    });
    expect(up.ok).toBe(true);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await either(i).call(api.signIn, {
        body: { email: "limited@example.com", password: `guess-${i}` },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });
});
