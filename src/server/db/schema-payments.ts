// The tables of payments and what they bought (orders, invoices, renewals, providers' records):
// see schema.ts.
import type { Generated } from "kysely";

export interface BillingDetailsTable {
  user_id: number;
  organisation: string | null;
  tax_id: string | null;
  tax_id_country: string | null;
  tax_id_valid: Generated<number>;
  street: string | null;
  city: string | null;
  updated_at: number;
}

export interface CardTokensTable {
  id: string;
  number_hash: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  attach_error: string | null;
  charge_error: string | null;
  created_at: number;
  used_at: number | null;
}

export interface CouponRedemptionsTable {
  user_id: number;
  coupon: string;
  order_id: string;
  redeemed_at: number;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  fingerprint: string;
  state: string;
  owner: string;
  status: number | null;
  response: string | null;
  created_at: number;
  completed_at: number | null;
  lease_until: number | null;
}

export interface InvoiceCountersTable {
  series: string;
  last_number: number;
}

export interface InvoiceNumberingTable {
  id: number;
  passes: number;
}

export interface InvoicesTable {
  number: string;
  series: string;
  sequence: number;
  kind: string;
  user_id: number;
  order_id: string;
  refers_to: string | null;
  refund_ref: string | null;
  credited_by: string | null;
  total: number;
  document: string;
  issued_at: number;
}

export interface OrderItemsTable {
  order_id: string;
  position: number;
  user_id: number;
  kind: string;
  product_code: string | null;
  quantity: number;
  amount: number;
  period_start: number | null;
  period_end: number | null;
  rests_on: string | null;
}

export interface OrdersTable {
  seq: Generated<number>;
  id: string;
  user_id: number;
  kind: string;
  product_code: string;
  product_name: string;
  seats: number;
  add_ons: Generated<string>;
  sub_total: number;
  sales_tax: number;
  total: number;
  list_price: number;
  prorate_amount: Generated<number>;
  currency: Generated<string>;
  processor: string | null;
  charge_ref: string | null;
  invoice_id: string | null;
  period_start: number;
  period_end: number | null;
  term_months: number;
  coupon: string | null;
  idempotency_key: string | null;
  created_at: number;
  catalog_version: string | null;
  price_set: string | null;
}

export interface PaypalApprovalsTable {
  id: string;
  user_id: number;
  product_code: string;
  seats: number;
  add_ons: string;
  coupon: string | null;
  total: number;
  return_url: string;
  state: string;
  order_id: string | null;
  created_at: number;
  plan_id: string | null;
  quantity: number | null;
  first_unit: number | null;
  unit_cents: number | null;
  subscription_id: string | null;
}

export interface PaypalKeptEventsTable {
  event_id: string;
  sale_id: string;
  event_type: string;
  body: string;
  kept_at: number;
}

export interface PaypalPlansTable {
  plan_key: string;
  paypal_plan_id: string;
  product_code: string;
  term_months: number;
  unit_cents: number;
  created_at: number;
}

export interface PaypalStrayRefundsTable {
  sale_id: string;
  subscription_id: string;
  refund_id: string;
  amount: number;
  status: string;
  created_at: number;
}

export interface PaypalStraysTable {
  subscription_id: string;
  approval_id: string | null;
  user_id: number | null;
  reason: string;
  state: string;
  since: number;
  created_at: number;
  settled_at: number | null;
}

export interface PendingPurchasesTable {
  user_id: number;
  idempotency_key: string;
  order_key: string;
  customer_id: string;
  amount: number;
  created_at: number;
}

export interface RefundsTable {
  id: string;
  order_id: string;
  user_id: number;
  amount: number;
  currency: string;
  kind: string;
  provider: string;
  created_at: number;
}

export interface RenewalsTable {
  id: string;
  user_id: number;
  period_anchor: number;
  period_index: number;
  period_start: number;
  period_end: number;
  product_code: string;
  seats: number;
  sub_total: number;
  sales_tax: number;
  amount: number;
  processor: string;
  state: string;
  attempts: number;
  next_attempt_at: number;
  worker: string | null;
  order_id: string | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  payment_id: string | null;
  payment_key: string | null;
  payment_retired: string | null;
}

export interface SandboxChargesTable {
  idempotency_key: string;
  id: string;
  customer_id: string;
  amount: number;
  currency: string;
  description: string;
  error_code: string | null;
  created_at: number;
}

export interface SandboxCustomersTable {
  id: string;
  token_id: string;
  email: string;
  created_at: number;
}

export interface SandboxSetupsTable {
  idempotency_key: string;
  id: string;
  customer_id: string;
  token_id: string;
  state: string;
  created_at: number;
}

export interface WaitingInvoicesTable {
  order_id: string;
  user_id: number;
  total: number;
  document: string;
  receipt: string | null;
  issued_at: number;
}

export interface WebhookEventsTable {
  provider: string;
  event_id: string;
  event_type: string;
  received_at: number;
}
