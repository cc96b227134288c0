// Issue 21, item 1: the PayPal product and plan of every catalogue price, found or made at start
// and by `npm run paypal-plans` (services/paypal-plans.ts), against the local fake of PayPal's
// REST API. Each test has its own fake PayPal account and database, so what it counts is its own.

import { afterEach, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { catalogPaypalTerms } from "../../domain/paypal/catalog-plans.ts";
import { PaypalPlans } from "../db/paypal-plans.ts";
import { PaypalClient } from "../payments/paypal-client.ts";
import { FAKE_PAYPAL_CLIENT, FAKE_WEBHOOK_ID, FakePaypal } from "../testing/fake-paypal.ts";
import { fixtureCatalog } from "../testing/fixture-catalog.ts";
import { newKey, startTestServer, type TestServer } from "../testing/harness.ts";
import { forgetPaypalPlans } from "../testing/tables.ts";
import { type PlanDeps, syncPaypalPlans } from "./paypal-plans.ts";

const MONTHLY = "wv_single_1m";

const open: { fake: FakePaypal; server: TestServer }[] = [];
afterEach(async () => {
  for (const { fake, server } of open.splice(0)) {
    await server.close();
    await fake.stop();
  }
});

/** A fake PayPal account and a server selling through it (no plan sync at start unless asked). */
async function setUp(options: { paypalPlans?: boolean } = {}) {
  const fake = new FakePaypal();
  await fake.start();
  const server = await startTestServer({
    seed: false,
    env: {
      PAYPAL_CLIENT_ID: FAKE_PAYPAL_CLIENT.id,
      PAYPAL_CLIENT_SECRET: FAKE_PAYPAL_CLIENT.secret,
      PAYPAL_WEBHOOK_ID: FAKE_WEBHOOK_ID,
      PAYPAL_API_URL: fake.url,
    },
    ...(options.paypalPlans ? { paypalPlans: true } : {}),
  });
  open.push({ fake, server });
  return { fake, server };
}

/** What a sync needs: this server's database and clock, its own PayPal client (a server's). */
function depsOf(
  server: TestServer,
  fake: FakePaypal,
  catalog?: Catalog,
): PlanDeps & {
  catalog: Catalog;
} {
  const { db, clock, log, catalog: served } = server.running.deps;
  const paypal = new PaypalClient({
    clientId: FAKE_PAYPAL_CLIENT.id,
    clientSecret: FAKE_PAYPAL_CLIENT.secret,
    apiUrl: fake.url,
  });
  return { db, clock, log, catalog: catalog ?? served, paypal };
}

const planPosts = (fake: FakePaypal) =>
  fake.calls.filter((c) => c.method === "POST" && c.path === "/v1/billing/plans").length;

/** The fixture catalogue with one plan's price changed: the next catalogue release. */
function withPrice(code: string, price: number): Catalog {
  const catalog = fixtureCatalog();
  return {
    ...catalog,
    plans: catalog.plans.map((p) => (p.code === code ? { ...p, price } : p)),
  };
}

describe("the PayPal plan of every catalogue price", () => {
  it("a fresh sync creates them, each with its product and price; a second creates nothing", async () => {
    const { fake, server } = await setUp();
    const deps = depsOf(server, fake);
    const wanted = catalogPaypalTerms(deps.catalog, deps.clock.now());
    expect(wanted.length).toBeGreaterThan(10);

    const first = await syncPaypalPlans(deps);
    expect(first.created.map((l) => l.planKey)).toEqual(wanted.map((t) => t.planKey));
    expect(first.found).toEqual([]);
    expect(first.left).toEqual([]);
    expect(fake.plans.size).toBe(wanted.length);
    const single = first.created.find((l) => l.planKey === `${MONTHLY}:1m:999`);
    const plan = fake.plans.get(single?.paypalPlanId ?? "");
    expect(plan?.product_id).toBe(`VE-${MONTHLY}`);
    expect(plan?.billing_cycles?.map((c) => c.pricing_scheme?.fixed_price.value)).toEqual([
      "9.99",
      "9.99",
    ]);
    // One PayPal product per catalogue product code that has a plan.
    expect([...fake.products.keys()].sort()).toEqual(
      [...new Set(wanted.map((t) => `VE-${t.productCode}`))].sort(),
    );

    const posts = planPosts(fake);
    const second = await syncPaypalPlans(deps);
    expect(second.created).toEqual([]);
    expect(second.found.map((l) => [l.planKey, l.paypalPlanId])).toEqual(
      first.created.map((l) => [l.planKey, l.paypalPlanId]),
    );
    expect(planPosts(fake)).toBe(posts);
    expect(fake.plans.size).toBe(wanted.length);
  });

  it("finds at PayPal, by its key, a plan made there but not recorded here: none is made twice", async () => {
    const { fake, server } = await setUp();
    const deps = depsOf(server, fake);
    const first = await syncPaypalPlans(deps);
    // A server that stopped between PayPal's answer and its own record (or a new database).
    await deps.db.transaction((tx) => forgetPaypalPlans(tx));
    const posts = planPosts(fake);
    const again = await syncPaypalPlans(deps);
    expect(again.created).toEqual([]);
    expect(again.found.map((l) => l.paypalPlanId)).toEqual(
      first.created.map((l) => l.paypalPlanId),
    );
    expect(planPosts(fake)).toBe(posts);
    expect((await PaypalPlans.all(deps.db)).length).toBe(first.created.length);
  });

  it("a changed price makes one new plan; the subscriber keeps the plan bought, which is left", async () => {
    const { fake, server } = await setUp();
    const deps = depsOf(server, fake);
    const before = await syncPaypalPlans(deps);
    const bought = before.created.find((l) => l.planKey === `${MONTHLY}:1m:999`);
    if (!bought) throw new Error("no plan for the monthly price");

    // A subscriber buys at today's price, through the whole flow.
    const { client } = await server.verifiedAccount("keeps@example.com", "pw-for-paypal-1");
    const body = {
      product: { code: MONTHLY },
      newCart: true as const,
      href: "/cart#paypalCompleted",
    };
    const prepared = await client.call(api.paypalSubscription, { body, idempotencyKey: newKey() });
    if (!prepared.ok || !prepared.body.subscription) throw new Error("not prepared");
    expect(prepared.body.subscription.planId).toBe(bought.paypalPlanId);
    const sub = fake.approve({
      planId: prepared.body.subscription.planId,
      customId: prepared.body.approvalId,
      quantity: 1,
      at: new Date(server.clock.now()),
    });
    const confirmed = await client.call(api.paypalSubscription, {
      body: { ...body, subscriptionId: sub.id },
      idempotencyKey: newKey(),
    });
    expect(confirmed.ok).toBe(true);

    // The next catalogue release raises the monthly price.
    const release = withPrice(MONTHLY, 1099);
    const after = await syncPaypalPlans({ ...deps, catalog: release });
    expect(after.created.map((l) => l.planKey)).toEqual([`${MONTHLY}:1m:1099`]);
    expect(after.found.length).toBe(before.created.length - 1);
    expect(after.left.map((l) => [l.planKey, l.paypalPlanId])).toEqual([
      [`${MONTHLY}:1m:999`, bought.paypalPlanId],
    ]);
    const made = fake.plans.get(after.created[0]?.paypalPlanId ?? "");
    expect(made?.billing_cycles?.map((c) => c.pricing_scheme?.fixed_price.value)).toEqual([
      "10.99",
      "10.99",
    ]);
    // The subscriber's subscription is untouched, on the plan bought, which PayPal still has.
    expect(fake.subscriptions.get(sub.id)).toMatchObject({
      status: "ACTIVE",
      plan_id: bought.paypalPlanId,
    });
    expect(fake.plans.get(bought.paypalPlanId)?.status).toBe("ACTIVE");
    expect(fake.calls.filter((c) => c.path.endsWith("/revise")).length).toBe(0);
    // A later sync of the same release creates nothing more.
    expect((await syncPaypalPlans({ ...deps, catalog: release })).created).toEqual([]);
  });

  it("two servers syncing at once make each plan once, and agree on it", async () => {
    const { fake, server } = await setUp();
    const a = depsOf(server, fake);
    const b = depsOf(server, fake);
    const [ra, rb] = await Promise.all([syncPaypalPlans(a), syncPaypalPlans(b)]);
    const wanted = catalogPaypalTerms(a.catalog, a.clock.now());
    expect(fake.plans.size).toBe(wanted.length);
    expect(planPosts(fake)).toBeGreaterThanOrEqual(wanted.length);
    const recorded = await PaypalPlans.all(a.db);
    expect(recorded.length).toBe(wanted.length);
    const idOf = new Map(recorded.map((r) => [r.planKey, r.paypalPlanId]));
    for (const line of [...ra.created, ...ra.found, ...rb.created, ...rb.found])
      expect(line.paypalPlanId).toBe(idOf.get(line.planKey));
    // Each plan was asked for by a create call of one sync or both (PayPal answers a twin call,
    // same PayPal-Request-Id, with the plan it made for the first): none is missing.
    expect(new Set([...ra.created, ...rb.created].map((l) => l.planKey)).size).toBe(wanted.length);
    expect(fake.products.size).toBe(new Set(wanted.map((t) => t.productCode)).size);
  });

  it("a server with the PayPal settings makes them at start, and a purchase uses them", async () => {
    const { fake, server } = await setUp({ paypalPlans: true });
    const report = await server.running.paypalPlans;
    const wanted = catalogPaypalTerms(server.running.deps.catalog, server.clock.now());
    expect(report?.created.length).toBe(wanted.length);
    expect(server.log.lines.some((l) => l.includes(`${wanted.length} created`))).toBe(true);
    const posts = planPosts(fake);
    const { client } = await server.verifiedAccount("starts@example.com", "pw-for-paypal-1");
    const prepared = await client.call(api.paypalSubscription, {
      body: { product: { code: MONTHLY }, newCart: true, href: "/cart#paypalCompleted" },
      idempotencyKey: newKey(),
    });
    expect(prepared.ok && prepared.body.subscription?.planId).toBe(
      report?.created.find((l) => l.planKey === `${MONTHLY}:1m:999`)?.paypalPlanId,
    );
    expect(planPosts(fake)).toBe(posts);
  });
});
