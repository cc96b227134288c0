// The tables' columns as Kysely's typed query builder sees them (decision 0082), the same on
// both dialects: INTEGER (BIGINT on PostgreSQL, read as numbers) for counts, amounts, 0/1 flags
// and millisecond times, TEXT for text and JSON. `Generated` marks a column the database fills
// when an insert leaves it out (a default, a surrogate key). Kept in step with the migrations by
// hand: a migration that changes a table changes its interface here.
import type { Generated } from "kysely";
import type {
  BillingDetailsTable,
  CardTokensTable,
  CouponRedemptionsTable,
  IdempotencyKeysTable,
  InvoiceCountersTable,
  InvoiceNumberingTable,
  InvoicesTable,
  OrderItemsTable,
  OrdersTable,
  PaypalApprovalsTable,
  PaypalKeptEventsTable,
  PaypalPlansTable,
  PaypalStrayRefundsTable,
  PaypalStraysTable,
  PendingPurchasesTable,
  RefundsTable,
  RenewalsTable,
  SandboxChargesTable,
  SandboxCustomersTable,
  SandboxSetupsTable,
  WaitingInvoicesTable,
  WebhookEventsTable,
} from "./schema-payments.ts";

export interface AccountLocksTable {
  user_id: number;
  holder: string;
  acquired_at: number;
  expires_at: number;
  token: string | null;
}

export interface EmailChangesTable {
  user_id: number;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: number;
  expires_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  kind: string;
  name: string;
  user_id: number | null;
  payload: string;
  created_at: number;
}

export interface InstancesTable {
  id: Generated<number>;
  name: string;
  owner_user_id: number | null;
  product_code: string;
  max_seats: number;
  coupon: string | null;
  license_pricing_structure: string | null;
  created_at: number;
  disbanded_at: number | null;
}

export interface InvitesTable {
  code: string;
  instance_id: number;
  inviter_user_id: number | null;
  email: string | null;
  created_at: number;
  accepted_at: number | null;
  accepted_by: number | null;
}

export interface OutboxTable {
  id: Generated<number>;
  recipient: string;
  subject: string;
  body: string;
  created_at: number;
  sent_at: number | null;
  attempts: Generated<number>;
  last_error: string | null;
  claimed_until: number | null;
}

export interface RateLimitsTable {
  id: string;
  tokens: number;
  updated_at: number;
  took: Generated<number>;
}

export interface SecretsTable {
  hash: string;
  kind: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  attempts: Generated<number>;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
}

export interface SubscriptionsTable {
  user_id: number;
  product_code: string;
  order_state: string;
  prev_order_state: string | null;
  order_id: string | null;
  order_start: number | null;
  order_end: number | null;
  term_months: number | null;
  seats: Generated<number>;
  paid_cents: Generated<number>;
  payment_processor: string | null;
  covid_promotion: Generated<number>;
  expired_flag: Generated<number>;
  cc_required_for_trial: Generated<number>;
  upcoming_purchase_order: Generated<number>;
  export_credits: Generated<number>;
  updated_at: number;
  pending_product_code: string | null;
  pending_seats: number | null;
  pending_at: number | null;
  period_anchor: number | null;
  period_index: Generated<number>;
  recurring_campaign: string | null;
  price_basis: string | null;
}

export interface TeamAccountsTable {
  user_id: number;
  instance_id: number;
  created_at: number;
}

export interface TrialClaimsTable {
  identity: string;
  user_id: number;
  product_code: string;
  created_at: number;
}

export interface UsersTable {
  id: Generated<number>;
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  email_verified: Generated<number>;
  activation_required: Generated<number>;
  domain_status: string | null;
  created_at: number;
  last_visit: number | null;
  locale: Generated<string>;
  properties: Generated<string>;
  privacy: Generated<string>;
  session_properties: Generated<string>;
  country: string | null;
  state_code: string | null;
  address: string | null;
  instance_id: number | null;
  enterprise_role: string | null;
  member_state: string | null;
  sso_type: string | null;
  itunes_subscription: Generated<number>;
  android_subscription: Generated<number>;
  google_wallet_subscription: Generated<number>;
  disable_account_upgrades: Generated<number>;
  price_testing_group: string | null;
  price_testing_group_value: string | null;
  price_campaign_key: string | null;
  payment_customer: string | null;
  card_brand: string | null;
  card_last4: string | null;
  paypal_subscription_id: string | null;
  previous_trial_owner: Generated<number>;
  previous_trial_product: string | null;
  applied_coupon: string | null;
  payment_method: string | null;
  /** The visitor id the account's price experiments follow (migration 30). */
  visitor_id: string | null;
}

/** One event of a visitor in a price experiment, once per kind (migration 30). */
export interface ExperimentEventsTable {
  experiment_id: string;
  visitor_id: string;
  kind: "exposure" | "checkout" | "purchase" | "renewal" | "cancellation";
  /** The group the exposure fixed: a price-set id or "control". */
  group_id: string;
  at: number;
  user_id: number | null;
  /** The order of a purchase or renewal. */
  order_id: string | null;
}

export interface Database {
  account_locks: AccountLocksTable;
  billing_details: BillingDetailsTable;
  card_tokens: CardTokensTable;
  coupon_redemptions: CouponRedemptionsTable;
  email_changes: EmailChangesTable;
  events: EventsTable;
  experiment_events: ExperimentEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  instances: InstancesTable;
  invites: InvitesTable;
  invoice_counters: InvoiceCountersTable;
  invoice_numbering: InvoiceNumberingTable;
  invoices: InvoicesTable;
  order_items: OrderItemsTable;
  orders: OrdersTable;
  outbox: OutboxTable;
  paypal_approvals: PaypalApprovalsTable;
  paypal_kept_events: PaypalKeptEventsTable;
  paypal_plans: PaypalPlansTable;
  paypal_stray_refunds: PaypalStrayRefundsTable;
  paypal_strays: PaypalStraysTable;
  pending_purchases: PendingPurchasesTable;
  rate_limits: RateLimitsTable;
  refunds: RefundsTable;
  renewals: RenewalsTable;
  sandbox_charges: SandboxChargesTable;
  sandbox_customers: SandboxCustomersTable;
  sandbox_setups: SandboxSetupsTable;
  secrets: SecretsTable;
  sessions: SessionsTable;
  subscriptions: SubscriptionsTable;
  team_accounts: TeamAccountsTable;
  trial_claims: TrialClaimsTable;
  users: UsersTable;
  waiting_invoices: WaitingInvoicesTable;
  webhook_events: WebhookEventsTable;
}
