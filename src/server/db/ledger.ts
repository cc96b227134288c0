// The sandbox payment provider's own books: card tokens from the local card form, customers with
// a card attached, and charges keyed by the provider idempotency key (as Stripe keeps them), plus
// the PayPal sandbox approvals. In production these live at the provider, not here.
import type { Db, Queryable } from "./db.ts";

export type CardToken = {
  id: string;
  numberHash: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  attachError: string | null;
  chargeError: string | null;
  createdAt: number;
  usedAt: number | null;
};

export type SandboxCharge = {
  idempotencyKey: string;
  id: string;
  customerId: string;
  amount: number;
  currency: string;
  description: string;
  errorCode: string | null;
  createdAt: number;
};

export type PaypalApproval = {
  id: string;
  userId: number;
  productCode: string;
  seats: number;
  addOns: string[];
  coupon: string | null;
  total: number;
  returnUrl: string;
  /** price_changed: the sandbox's stand-in found another price at the approval (nothing paid). */
  state: "created" | "approved" | "cancelled" | "price_changed";
  orderId: string | null;
  createdAt: number;
  /**
   * What PayPal was asked for (PayPal's Subscriptions API, PAYPAL_* set): the PayPal plan, the
   * quantity, and the unit prices of the first payment and of a renewal. Null: the sandbox's
   * stand-in page.
   */
  paypal: { planId: string; quantity: number; firstUnitCents: number; unitCents: number } | null;
  /** PayPal's subscription once one was seen for this approval (its custom_id is our id). */
  subscriptionId: string | null;
};

export const CardTokens = {
  async insert(q: Queryable, t: Omit<CardToken, "usedAt">): Promise<void> {
    await q.run(
      `INSERT INTO card_tokens (id, number_hash, brand, last4, exp_month, exp_year, attach_error, charge_error, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        t.id,
        t.numberHash,
        t.brand,
        t.last4,
        t.expMonth,
        t.expYear,
        t.attachError,
        t.chargeError,
        t.createdAt,
      ],
    );
  },
  async get(q: Queryable, id: string): Promise<CardToken | null> {
    const r = await q.get<Record<string, unknown>>("SELECT * FROM card_tokens WHERE id = ?", [id]);
    if (!r) return null;
    return {
      id: String(r.id),
      numberHash: String(r.number_hash),
      brand: String(r.brand),
      last4: String(r.last4),
      expMonth: Number(r.exp_month),
      expYear: Number(r.exp_year),
      attachError: (r.attach_error as string | null) ?? null,
      chargeError: (r.charge_error as string | null) ?? null,
      createdAt: Number(r.created_at),
      usedAt: r.used_at === null ? null : Number(r.used_at),
    };
  },
  /** Tokens are single use; false when it was used already. */
  async use(q: Queryable, id: string, now: number): Promise<boolean> {
    return (
      (
        await q.run("UPDATE card_tokens SET used_at = ? WHERE id = ? AND used_at IS NULL", [
          now,
          id,
        ])
      ).changes === 1
    );
  },
};

export const SandboxCustomers = {
  async upsert(
    q: Queryable,
    c: { id: string; tokenId: string; email: string; now: number },
  ): Promise<void> {
    await q.run(
      `INSERT INTO sandbox_customers (id, token_id, email, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET token_id = excluded.token_id`,
      [c.id, c.tokenId, c.email, c.now],
    );
  },
  async tokenOf(q: Queryable, customerId: string): Promise<string | null> {
    const r = await q.get<{ token_id: string }>(
      "SELECT token_id FROM sandbox_customers WHERE id = ?",
      [customerId],
    );
    return r?.token_id ?? null;
  },
  /** The customer's saved card forgotten: a charge then finds no card (the provider's detach). */
  async remove(q: Queryable, customerId: string): Promise<void> {
    await q.run("DELETE FROM sandbox_customers WHERE id = ?", [customerId]);
  },
};

// One charge row, written by the single-statement insert and by the plain one.
const INSERT_CHARGE = `INSERT INTO sandbox_charges (idempotency_key, id, customer_id, amount, currency, description, error_code, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
const chargeParams = (c: SandboxCharge) => [
  c.idempotencyKey,
  c.id,
  c.customerId,
  c.amount,
  c.currency,
  c.description,
  c.errorCode,
  c.createdAt,
];

function sandboxChargeOf(r: Record<string, unknown> | undefined | null): SandboxCharge | null {
  if (!r) return null;
  return {
    idempotencyKey: String(r.idempotency_key),
    id: String(r.id),
    customerId: String(r.customer_id),
    amount: Number(r.amount),
    currency: String(r.currency),
    description: String(r.description),
    errorCode: (r.error_code as string | null) ?? null,
    createdAt: Number(r.created_at),
  };
}

/** A sandbox charge waiting for the customer's authentication (its error_code while it waits). */
export const AWAITING_AUTHENTICATION = "requires_action";

/** A sandbox charge cancelled while it waited (Stripe's `canceled` PaymentIntent): never paid. */
export const CANCELLED_CHARGE = "canceled";

/**
 * A card being saved whose bank asks to confirm it (the sandbox's SetupIntent): saved on the
 * customer only once the step succeeded, when the same save is asked again with its key.
 */
export type SandboxSetup = {
  idempotencyKey: string;
  id: string;
  customerId: string;
  tokenId: string;
  state: "requires_action" | "succeeded" | "failed";
  createdAt: number;
};

function sandboxSetupOf(r: Record<string, unknown> | undefined | null): SandboxSetup | null {
  if (!r) return null;
  return {
    idempotencyKey: String(r.idempotency_key),
    id: String(r.id),
    customerId: String(r.customer_id),
    tokenId: String(r.token_id),
    state: String(r.state) as SandboxSetup["state"],
    createdAt: Number(r.created_at),
  };
}

export const SandboxSetups = {
  async byKey(q: Queryable, idempotencyKey: string): Promise<SandboxSetup | null> {
    return sandboxSetupOf(
      await q.get<Record<string, unknown>>(
        "SELECT * FROM sandbox_setups WHERE idempotency_key = ?",
        [idempotencyKey],
      ),
    );
  },
  async byId(q: Queryable, id: string): Promise<SandboxSetup | null> {
    return sandboxSetupOf(
      await q.get<Record<string, unknown>>("SELECT * FROM sandbox_setups WHERE id = ?", [id]),
    );
  },
  async insert(q: Queryable, s: SandboxSetup): Promise<void> {
    await q.run(
      `INSERT INTO sandbox_setups (idempotency_key, id, customer_id, token_id, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
      [s.idempotencyKey, s.id, s.customerId, s.tokenId, s.state, s.createdAt],
    );
  },
  /** Ends the step once: false when it was settled already. */
  async settle(q: Queryable, id: string, state: "succeeded" | "failed"): Promise<boolean> {
    const r = await q.run(
      "UPDATE sandbox_setups SET state = ? WHERE id = ? AND state = 'requires_action'",
      [state, id],
    );
    return r.changes === 1;
  },
};

export const SandboxCharges = {
  /**
   * What a charge asked under `idempotencyKey` for `customerId` starts from, in one statement:
   * the charge recorded under that key already (null: none), and the charge error the
   * customer's saved card answers with (null: none; undefined: no card saved).
   */
  async beforeCharge(
    q: Queryable,
    idempotencyKey: string,
    customerId: string,
  ): Promise<{ previous: SandboxCharge | null; chargeError: string | null | undefined }> {
    const r = await q.get<Record<string, unknown>>(
      `SELECT sandbox_charges.*, card.customer AS card_customer, card.charge_error AS card_error
       FROM (SELECT ? AS idempotency_key, ? AS customer_id) AS asked
       LEFT JOIN sandbox_charges ON sandbox_charges.idempotency_key = asked.idempotency_key
       LEFT JOIN (
         SELECT sandbox_customers.id AS customer, card_tokens.charge_error
         FROM sandbox_customers JOIN card_tokens ON card_tokens.id = sandbox_customers.token_id
       ) AS card ON card.customer = asked.customer_id`,
      [idempotencyKey, customerId],
    );
    return {
      previous: r?.idempotency_key == null ? null : sandboxChargeOf(r),
      chargeError: r?.card_customer == null ? undefined : ((r.card_error as string | null) ?? null),
    };
  },
  async byKey(q: Queryable, idempotencyKey: string): Promise<SandboxCharge | null> {
    return sandboxChargeOf(
      await q.get<Record<string, unknown>>(
        "SELECT * FROM sandbox_charges WHERE idempotency_key = ?",
        [idempotencyKey],
      ),
    );
  },
  async byId(q: Queryable, id: string): Promise<SandboxCharge | null> {
    return sandboxChargeOf(
      await q.get<Record<string, unknown>>("SELECT * FROM sandbox_charges WHERE id = ?", [id]),
    );
  },
  /**
   * Ends a charge's authentication with its outcome (null: paid). Only a charge still waiting
   * changes, so two answers to one step (two tabs, a replayed form) settle it once: false when
   * it was settled already.
   */
  async settleAuthentication(q: Queryable, id: string, errorCode: string | null): Promise<boolean> {
    const r = await q.run(
      "UPDATE sandbox_charges SET error_code = ? WHERE id = ? AND error_code = ?",
      [errorCode, id, AWAITING_AUTHENTICATION],
    );
    return r.changes === 1;
  },
  /**
   * Records a charge unless one with its idempotency key exists, in one statement that commits
   * alone (Db.runAlone); false when the key had a charge already.
   */
  async insertFirst(db: Db, c: SandboxCharge): Promise<boolean> {
    const result = await db.runAlone(
      `${INSERT_CHARGE} ON CONFLICT (idempotency_key) DO NOTHING`,
      chargeParams(c),
    );
    return result.changes === 1;
  },
  async insert(q: Queryable, c: SandboxCharge): Promise<void> {
    await q.run(INSERT_CHARGE, chargeParams(c));
  },
  async count(q: Queryable): Promise<number> {
    const r = await q.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM sandbox_charges WHERE error_code IS NULL",
    );
    return r?.n ?? 0;
  },
};

export const PaypalApprovals = {
  async insert(q: Queryable, a: PaypalApproval): Promise<void> {
    await q.run(
      `INSERT INTO paypal_approvals (id, user_id, product_code, seats, add_ons, coupon, total, return_url, state, order_id, created_at, plan_id, quantity, first_unit, unit_cents, subscription_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        a.id,
        a.userId,
        a.productCode,
        a.seats,
        JSON.stringify(a.addOns),
        a.coupon,
        a.total,
        a.returnUrl,
        a.state,
        a.orderId,
        a.createdAt,
        a.paypal?.planId ?? null,
        a.paypal?.quantity ?? null,
        a.paypal?.firstUnitCents ?? null,
        a.paypal?.unitCents ?? null,
        a.subscriptionId,
      ],
    );
  },
  async get(q: Queryable, id: string): Promise<PaypalApproval | null> {
    const r = await q.get<Record<string, unknown>>("SELECT * FROM paypal_approvals WHERE id = ?", [
      id,
    ]);
    return r ? approvalOf(r) : null;
  },
  async bySubscription(q: Queryable, subscriptionId: string): Promise<PaypalApproval | null> {
    const r = await q.get<Record<string, unknown>>(
      "SELECT * FROM paypal_approvals WHERE subscription_id = ?",
      [subscriptionId],
    );
    return r ? approvalOf(r) : null;
  },
  /**
   * PayPal approvals still waiting for their confirm call, created before `before`: the orphan
   * sweep asks PayPal about each (services/paypal-orphans.ts).
   */
  async waiting(
    q: Queryable,
    input: { createdBefore: number; createdAfter: number; limit: number },
  ): Promise<PaypalApproval[]> {
    const rows = await q.all<Record<string, unknown>>(
      `SELECT * FROM paypal_approvals
        WHERE state = 'created' AND plan_id IS NOT NULL AND created_at < ? AND created_at >= ?
        ORDER BY created_at LIMIT ?`,
      [input.createdBefore, input.createdAfter, input.limit],
    );
    return rows.map(approvalOf);
  },
  /** Records PayPal's subscription for an approval (once; a second id for it is refused). */
  async linkSubscription(q: Queryable, id: string, subscriptionId: string): Promise<boolean> {
    const result = await q.run(
      "UPDATE paypal_approvals SET subscription_id = ? WHERE id = ? AND (subscription_id IS NULL OR subscription_id = ?)",
      [subscriptionId, id, subscriptionId],
    );
    return result.changes === 1;
  },
  /** Moves a created approval to approved or cancelled; false when it was settled already. */
  async settle(
    q: Queryable,
    id: string,
    state: "approved" | "cancelled" | "price_changed",
    orderId: string | null,
  ): Promise<boolean> {
    const result = await q.run(
      "UPDATE paypal_approvals SET state = ?, order_id = ? WHERE id = ? AND state = 'created'",
      [state, orderId, id],
    );
    return result.changes === 1;
  },
};

function approvalOf(r: Record<string, unknown>): PaypalApproval {
  return {
    id: String(r.id),
    userId: Number(r.user_id),
    productCode: String(r.product_code),
    seats: Number(r.seats),
    addOns: JSON.parse(String(r.add_ons)) as string[],
    coupon: (r.coupon as string | null) ?? null,
    total: Number(r.total),
    returnUrl: String(r.return_url),
    state: r.state as PaypalApproval["state"],
    orderId: (r.order_id as string | null) ?? null,
    createdAt: Number(r.created_at),
    paypal:
      r.plan_id === null || r.plan_id === undefined
        ? null
        : {
            planId: String(r.plan_id),
            quantity: Number(r.quantity),
            firstUnitCents: Number(r.first_unit),
            unitCents: Number(r.unit_cents),
          },
    subscriptionId: (r.subscription_id as string | null) ?? null,
  };
}
