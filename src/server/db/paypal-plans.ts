// The PayPal plan made for each product, term and renewal price (domain/paypal/terms.ts's plan
// key). A plan is never changed or removed here: subscribers keep the plan they bought, and a
// catalogue release that changes a price makes a new key, hence a new plan. Kysely's typed
// builder (decision 0082).
import type { Selectable } from "kysely";
import type { Queryable } from "./db.ts";
import type { PaypalPlansTable } from "./schema-payments.ts";

export type PaypalPlanRow = {
  planKey: string;
  paypalPlanId: string;
  productCode: string;
  termMonths: number;
  unitCents: number;
  createdAt: number;
};

function rowOf(r: Selectable<PaypalPlansTable>): PaypalPlanRow {
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
    const r = await q.kysely
      .selectFrom("paypal_plans")
      .selectAll()
      .where("plan_key", "=", planKey)
      .executeTakeFirst();
    return r ? rowOf(r) : null;
  },
  /** Every plan recorded, by product and key. */
  async all(q: Queryable): Promise<PaypalPlanRow[]> {
    const rows = await q.kysely
      .selectFrom("paypal_plans")
      .selectAll()
      .orderBy("product_code")
      .orderBy("plan_key")
      .execute();
    return rows.map(rowOf);
  },
  /** Records a plan; a key recorded already (another server made it first) keeps its plan. */
  async record(q: Queryable, row: PaypalPlanRow): Promise<void> {
    await q.kysely
      .insertInto("paypal_plans")
      .values({
        plan_key: row.planKey,
        paypal_plan_id: row.paypalPlanId,
        product_code: row.productCode,
        term_months: row.termMonths,
        unit_cents: row.unitCents,
        created_at: row.createdAt,
      })
      .onConflict((c) => c.column("plan_key").doNothing())
      .execute();
  },
};
