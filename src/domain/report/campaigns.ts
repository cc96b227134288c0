// What each campaign did (decision 0091): the purchases it priced in the window (its
// redemptions), their net revenue after refunds, the discount given (the list price of the one
// pricing module less the price paid before any upgrade credit), and what those customers did at
// their first full-price renewal: renewed, cancelled, lapsed, or not yet (still in the first
// term; always so for a recurring campaign, whose renewals keep the discount).
import type { Catalog } from "../catalog/catalog-schema.ts";
import { pricePlan } from "../pricing/plan-pricing.ts";
import type { Ledger } from "./ledger.ts";
import { PLAN_CANCELLATIONS, RETRY_MS } from "./movements.ts";
import type { CancellationRow, OrderRow } from "./rows.ts";
import type { Window } from "./window.ts";

export type Outcomes = { renewed: number; cancelled: number; lapsed: number; notYet: number };

export type CampaignResult = {
  id: string;
  name: string;
  coupon: string;
  recurring: boolean;
  redemptions: number;
  netCents: number;
  listCents: number;
  discountCents: number;
  outcomes: Outcomes;
};

type PricingCatalog = Pick<Catalog, "plans" | "seatStructures" | "campaigns">;

/** The campaign that priced a purchase and the discount it gave, or null. */
function campaignOfOrder(
  catalog: PricingCatalog,
  order: OrderRow,
): { campaignId: string; listCents: number; discountCents: number } | null {
  if (order.kind !== "plan" || order.renewal) return null;
  const plan = catalog.plans.find((p) => p.code === order.productCode);
  if (!plan) return null;
  const priceSetId =
    order.priceSet === null || order.priceSet === "default" ? null : order.priceSet;
  const priced = pricePlan(catalog, plan, {
    atMs: order.createdAt,
    seats: order.seats,
    coupon: order.coupon,
    priceSetId,
  });
  if (!priced.ok || priced.value.campaign === null) return null;
  const listCents = priced.value.basePrice + priced.value.extraSeatsAmount;
  // The price paid before credit holds add-ons the list price does not: then the pricing
  // module's own campaign discount is the discount given.
  const discountCents =
    order.addOns.length === 0 ? listCents - order.listPrice : priced.value.campaign.discount;
  if (discountCents <= 0) return null;
  return { campaignId: priced.value.campaign.applied.id, listCents, discountCents };
}

function outcomeOf(
  ledger: Ledger,
  cancellations: readonly CancellationRow[],
  order: OrderRow,
  recurring: boolean,
  w: Window,
): keyof Outcomes {
  if (recurring) return "notYet";
  const renewed = (ledger.paidByUser.get(order.userId) ?? []).some(
    (o) => o.renewal && o.createdAt > order.createdAt && o.createdAt < w.to,
  );
  if (renewed) return "renewed";
  const cancelled = cancellations.some(
    (c) =>
      c.userId === order.userId &&
      PLAN_CANCELLATIONS.has(c.name) &&
      c.at >= order.createdAt &&
      c.at < w.to,
  );
  if (cancelled) return "cancelled";
  const refunded = (ledger.refunds.get(order.id) ?? []).some((r) => r.createdAt < w.to);
  if (refunded) return "lapsed";
  const end = order.periodEnd;
  if (end !== null && end + RETRY_MS <= w.to) return "lapsed";
  return "notYet";
}

export function campaignsOf(
  ledger: Ledger,
  catalog: PricingCatalog,
  cancellations: readonly CancellationRow[],
  w: Window,
): CampaignResult[] {
  const results = new Map<string, CampaignResult>();
  for (const order of ledger.orders.values()) {
    if (order.createdAt < w.from || order.createdAt >= w.to) continue;
    const found = campaignOfOrder(catalog, order);
    if (found === null) continue;
    const campaign = catalog.campaigns.find((c) => c.id === found.campaignId);
    const row = results.get(found.campaignId) ?? {
      id: found.campaignId,
      name: campaign?.name ?? found.campaignId,
      coupon: campaign?.coupon ?? "",
      recurring: campaign?.recurring ?? false,
      redemptions: 0,
      netCents: 0,
      listCents: 0,
      discountCents: 0,
      outcomes: { renewed: 0, cancelled: 0, lapsed: 0, notYet: 0 },
    };
    let refundedNet = 0;
    for (const r of ledger.refunds.get(order.id) ?? [])
      if (r.createdAt < w.to) refundedNet += r.credited - r.creditedTax;
    row.redemptions += 1;
    row.netCents += order.subTotal - refundedNet;
    row.listCents += found.listCents;
    row.discountCents += found.discountCents;
    row.outcomes[outcomeOf(ledger, cancellations, order, row.recurring, w)] += 1;
    results.set(found.campaignId, row);
  }
  return [...results.values()].sort((a, b) => a.id.localeCompare(b.id));
}
