// The PayPal plan made for each product, term and renewal price (domain/paypal/terms.ts's plan
// key). A plan is never changed or removed here: subscribers keep the plan they bought, and a
// catalogue release that changes a price makes a new key, hence a new plan.
import type { Queryable } from "./db.ts";

export type PaypalPlanRow = {
  planKey: string;
  paypalPlanId: string;
  productCode: string;
  termMonths: number;
  unitCents: number;
  createdAt: number;
};

function rowOf(r: Record<string, unknown>): PaypalPlanRow {
  return {
    planKey: String(r.plan_key),
    paypalPlanId: String(r.paypal_plan_id),
    productCode: String(r.product_code),
    termMonths: Number(r.term_months),
    unitCents: Number(r.unit_cents),
    createdAt: Number(r.created_at),
  };
}

export const PaypalPlans = {
  async get(q: Queryable, planKey: string): Promise<PaypalPlanRow | null> {
    const r = await q.get<Record<string, unknown>>(
      "SELECT * FROM paypal_plans WHERE plan_key = ?",
      [planKey],
    );
    return r ? rowOf(r) : null;
  },
  /** Every plan recorded, by product and key. */
  async all(q: Queryable): Promise<PaypalPlanRow[]> {
    const rows = await q.all<Record<string, unknown>>(
      "SELECT * FROM paypal_plans ORDER BY product_code, plan_key",
    );
    return rows.map(rowOf);
  },
  /** Records a plan; a key recorded already (another server made it first) keeps its plan. */
  async record(q: Queryable, row: PaypalPlanRow): Promise<void> {
    await q.run(
      `INSERT INTO paypal_plans (plan_key, paypal_plan_id, product_code, term_months, unit_cents, created_at)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (plan_key) DO NOTHING`,
      [
        row.planKey,
        row.paypalPlanId,
        row.productCode,
        row.termMonths,
        row.unitCents,
        row.createdAt,
      ],
    );
  },
};
