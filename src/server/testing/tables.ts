// What the server tests read and arrange in the database, through Kysely's typed builder over
// the tables of db/schema.ts (decision 0082), so a test names what it looks at ("the successful
// charges' amounts") instead of carrying SQL. Test-only: the server reads through db/*.ts.
import { sql } from "kysely";
import type { Queryable } from "../db/db.ts";

const count = (row: { n: number | string | bigint } | undefined): number => Number(row?.n ?? 0);

/** The sandbox's charges, oldest first (same instant: in the order they were written). */
function chargesInOrder(q: Queryable) {
  // SQLite's rowid is the order of writing: charges made at one clock instant keep it.
  return q.kysely.selectFrom("sandbox_charges").orderBy("created_at").orderBy(sql`rowid`);
}

/** The amounts of the sandbox charges that succeeded, oldest first. */
export async function successfulChargeAmounts(q: Queryable): Promise<number[]> {
  const rows = await chargesInOrder(q).select("amount").where("error_code", "is", null).execute();
  return rows.map((r) => r.amount);
}

/** A sandbox customer's charges, oldest first, with the error of each that failed. */
export async function chargesOfCustomer(
  q: Queryable,
  customerId: string,
): Promise<{ amount: number; error: string | null }[]> {
  return chargesInOrder(q)
    .select(["amount", "error_code as error"])
    .where("customer_id", "=", customerId)
    .execute();
}

/** How many sandbox charges there are (all of them, or only those that succeeded). */
export async function countCharges(
  q: Queryable,
  which: "all" | "succeeded" = "all",
): Promise<number> {
  let query = q.kysely.selectFrom("sandbox_charges").select((e) => e.fn.countAll<number>().as("n"));
  if (which === "succeeded") query = query.where("error_code", "is", null);
  return count(await query.executeTakeFirst());
}

/** How many telemetry or business events are recorded (of one name, or all). */
export async function countEvents(q: Queryable, name?: string): Promise<number> {
  let query = q.kysely.selectFrom("events").select((e) => e.fn.countAll<number>().as("n"));
  if (name !== undefined) query = query.where("name", "=", name);
  return count(await query.executeTakeFirst());
}

/** The payloads of the events of one name about one account, in the order recorded. */
export async function eventPayloads(
  q: Queryable,
  name: string,
  userId: number,
): Promise<{ payload: string }[]> {
  return q.kysely
    .selectFrom("events")
    .select("payload")
    .where("name", "=", name)
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

/** The latest event of one kind's payload, or undefined when there is none. */
export async function lastEventPayload(q: Queryable, kind: string): Promise<string | undefined> {
  const row = await q.kysely
    .selectFrom("events")
    .select("payload")
    .where("kind", "=", kind)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.payload;
}

/** Every event's kind and name, in the order recorded. */
export async function eventKindsAndNames(q: Queryable): Promise<{ kind: string; name: string }[]> {
  return q.kysely.selectFrom("events").select(["kind", "name"]).orderBy("id").execute();
}

/** The ids of an account's orders, trials included. */
export async function orderIdsOf(q: Queryable, userId: number): Promise<string[]> {
  const rows = await q.kysely
    .selectFrom("orders")
    .select("id")
    .where("user_id", "=", userId)
    .execute();
  return rows.map((r) => r.id);
}

/** An account's orders other than its trial: id, the provider's charge and the total. */
export async function chargedOrdersOf(
  q: Queryable,
  userId: number,
): Promise<{ id: string; charge_ref: string | null; total: number }[]> {
  return q.kysely
    .selectFrom("orders")
    .select(["id", "charge_ref", "total"])
    .where("user_id", "=", userId)
    .where("kind", "<>", "trial")
    .execute();
}

/** How many orders were made with one Idempotency-Key. */
export async function countOrdersWithKey(q: Queryable, key: string): Promise<number> {
  const row = await q.kysely
    .selectFrom("orders")
    .select((e) => e.fn.countAll<number>().as("n"))
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  return count(row);
}

/** The refunds or lost disputes recorded under one provider id (at most one). */
export async function refundsWithId(
  q: Queryable,
  id: string,
): Promise<{ kind: string; amount: number; order_id: string }[]> {
  return q.kysely
    .selectFrom("refunds")
    .select(["kind", "amount", "order_id"])
    .where("id", "=", id)
    .execute();
}

/** How many orders the account of one e-mail address has (of one kind, or all). */
export async function countOrdersOf(q: Queryable, email: string, kind?: string): Promise<number> {
  let query = q.kysely
    .selectFrom("orders")
    .innerJoin("users", "users.id", "orders.user_id")
    .select((e) => e.fn.countAll<number>().as("n"))
    .where("users.email", "=", email);
  if (kind !== undefined) query = query.where("orders.kind", "=", kind);
  return count(await query.executeTakeFirst());
}

/** The subscription row of the account of one e-mail address, as stored. */
export async function subscriptionRowOf(q: Queryable, email: string) {
  return q.kysely
    .selectFrom("subscriptions")
    .innerJoin("users", "users.id", "subscriptions.user_id")
    .selectAll("subscriptions")
    .where("users.email", "=", email)
    .executeTakeFirst();
}

/** How many account locks the account of one e-mail address holds (0 or 1). */
export async function countLocksOf(q: Queryable, email: string): Promise<number> {
  const row = await q.kysely
    .selectFrom("account_locks")
    .innerJoin("users", "users.id", "account_locks.user_id")
    .select((e) => e.fn.countAll<number>().as("n"))
    .where("users.email", "=", email)
    .executeTakeFirst();
  return count(row);
}

/** Makes an order forget the Idempotency-Key it was bought with (as the oldest orders have). */
export async function forgetOrderKey(q: Queryable, orderId: string): Promise<void> {
  await q.kysely
    .updateTable("orders")
    .set({ idempotency_key: null })
    .where("id", "=", orderId)
    .execute();
}

/** Makes the sandbox forget the charges made with one Idempotency-Key (as Stripe after a day). */
export async function forgetChargesOfKey(q: Queryable, key: string): Promise<void> {
  // The sandbox's charge keys end with the purchase's key: "<scope>:<key>".
  await q.kysely
    .deleteFrom("sandbox_charges")
    .where("idempotency_key", "like", `%:${key}`)
    .execute();
}

/** Forgets every PayPal plan recorded here (a new database, or a crash before the record). */
export async function forgetPaypalPlans(q: Queryable): Promise<void> {
  await q.kysely.deleteFrom("paypal_plans").execute();
}

/** How many PayPal approvals an account has started. */
export async function countPaypalApprovalsOf(q: Queryable, userId: number): Promise<number> {
  const row = await q.kysely
    .selectFrom("paypal_approvals")
    .select((e) => e.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return count(row);
}

/** The first-term coupons taken by one order. */
export async function couponRedemptionsOfOrder(
  q: Queryable,
  orderId: string,
): Promise<{ coupon: string; order_id: string }[]> {
  return q.kysely
    .selectFrom("coupon_redemptions")
    .select(["coupon", "order_id"])
    .where("order_id", "=", orderId)
    .execute();
}

/** The pricing structure of the workspace an account owns, when it owns one. */
export async function pricingStructureOfWorkspaceOwnedBy(
  q: Queryable,
  userId: number,
): Promise<string | null | undefined> {
  const row = await q.kysely
    .selectFrom("instances")
    .select("license_pricing_structure")
    .where("owner_user_id", "=", userId)
    .executeTakeFirst();
  return row?.license_pricing_structure;
}

/** The seats and product of the workspace an account belongs to. */
export async function workspaceOf(
  q: Queryable,
  userId: number,
): Promise<{ max_seats: number; product_code: string } | undefined> {
  return q.kysely
    .selectFrom("instances")
    .innerJoin("users", "users.instance_id", "instances.id")
    .select(["instances.max_seats", "instances.product_code"])
    .where("users.id", "=", userId)
    .executeTakeFirst();
}

/** The totals of an account's orders, in the order they were written. */
export async function orderTotalsOf(q: Queryable, userId: number): Promise<{ total: number }[]> {
  return q.kysely
    .selectFrom("orders")
    .select("total")
    .where("user_id", "=", userId)
    .orderBy("seq")
    .execute();
}

/** An account's renewal orders: id, the provider's charge and the total. */
export async function renewalOrdersOf(
  q: Queryable,
  userId: number,
): Promise<{ id: string; charge_ref: string | null; total: number }[]> {
  return q.kysely
    .selectFrom("orders")
    .select(["id", "charge_ref", "total"])
    .where("user_id", "=", userId)
    .where("idempotency_key", "like", "renewal:%")
    .execute();
}

/** The sandbox charges of one renewal's attempts, oldest first. */
export async function chargesOfRenewal(
  q: Queryable,
  renewalId: string,
): Promise<{ id: string; error_code: string | null }[]> {
  return q.kysely
    .selectFrom("sandbox_charges")
    .select(["id", "error_code"])
    .where("idempotency_key", "like", `renewal:${renewalId}:%`)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}

/** Hands an Idempotency-Key's claim to another owner, as a process taking it over would. */
export async function handKeyTo(
  q: Queryable,
  claim: { userId: number; key: string },
  owner: string,
): Promise<void> {
  await q.kysely
    .updateTable("idempotency_keys")
    .set({ owner })
    .where("user_id", "=", claim.userId)
    .where("key", "=", claim.key)
    .execute();
}

/** An account's refunds and lost disputes: the order each takes back and its kind. */
export async function refundsOfUser(
  q: Queryable,
  userId: number,
): Promise<{ order_id: string; kind: string }[]> {
  return q.kysely
    .selectFrom("refunds")
    .select(["order_id", "kind"])
    .where("user_id", "=", userId)
    .orderBy("kind")
    .execute();
}

/** How many migrations the database has applied (Kysely's Migrator's own table). */
export async function countAppliedMigrations(q: Queryable): Promise<number> {
  const row = await q.kysely
    .withTables<{ kysely_migration: { name: string } }>()
    .selectFrom("kysely_migration")
    .select((e) => e.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return count(row);
}

/** The one-off purchases' orders: id, key, total and the provider's charge. */
export async function oneOffOrders(
  q: Queryable,
): Promise<
  { id: string; idempotency_key: string | null; total: number; charge_ref: string | null }[]
> {
  return q.kysely
    .selectFrom("orders")
    .select(["id", "idempotency_key", "total", "charge_ref"])
    .where("kind", "=", "one_off")
    .execute();
}

/** The sandbox charges that succeeded: id and amount. */
export async function successfulCharges(q: Queryable): Promise<{ id: string; amount: number }[]> {
  return q.kysely
    .selectFrom("sandbox_charges")
    .select(["id", "amount"])
    .where("error_code", "is", null)
    .execute();
}

/** The state and stored answer of every Idempotency-Key that starts with `prefix`. */
export async function idempotencyKeysStartingWith(
  q: Queryable,
  prefix: string,
): Promise<{ state: string; response: string | null }[]> {
  return q.kysely
    .selectFrom("idempotency_keys")
    .select(["state", "response"])
    .where("key", "like", `${prefix}%`)
    .execute();
}
