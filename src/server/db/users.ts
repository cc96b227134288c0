// Queries of the users table.
import type { Queryable } from "./db.ts";
import { BILLING_DETAILS_COLUMNS, type BillingDetails } from "./invoices.ts";
import { joinedColumns, mapper } from "./records.ts";
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

const map = mapper<User>("users", {
  id: ["id", "int"],
  email: ["email", "text"],
  username: ["username", "text"],
  firstName: ["first_name", "text"],
  lastName: ["last_name", "text"],
  passwordHash: ["password_hash", "text"],
  emailVerified: ["email_verified", "bool"],
  activationRequired: ["activation_required", "bool"],
  domainStatus: ["domain_status", "text"],
  createdAt: ["created_at", "int"],
  lastVisit: ["last_visit", "int"],
  locale: ["locale", "text"],
  properties: ["properties", "json"],
  privacy: ["privacy", "json"],
  sessionProperties: ["session_properties", "json"],
  country: ["country", "text"],
  stateCode: ["state_code", "text"],
  address: ["address", "json"],
  instanceId: ["instance_id", "int"],
  enterpriseRole: ["enterprise_role", "text"],
  memberState: ["member_state", "text"],
  ssoType: ["sso_type", "text"],
  itunesSubscription: ["itunes_subscription", "bool"],
  androidSubscription: ["android_subscription", "bool"],
  googleWalletSubscription: ["google_wallet_subscription", "bool"],
  disableAccountUpgrades: ["disable_account_upgrades", "bool"],
  priceTestingGroup: ["price_testing_group", "text"],
  priceTestingGroupValue: ["price_testing_group_value", "text"],
  priceCampaignKey: ["price_campaign_key", "text"],
  paymentCustomer: ["payment_customer", "text"],
  paymentMethod: ["payment_method", "text"],
  cardBrand: ["card_brand", "text"],
  cardLast4: ["card_last4", "text"],
  paypalSubscriptionId: ["paypal_subscription_id", "text"],
  previousTrialOwner: ["previous_trial_owner", "bool"],
  previousTrialProduct: ["previous_trial_product", "text"],
  appliedCoupon: ["applied_coupon", "text"],
});

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
 * billing_details (db/invoices.ts, BillingDetailsTable) as the session lookup reads it: its
 * user_id and updated_at would collide with the other tables' columns, so each is renamed.
 * The contract tests compare what this reads with BillingDetailsTable.get.
 */
const billingJoined = joinedColumns<BillingDetails>(
  "billing_details",
  "billing_",
  BILLING_DETAILS_COLUMNS,
);

/**
 * The session lookup: one statement, so one round trip on PostgreSQL, run outside a transaction
 * at the database's default isolation (read committed there). That is safe: a single statement
 * reads one snapshot, so the session, user, subscription, coupons and billing details it returns
 * were all committed together, and a session deleted (signed out, or revoked on another server)
 * before it started is not found. What it returns is kept between requests only while the
 * database is unchanged (session-cache.ts, SQLite only), so a revocation takes effect at the next
 * request on every server. No ORDER BY: sorting the rare coupon rows here is cheaper than asking
 * SQLite for a sort of the join.
 */
const SESSION_SQL = `SELECT users.*, subscriptions.*, coupon_redemptions.coupon AS redeemed_coupon,
       sessions.expires_at AS session_expires_at, ${billingJoined.select}
       FROM sessions
       JOIN users ON users.id = sessions.user_id
       LEFT JOIN subscriptions ON subscriptions.user_id = users.id
       LEFT JOIN coupon_redemptions ON coupon_redemptions.user_id = users.id
       LEFT JOIN billing_details ON billing_details.user_id = users.id
       WHERE sessions.id_hash = ? AND sessions.expires_at > ?`;

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

export const Users = {
  async byId(q: Queryable, id: number): Promise<User | null> {
    const row = await q.get("SELECT * FROM users WHERE id = ?", [id]);
    return row ? map.fromRow(row) : null;
  },
  /**
   * The user of a live session, its subscription, the coupons it redeemed and its billing
   * details, in one query (SESSION_SQL): this runs on every signed-in request, and the account's
   * rules and the quote's tax need all four (a row per redeemed coupon, usually one row; users and
   * subscriptions share no column name).
   */
  async bySession(q: Queryable, idHash: string, now: number): Promise<SessionRows | null> {
    const rows = await q.all(SESSION_SQL, [idHash, now]);
    const row = rows[0];
    if (!row) return null;
    const user = map.fromRow(row);
    return {
      user,
      userId: user.id,
      subscription: Subscriptions.fromJoinedRow(row),
      redeemedCoupons: rows
        .flatMap((r) => (typeof r.redeemed_coupon === "string" ? [r.redeemed_coupon] : []))
        .sort(),
      billing:
        row.billing_user_id === null || row.billing_user_id === undefined
          ? null
          : billingJoined.fromRow(row),
      sessionExpiresAt: Number(row.session_expires_at),
    };
  },
  async byEmail(q: Queryable, email: string): Promise<User | null> {
    const row = await q.get("SELECT * FROM users WHERE email = ?", [email.trim().toLowerCase()]);
    return row ? map.fromRow(row) : null;
  },
  async byUsername(q: Queryable, username: string): Promise<User | null> {
    const row = await q.get("SELECT * FROM users WHERE username = ?", [username]);
    return row ? map.fromRow(row) : null;
  },
  /** The accounts whose saved card is at this provider customer (webhooks). */
  async byPaymentCustomer(q: Queryable, customerId: string): Promise<User[]> {
    const rows = await q.all("SELECT * FROM users WHERE payment_customer = ? ORDER BY id", [
      customerId,
    ]);
    return rows.map((row) => map.fromRow(row));
  },
  /** The accounts whose saved card is this payment method (webhooks). */
  async byPaymentMethod(q: Queryable, paymentMethodId: string): Promise<User[]> {
    const rows = await q.all("SELECT * FROM users WHERE payment_method = ? ORDER BY id", [
      paymentMethodId,
    ]);
    return rows.map((row) => map.fromRow(row));
  },
  /** The account a PayPal subscription pays for (PayPal's webhooks name only the subscription). */
  async byPaypalSubscription(q: Queryable, subscriptionId: string): Promise<User | null> {
    const row = await q.get("SELECT * FROM users WHERE paypal_subscription_id = ?", [
      subscriptionId,
    ]);
    return row ? map.fromRow(row) : null;
  },
  async count(q: Queryable): Promise<number> {
    const row = await q.get<{ n: number }>("SELECT COUNT(*) AS n FROM users");
    return row?.n ?? 0;
  },
  async insert(q: Queryable, user: NewUser): Promise<number> {
    const { sql, params } = map.insert(user);
    const row = await q.get<{ id: number }>(`${sql} RETURNING id`, params);
    if (!row) throw new Error("INSERT INTO users returned no id");
    return row.id;
  },
  async update(q: Queryable, id: number, patch: Partial<NewUser>): Promise<void> {
    const { clause, params } = map.set(patch);
    if (clause === "") return;
    await q.run(`UPDATE users SET ${clause} WHERE id = ?`, [...params, id]);
  },
  async membersOf(q: Queryable, instanceId: number): Promise<User[]> {
    const rows = await q.all("SELECT * FROM users WHERE instance_id = ? ORDER BY id", [instanceId]);
    return rows.map((row) => map.fromRow(row));
  },
  async countApprovedMembers(q: Queryable, instanceId: number): Promise<number> {
    const row = await q.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM users WHERE instance_id = ? AND member_state = 'approved'",
      [instanceId],
    );
    return row?.n ?? 0;
  },
  async delete(q: Queryable, id: number): Promise<void> {
    await q.run("DELETE FROM users WHERE id = ?", [id]);
  },
};
