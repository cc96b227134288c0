// Queries of the users table, and the session lookup that reads a signed-in account in one
// statement. Kysely's typed builder (decision 0082).

import { CompiledQuery, type Insertable, type Kysely, type Updateable } from "kysely";
import { type Codec, columnCodec } from "./column-codec.ts";
import type { Queryable } from "./db.ts";
import { type BillingDetails, billingDetailsOf } from "./invoices.ts";
import type { Database, UsersTable } from "./schema.ts";
import { type Subscription, Subscriptions } from "./subscriptions.ts";

export type UserAddress = {
  name?: string | undefined;
  company?: string | undefined;
  line1?: string | undefined;
  line2?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
  postalCode?: string | undefined;
  country: string;
};

export type User = {
  id: number;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  emailVerified: boolean;
  activationRequired: boolean;
  domainStatus: string | null;
  createdAt: number;
  lastVisit: number | null;
  locale: string;
  properties: Record<string, string>;
  privacy: Record<string, boolean>;
  sessionProperties: Record<string, string>;
  country: string | null;
  stateCode: string | null;
  address: UserAddress | null;
  instanceId: number | null;
  enterpriseRole: string | null;
  memberState: string | null;
  ssoType: string | null;
  itunesSubscription: boolean;
  androidSubscription: boolean;
  googleWalletSubscription: boolean;
  disableAccountUpgrades: boolean;
  priceTestingGroup: string | null;
  priceTestingGroupValue: string | null;
  priceCampaignKey: string | null;
  paymentCustomer: string | null;
  /** The saved card (Stripe: its PaymentMethod, set up for off-session use); null in the sandbox. */
  paymentMethod: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  paypalSubscriptionId: string | null;
  previousTrialOwner: boolean;
  previousTrialProduct: string | null;
  appliedCoupon: string | null;
};

/** Each field's column, and how it is stored (flags as 0/1, properties and address as JSON text). */
const columns = {
  id: ["id", "as is"],
  email: ["email", "as is"],
  username: ["username", "as is"],
  firstName: ["first_name", "as is"],
  lastName: ["last_name", "as is"],
  passwordHash: ["password_hash", "as is"],
  emailVerified: ["email_verified", "bool"],
  activationRequired: ["activation_required", "bool"],
  domainStatus: ["domain_status", "as is"],
  createdAt: ["created_at", "as is"],
  lastVisit: ["last_visit", "as is"],
  locale: ["locale", "as is"],
  properties: ["properties", "json"],
  privacy: ["privacy", "json"],
  sessionProperties: ["session_properties", "json"],
  country: ["country", "as is"],
  stateCode: ["state_code", "as is"],
  address: ["address", "json"],
  instanceId: ["instance_id", "as is"],
  enterpriseRole: ["enterprise_role", "as is"],
  memberState: ["member_state", "as is"],
  ssoType: ["sso_type", "as is"],
  itunesSubscription: ["itunes_subscription", "bool"],
  androidSubscription: ["android_subscription", "bool"],
  googleWalletSubscription: ["google_wallet_subscription", "bool"],
  disableAccountUpgrades: ["disable_account_upgrades", "bool"],
  priceTestingGroup: ["price_testing_group", "as is"],
  priceTestingGroupValue: ["price_testing_group_value", "as is"],
  priceCampaignKey: ["price_campaign_key", "as is"],
  paymentCustomer: ["payment_customer", "as is"],
  paymentMethod: ["payment_method", "as is"],
  cardBrand: ["card_brand", "as is"],
  cardLast4: ["card_last4", "as is"],
  paypalSubscriptionId: ["paypal_subscription_id", "as is"],
  previousTrialOwner: ["previous_trial_owner", "bool"],
  previousTrialProduct: ["previous_trial_product", "as is"],
  appliedCoupon: ["applied_coupon", "as is"],
} as const satisfies Record<keyof User, readonly [keyof UsersTable, Codec]>;

const { fromRow, toColumns } = columnCodec<User>(columns, "id");

export type NewUser = Omit<User, "id">;

/** What the session lookup reads with the user, so that the account needs no second query. */
export type SessionRows = {
  user: User;
  userId: number;
  /** Null when the account has no subscription row (it is on the free plan). */
  subscription: Subscription | null;
  /** The coupons the account redeemed, lower case (CouponRedemptions.ofUser). */
  redeemedCoupons: string[];
  /** The billing details given at checkout (BillingDetailsTable.get), or null. */
  billing: BillingDetails | null;
  /** When the session ends (ms): found only by a lookup before then. */
  sessionExpiresAt: number;
};

/**
 * The session lookup: one statement, so one round trip on PostgreSQL, run outside a transaction
 * at the database's default isolation (read committed there). That is safe: a single statement
 * reads one snapshot, so the session, user, subscription, coupons and billing details it returns
 * were all committed together, and a session deleted (signed out, or revoked on another server)
 * before it started is not found. What it returns is kept between requests only while the
 * database is unchanged (session-cache.ts, SQLite only), so a revocation takes effect at the next
 * request on every server. No ORDER BY: sorting the rare coupon rows here is cheaper than asking
 * SQLite for a sort of the join. users and subscriptions share no column name; billing_details'
 * user_id and updated_at would collide, so its columns are read under `billing_` names.
 */
const sessionQuery = (q: Queryable, idHash: string, now: number) =>
  q.kysely
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .leftJoin("subscriptions", "subscriptions.user_id", "users.id")
    .leftJoin("coupon_redemptions", "coupon_redemptions.user_id", "users.id")
    .leftJoin("billing_details", "billing_details.user_id", "users.id")
    .selectAll(["users", "subscriptions"])
    .select([
      "coupon_redemptions.coupon as redeemed_coupon",
      "sessions.expires_at as session_expires_at",
      "billing_details.user_id as billing_user_id",
      "billing_details.organisation as billing_organisation",
      "billing_details.tax_id as billing_tax_id",
      "billing_details.tax_id_country as billing_tax_id_country",
      "billing_details.tax_id_valid as billing_tax_id_valid",
      "billing_details.street as billing_street",
      "billing_details.city as billing_city",
      "billing_details.updated_at as billing_updated_at",
    ])
    .where("sessions.id_hash", "=", idHash)
    .where("sessions.expires_at", ">", now);

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>["execute"]>>[number];

/**
 * The session lookup's SQL, built once per database (its text differs by dialect): building it
 * with Kysely's builder costs more than running it (on SQLite about 130 µs against 60 µs,
 * measured), and it runs on every signed-in request. Each lookup runs that text with its own
 * values, in the order the builder placed them (found from the values it was built with).
 */
const sessionSql = new WeakMap<Kysely<Database>, { sql: string; order: ("idHash" | "now")[] }>();
const BUILT_WITH = { idHash: "\u0000session id hash", now: -1 } as const;

function sessionStatement(q: Queryable, idHash: string, now: number): CompiledQuery<SessionRow> {
  let built = sessionSql.get(q.kysely);
  if (!built) {
    const compiled = sessionQuery(q, BUILT_WITH.idHash, BUILT_WITH.now).compile();
    const order = compiled.parameters.map((value) => {
      if (value === BUILT_WITH.idHash) return "idHash" as const;
      if (value === BUILT_WITH.now) return "now" as const;
      throw new Error(`The session lookup has an unexpected parameter: ${String(value)}`);
    });
    built = { sql: compiled.sql, order };
    sessionSql.set(q.kysely, built);
  }
  const values = { idHash, now };
  return CompiledQuery.raw(
    built.sql,
    built.order.map((name) => values[name]),
  ) as CompiledQuery<SessionRow>;
}

/** The billing details of a session row (null when the LEFT JOIN found none). */
function billingOf(row: SessionRow): BillingDetails | null {
  if (row.billing_user_id === null || row.billing_user_id === undefined) return null;
  return billingDetailsOf({
    user_id: row.billing_user_id,
    organisation: row.billing_organisation,
    tax_id: row.billing_tax_id,
    tax_id_country: row.billing_tax_id_country,
    tax_id_valid: row.billing_tax_id_valid ?? 0,
    street: row.billing_street,
    city: row.billing_city,
    updated_at: row.billing_updated_at ?? 0,
  });
}

/** Defaults of a new account; callers give the identity fields. */
export function newUser(
  fields: Pick<
    User,
    "email" | "username" | "firstName" | "lastName" | "passwordHash" | "createdAt"
  > &
    Partial<User>,
): NewUser {
  return {
    emailVerified: false,
    activationRequired: false,
    domainStatus: null,
    lastVisit: null,
    locale: "en_US",
    properties: {},
    privacy: {},
    sessionProperties: {},
    country: null,
    stateCode: null,
    address: null,
    instanceId: null,
    enterpriseRole: null,
    memberState: null,
    ssoType: null,
    itunesSubscription: false,
    androidSubscription: false,
    googleWalletSubscription: false,
    disableAccountUpgrades: false,
    priceTestingGroup: null,
    priceTestingGroupValue: null,
    priceCampaignKey: null,
    paymentCustomer: null,
    paymentMethod: null,
    cardBrand: null,
    cardLast4: null,
    paypalSubscriptionId: null,
    previousTrialOwner: false,
    previousTrialProduct: null,
    appliedCoupon: null,
    ...fields,
    email: fields.email.trim().toLowerCase(),
  };
}

const users = (q: Queryable) => q.kysely.selectFrom("users").selectAll();

export const Users = {
  async byId(q: Queryable, id: number): Promise<User | null> {
    const row = await users(q).where("id", "=", id).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /**
   * The user of a live session, its subscription, the coupons it redeemed and its billing
   * details, in one query (sessionQuery, built once: sessionStatement): this runs on every
   * signed-in request, and the account's rules and the quote's tax need all four (a row per
   * redeemed coupon, usually one row).
   */
  async bySession(q: Queryable, idHash: string, now: number): Promise<SessionRows | null> {
    const { rows } = await q.kysely.executeQuery(sessionStatement(q, idHash, now));
    const row = rows[0];
    if (!row) return null;
    const user = fromRow(row);
    return {
      user,
      userId: user.id,
      subscription: Subscriptions.fromJoinedRow(row),
      redeemedCoupons: rows
        .flatMap((r) => (typeof r.redeemed_coupon === "string" ? [r.redeemed_coupon] : []))
        .sort(),
      billing: billingOf(row),
      sessionExpiresAt: Number(row.session_expires_at),
    };
  },
  async byEmail(q: Queryable, email: string): Promise<User | null> {
    const row = await users(q).where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  async byUsername(q: Queryable, username: string): Promise<User | null> {
    const row = await users(q).where("username", "=", username).executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  /** The accounts whose saved card is at this provider customer (webhooks). */
  async byPaymentCustomer(q: Queryable, customerId: string): Promise<User[]> {
    const rows = await users(q).where("payment_customer", "=", customerId).orderBy("id").execute();
    return rows.map(fromRow);
  },
  /** The accounts whose saved card is this payment method (webhooks). */
  async byPaymentMethod(q: Queryable, paymentMethodId: string): Promise<User[]> {
    const rows = await users(q)
      .where("payment_method", "=", paymentMethodId)
      .orderBy("id")
      .execute();
    return rows.map(fromRow);
  },
  /** The account a PayPal subscription pays for (PayPal's webhooks name only the subscription). */
  async byPaypalSubscription(q: Queryable, subscriptionId: string): Promise<User | null> {
    const row = await users(q)
      .where("paypal_subscription_id", "=", subscriptionId)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  },
  async count(q: Queryable): Promise<number> {
    const row = await q.kysely
      .selectFrom("users")
      .select((e) => e.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
  async insert(q: Queryable, user: NewUser): Promise<number> {
    const row = await q.kysely
      .insertInto("users")
      .values(toColumns(user, "left out") as Insertable<UsersTable>)
      .returning("id")
      .executeTakeFirst();
    if (!row) throw new Error("INSERT INTO users returned no id");
    return Number(row.id);
  },
  async update(q: Queryable, id: number, patch: Partial<NewUser>): Promise<void> {
    const row = toColumns(patch, "null") as Updateable<UsersTable>;
    if (Object.keys(row).length === 0) return;
    await q.kysely.updateTable("users").set(row).where("id", "=", id).execute();
  },
  async membersOf(q: Queryable, instanceId: number): Promise<User[]> {
    const rows = await users(q).where("instance_id", "=", instanceId).orderBy("id").execute();
    return rows.map(fromRow);
  },
  async countApprovedMembers(q: Queryable, instanceId: number): Promise<number> {
    const row = await q.kysely
      .selectFrom("users")
      .select((e) => e.fn.countAll<number>().as("n"))
      .where("instance_id", "=", instanceId)
      .where("member_state", "=", "approved")
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  },
  async delete(q: Queryable, id: number): Promise<void> {
    await q.kysely.deleteFrom("users").where("id", "=", id).execute();
  },
};
