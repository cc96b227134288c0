// PayPal's catalogue products and plans for our prices (issue 21, item 1; decisions 0041, 0053).
// A plan is found or made by its key (product, term, renewal price of one unit: domain/paypal/
// terms.ts), in this order: the one recorded here (paypal_plans); else one PayPal already has for
// this key (its description is the key: a server that made it and stopped before recording it,
// or another database on the same PayPal account); else made now, with PayPal-Request-Id = the
// key, so servers making it at once get one plan. A plan is never changed or deactivated here:
// subscribers keep the plan they bought, and a catalogue release that changes a price makes a
// new key, hence a new plan, beside the old one.
//
// syncPaypalPlans makes every catalogue price's plan (domain/paypal/catalog-plans.ts) ahead of
// the first purchase: at server start when PAYPAL_* are set, and by `npm run paypal-plans`.
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { catalogPaypalTerms } from "../../domain/paypal/catalog-plans.ts";
import { type PaypalTerms, paypalValue } from "../../domain/paypal/terms.ts";
import type { AppDeps } from "../context.ts";
import { type PaypalPlanRow, PaypalPlans } from "../db/paypal-plans.ts";
import { PaypalApiError, type PaypalClient, type PaypalPlan } from "../payments/paypal-client.ts";

export type PlanDeps = Pick<AppDeps, "db" | "clock" | "log"> & {
  catalog: Pick<Catalog, "plans">;
  paypal: PaypalClient;
};

/** The PayPal catalogue product of a plan: one per catalogue product code. */
function paypalProductId(productCode: string): string {
  // PayPal's product ids are 6 to 50 characters.
  return `VE-${productCode}`
    .replace(/[^A-Za-z0-9_-]/g, "-")
    .slice(0, 50)
    .padEnd(6, "-");
}

/** How a plan was had: recorded here already, found at PayPal by its key, or made now. */
export type PlanOutcome = "recorded" | "found" | "created";

/**
 * What one sync (or one purchase) learnt of PayPal, shared between its plans so that each
 * product is asked for, and its plans listed, once.
 */
export type PlanLookups = {
  products: Map<string, Promise<void>>;
  plans: Map<string, Promise<PaypalPlan[]>>;
};

function newLookups(): PlanLookups {
  return { products: new Map(), plans: new Map() };
}

/** Every plan PayPal has for a product (all pages). */
async function plansOf(paypal: PaypalClient, productId: string): Promise<PaypalPlan[]> {
  const plans: PaypalPlan[] = [];
  for (let page = 1; page <= 100; page++) {
    const answer = await paypal.listPlans(productId, page);
    plans.push(...(answer?.plans ?? []));
    if (page >= (answer?.total_pages ?? 1) || (answer?.plans ?? []).length === 0) break;
  }
  return plans;
}

/** The product at PayPal: found by its id, else created (a twin creation finds it after all). */
async function ensureProduct(paypal: PaypalClient, productId: string, name: string) {
  if (await paypal.getProduct(productId)) return;
  try {
    await paypal.createProduct({ id: productId, name: name.slice(0, 127) });
  } catch (error) {
    // Another server created it between the two calls: PayPal refuses a second one by that id.
    const clash = error instanceof PaypalApiError && (error.status === 409 || error.status === 422);
    if (!clash || !(await paypal.getProduct(productId))) throw error;
  }
}

function cached<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let found = map.get(key);
  if (!found) {
    found = make();
    // A failure is not remembered: the next plan asks again.
    found.catch(() => map.delete(key));
    map.set(key, found);
  }
  return found;
}

/** The PayPal plan of these terms, recorded here; found or made at PayPal when it is not. */
export async function ensurePaypalPlan(
  deps: PlanDeps,
  terms: Pick<PaypalTerms, "planKey" | "productCode" | "termMonths" | "unitCents">,
  lookups: PlanLookups = newLookups(),
): Promise<{ row: PaypalPlanRow; outcome: PlanOutcome }> {
  const known = await PaypalPlans.get(deps.db, terms.planKey);
  if (known) return { row: known, outcome: "recorded" };
  const { paypal, catalog } = deps;
  const name = catalog.plans.find((p) => p.code === terms.productCode)?.name ?? terms.productCode;
  const productId = paypalProductId(terms.productCode);
  await cached(lookups.products, productId, () => ensureProduct(paypal, productId, name));
  const atPaypal = (await cached(lookups.plans, productId, () => plansOf(paypal, productId))).find(
    (p) => p.description === terms.planKey && p.status === "ACTIVE",
  );
  const plan =
    atPaypal ??
    (await paypal.createPlan(planRequest(productId, name, terms), `plan-${terms.planKey}`));
  await deps.db.transaction((tx) =>
    PaypalPlans.record(tx, {
      planKey: terms.planKey,
      paypalPlanId: plan.id,
      productCode: terms.productCode,
      termMonths: terms.termMonths,
      unitCents: terms.unitCents,
      createdAt: deps.clock.now(),
    }),
  );
  // Another server may have recorded the key first: its plan is the one.
  const row = await PaypalPlans.get(deps.db, terms.planKey);
  if (!row) throw new Error(`PayPal plan ${terms.planKey} was not recorded`);
  return { row, outcome: atPaypal || row.paypalPlanId !== plan.id ? "found" : "created" };
}

function planRequest(
  productId: string,
  name: string,
  terms: Pick<PaypalTerms, "planKey" | "termMonths" | "unitCents">,
) {
  const price = { fixed_price: { currency_code: "USD", value: paypalValue(terms.unitCents) } };
  // PayPal counts at most 12 months: whole years are years.
  const frequency =
    terms.termMonths % 12 === 0
      ? { interval_unit: "YEAR" as const, interval_count: terms.termMonths / 12 }
      : { interval_unit: "MONTH" as const, interval_count: terms.termMonths };
  return {
    product_id: productId,
    name: `${name} (${terms.termMonths} months at ${paypalValue(terms.unitCents)} USD)`.slice(
      0,
      127,
    ),
    // Our own reference: how a plan made before it was recorded is found again.
    description: terms.planKey,
    status: "ACTIVE" as const,
    // The first cycle is the first payment (its price overridden per subscription when a
    // first-term discount or a pro-rata credit makes it differ); the second renews for ever.
    billing_cycles: [
      {
        frequency,
        tenure_type: "TRIAL" as const,
        sequence: 1,
        total_cycles: 1,
        pricing_scheme: price,
      },
      {
        frequency,
        tenure_type: "REGULAR" as const,
        sequence: 2,
        total_cycles: 0,
        pricing_scheme: price,
      },
    ],
    payment_preferences: {
      auto_bill_outstanding: true,
      payment_failure_threshold: 3,
      setup_fee_failure_action: "CANCEL" as const,
    },
    quantity_supported: true,
  };
}

export type PlanSyncLine = {
  planKey: string;
  paypalPlanId: string;
  productCode: string;
  termMonths: number;
  unitCents: number;
};

export type PlanSyncReport = {
  /**
   * Asked of PayPal by a create call of this sync (two servers at once may both report a plan:
   * PayPal answers the twin call, same PayPal-Request-Id, with the one plan it made).
   */
  created: PlanSyncLine[];
  /** Recorded here already, or found at PayPal by their key. */
  found: PlanSyncLine[];
  /** Recorded plans no catalogue price needs now: kept for the subscribers who bought them. */
  left: PlanSyncLine[];
};

const lineOf = (row: PaypalPlanRow): PlanSyncLine => ({
  planKey: row.planKey,
  paypalPlanId: row.paypalPlanId,
  productCode: row.productCode,
  termMonths: row.termMonths,
  unitCents: row.unitCents,
});

/**
 * Finds or makes the PayPal plan of every catalogue price, one after another (PayPal's rate
 * limits), and says what it created, found and left. Safe to run on several servers at once.
 */
export async function syncPaypalPlans(
  deps: PlanDeps & { catalog: Catalog },
): Promise<PlanSyncReport> {
  const report: PlanSyncReport = { created: [], found: [], left: [] };
  const lookups = newLookups();
  const wanted = catalogPaypalTerms(deps.catalog, deps.clock.now());
  for (const terms of wanted) {
    const { row, outcome } = await ensurePaypalPlan(deps, terms, lookups);
    (outcome === "created" ? report.created : report.found).push(lineOf(row));
  }
  const keys = new Set(wanted.map((t) => t.planKey));
  report.left = (await PaypalPlans.all(deps.db)).filter((r) => !keys.has(r.planKey)).map(lineOf);
  return report;
}

/** The report as lines for a log or a terminal (the plans found too when `all`). */
export function describePlanSync(report: PlanSyncReport, all = true): string[] {
  const usd = (cents: number) => paypalValue(cents);
  const line = (what: string, l: PlanSyncLine) =>
    `  ${what.padEnd(8)} ${l.planKey.padEnd(32)} ${l.paypalPlanId} (${l.termMonths} months at ${usd(l.unitCents)} USD)`;
  return [
    `paypal plans: ${report.created.length} created, ${report.found.length} found, ${report.left.length} left for their subscribers`,
    ...report.created.map((l) => line("created", l)),
    ...(all ? report.found.map((l) => line("found", l)) : []),
    ...report.left.map((l) => line("left", l)),
  ];
}
