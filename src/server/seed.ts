// Demo accounts for every role of spec section 6, created on the first start in sandbox mode
// (when there are no users yet). They share one password, listed in the README and printed at
// start. Paying accounts have a sandbox card (Stripe's 4242 test card) saved.
import { addMonthsClamped } from "../domain/calendar/index.ts";
import type { Catalog, PlanEntry } from "../domain/catalog/catalog-schema.ts";
import { planPrice } from "../domain/pricing/index.ts";
import { hashPassword } from "./auth/passwords.ts";
import { keyedHash } from "./auth/tokens.ts";
import { DAY_MS } from "./clock.ts";
import type { Db, Queryable } from "./db/db.ts";
import { Instances, Invites } from "./db/instances.ts";
import { CardTokens, SandboxCustomers } from "./db/ledger.ts";
import { freeSubscription, type Subscription, Subscriptions } from "./db/subscriptions.ts";
import { TeamAccounts } from "./db/team-accounts.ts";
import { newUser, type User, Users } from "./db/users.ts";

export const DEMO_PASSWORD = "demo-password";

export type DemoAccount = { email: string; role: string };

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { email: "free@demo.test", role: "free user" },
  { email: "trial@demo.test", role: "trial user (Unlimited trial, 10 days left)" },
  {
    email: "unverified@demo.test",
    role: "Unlimited trial with an unverified e-mail (started before trials needed a verified one)",
  },
  { email: "expired@demo.test", role: "expired trial" },
  { email: "monthly@demo.test", role: "paying, monthly (Unlimited, card)" },
  { email: "annual@demo.test", role: "paying, annual (Power with essentials, PayPal)" },
  { email: "owner@demo.test", role: "business owner with seats (5 seats, workspace demo-team)" },
  { email: "member@demo.test", role: "enterprise member of demo-team" },
  { email: "po@demo.test", role: "purchase-order customer (Schools, 30 seats)" },
  { email: "mobile@demo.test", role: "mobile-store subscription (upgrades disabled)" },
  { email: "locked@demo.test", role: "upgrades turned off for the account (Power, monthly)" },
  { email: "teacher@demo-school.edu", role: "teacher (teacher plan, verified education e-mail)" },
  { email: "student-teacher@demo-school.edu", role: "education trial with an unverified e-mail" },
  { email: "blocked@mailinator.com", role: "blocked e-mail domain" },
];

const DEMO_EMAILS = new Set(DEMO_ACCOUNTS.map((account) => account.email));

/** One of the demo accounts, whose password is published (they sign in for local requests only). */
export function isDemoAccount(email: string): boolean {
  return DEMO_EMAILS.has(email.trim().toLowerCase());
}

const DEMO_TEAM = { name: "demo-team", coupon: "demoteam", invite: "demo-invite" };

function pick(catalog: Catalog, ...codes: string[]): PlanEntry | null {
  for (const code of codes) {
    const plan = catalog.plans.find((p) => p.code === code);
    if (plan) return plan;
  }
  return null;
}

type Setup = {
  email: string;
  first: string;
  last: string;
  user?: Partial<User>;
  plan?: PlanEntry | null;
  sub?: (base: Subscription, plan: PlanEntry) => Partial<Subscription>;
  card?: boolean;
};

export async function seedDemoAccounts(
  db: Db,
  deps: { catalog: Catalog; now: number; secret: Buffer; passwordCost: number },
): Promise<DemoAccount[]> {
  const { catalog, now, secret } = deps;
  if ((await Users.count(db)) > 0) return [];
  // One hash for all demo accounts: they share a published password anyway.
  const passwordHash = await hashPassword(DEMO_PASSWORD, deps.passwordCost);
  const paid = (plan: PlanEntry, start: number): Partial<Subscription> => ({
    orderState: "automatic",
    orderId: `ord_demo_${plan.code}`,
    orderStart: start,
    orderEnd: addMonthsClamped(start, plan.validMonths ?? plan.termDuration),
    termMonths: plan.termDuration,
    paidCents: planPrice(plan, null).price,
  });
  const trial = (start: number, days: number): Partial<Subscription> => ({
    orderState: "trial",
    orderId: "ord_demo_trial",
    orderStart: start,
    orderEnd: start + days * DAY_MS,
  });

  const setups: Setup[] = [
    { email: "free@demo.test", first: "Frances", last: "Free" },
    {
      email: "trial@demo.test",
      first: "Tristan",
      last: "Trial",
      user: { previousTrialOwner: true, previousTrialProduct: "wv_unlimited_trial" },
      plan: pick(catalog, "wv_unlimited_trial"),
      sub: () => trial(now - 4 * DAY_MS, 14),
    },
    {
      // Trials now start for a verified address only (issue 18 item 6); accounts whose trial began
      // before that still meet the TrialEmailVerification step of spec 4.
      email: "unverified@demo.test",
      first: "Umar",
      last: "Unverified",
      user: {
        emailVerified: false,
        activationRequired: true,
        previousTrialOwner: true,
        previousTrialProduct: "wv_unlimited_trial",
      },
      plan: pick(catalog, "wv_unlimited_trial"),
      sub: () => trial(now - 1 * DAY_MS, 14),
    },
    {
      email: "expired@demo.test",
      first: "Esther",
      last: "Expired",
      user: { previousTrialOwner: true, previousTrialProduct: "wv_unlimited_trial" },
      plan: pick(catalog, "wv_unlimited_trial"),
      sub: () => trial(now - 17 * DAY_MS, 14),
    },
    {
      email: "monthly@demo.test",
      first: "Morgan",
      last: "Monthly",
      plan: pick(catalog, "wv_unloct17_1m", "wv_unlimited_1m"),
      sub: (_, plan) => ({ ...paid(plan, now - 10 * DAY_MS), paymentProcessor: "cc" }),
      card: true,
    },
    {
      email: "annual@demo.test",
      first: "Ann",
      last: "Annual",
      user: { paypalSubscriptionId: "I-DEMOANNUAL" },
      plan: pick(catalog, "wv_single_plus_12m", "wv_single_12m"),
      sub: (_, plan) => ({ ...paid(plan, now - 60 * DAY_MS), paymentProcessor: "paypal" }),
    },
    {
      email: "owner@demo.test",
      first: "Olivia",
      last: "Owner",
      plan: pick(catalog, "wv_bizoct17_12m", "wv_bizoct17_1m"),
      sub: (_, plan) => ({ ...paid(plan, now - 30 * DAY_MS), seats: 5, paymentProcessor: "cc" }),
      card: true,
    },
    {
      email: "member@demo.test",
      first: "Max",
      last: "Member",
      user: { enterpriseRole: "member", memberState: "approved" },
    },
    {
      email: "po@demo.test",
      first: "Priya",
      last: "Purchase-Order",
      plan: pick(catalog, "wv_k12_12m", "wv_k12_6m"),
      sub: (_, plan) => ({
        ...paid(plan, now - 90 * DAY_MS),
        orderState: "purchaseOrder",
        seats: 30,
        paidCents: 0,
      }),
    },
    {
      email: "mobile@demo.test",
      first: "Milo",
      last: "Mobile",
      user: { itunesSubscription: true },
      plan: pick(catalog, "wv_single_1m", "wv_single_12m"),
      sub: (_, plan) => ({ ...paid(plan, now - 5 * DAY_MS), paidCents: 0 }),
    },
    {
      email: "locked@demo.test",
      first: "Lee",
      last: "Locked",
      user: { disableAccountUpgrades: true },
      plan: pick(catalog, "wv_single_1m", "wv_single_12m"),
      sub: (_, plan) => ({ ...paid(plan, now - 5 * DAY_MS), paymentProcessor: "cc" }),
    },
    {
      email: "teacher@demo-school.edu",
      first: "Theo",
      last: "Teacher",
      plan: pick(catalog, "wv_teacher_12m"),
      sub: (_, plan) => ({ ...paid(plan, now - 20 * DAY_MS), paymentProcessor: "cc" }),
      card: true,
    },
    {
      email: "student-teacher@demo-school.edu",
      first: "Uma",
      last: "Unverified",
      user: {
        emailVerified: false,
        activationRequired: true,
        previousTrialOwner: true,
        previousTrialProduct: "wv_edu_trial",
      },
      plan: pick(catalog, "wv_edu_trial"),
      sub: () => trial(now - 2 * DAY_MS, 30),
    },
    {
      email: "blocked@mailinator.com",
      first: "Bo",
      last: "Blocked",
      user: { domainStatus: "blocked" },
    },
  ];

  // Counted again inside the transaction: servers starting together on one PostgreSQL database
  // seed once (the others' transactions fail to serialize, run again, and find the accounts).
  const seeded = await db.transaction(async (tx) => {
    if ((await Users.count(tx)) > 0) return false;
    const ids = new Map<string, number>();
    for (const setup of setups) {
      const id = await Users.insert(
        tx,
        newUser({
          email: setup.email,
          username: setup.email,
          firstName: setup.first,
          lastName: setup.last,
          passwordHash,
          createdAt: now - 100 * DAY_MS,
          emailVerified: true,
          ...setup.user,
        }),
      );
      ids.set(setup.email, id);
      const base = freeSubscription(id, now);
      const plan = setup.plan ?? null;
      const sub =
        plan && setup.sub ? { ...base, productCode: plan.code, ...setup.sub(base, plan) } : base;
      await Subscriptions.insert(tx, sub);
      if (setup.card) await saveDemoCard(tx, secret, id, setup.email, now);
    }
    await createDemoTeam(tx, catalog, ids, now);
    return true;
  });
  return seeded ? [...DEMO_ACCOUNTS] : [];
}

async function saveDemoCard(
  tx: Queryable,
  secret: Buffer,
  userId: number,
  email: string,
  now: number,
): Promise<void> {
  const tokenId = `tok_sandbox_demo_${userId}`;
  await CardTokens.insert(tx, {
    id: tokenId,
    numberHash: keyedHash(secret, "card:4242424242424242"),
    brand: "visa",
    last4: "4242",
    expMonth: 12,
    expYear: new Date(now).getUTCFullYear() + 5,
    attachError: null,
    chargeError: null,
    createdAt: now,
  });
  await CardTokens.use(tx, tokenId, now);
  const customerId = `cus_sandbox_${userId}`;
  await SandboxCustomers.upsert(tx, { id: customerId, tokenId, email, now });
  await Users.update(tx, userId, {
    paymentCustomer: customerId,
    cardBrand: "visa",
    cardLast4: "4242",
  });
}

async function createDemoTeam(
  tx: Queryable,
  catalog: Catalog,
  ids: Map<string, number>,
  now: number,
): Promise<void> {
  const ownerId = ids.get("owner@demo.test");
  const memberId = ids.get("member@demo.test");
  const poId = ids.get("po@demo.test");
  const business = pick(catalog, "wv_bizoct17_12m", "wv_bizoct17_1m");
  if (ownerId && memberId && business) {
    const instanceId = await Instances.insert(tx, {
      name: DEMO_TEAM.name,
      ownerUserId: ownerId,
      productCode: business.code,
      maxSeats: 5,
      coupon: DEMO_TEAM.coupon,
      licensePricingStructure: null,
      createdAt: now,
      disbandedAt: null,
    });
    await Users.update(tx, ownerId, {
      instanceId,
      memberState: "approved",
      enterpriseRole: "admin",
    });
    await Users.update(tx, memberId, {
      instanceId,
      memberState: "approved",
      enterpriseRole: "member",
    });
    // The team gave member@ its account (issue 18, item 14: the one kind a disband may delete).
    await TeamAccounts.record(tx, { userId: memberId, instanceId, now });
    await Invites.insert(tx, {
      code: DEMO_TEAM.invite,
      instanceId,
      inviterUserId: ownerId,
      email: null,
      createdAt: now,
      acceptedAt: null,
      acceptedBy: null,
    });
  }
  const schools = pick(catalog, "wv_k12_12m", "wv_k12_6m");
  if (poId && schools) {
    const instanceId = await Instances.insert(tx, {
      name: "demo-school",
      ownerUserId: poId,
      productCode: schools.code,
      maxSeats: 30,
      coupon: null,
      licensePricingStructure: schools.seatStructure,
      createdAt: now,
      disbandedAt: null,
    });
    await Users.update(tx, poId, { instanceId, memberState: "approved", enterpriseRole: "admin" });
  }
}
