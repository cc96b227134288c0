// A purchase's eligibility and price: who may buy on the web at all (spec sections 2.5 and 6), what
// can be bought, and the account's pricing of it (account-pricing.ts), checked against the total
// the customer saw. One place for the card upgrade, the PayPal subscription and the trial: each
// handler answers a refusal as it is (`fail`), never throws it.
import type { Purchase } from "../../contract/payment.ts";
import { isBlockedEmail } from "../../domain/account/email-rules.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { type ApiError, apiError } from "../../domain/errors/api-errors.ts";
import { type Account, educationEligibleFor } from "./account.ts";
import { type AccountPricing, priceForAccount } from "./account-pricing.ts";

/** What the purchase endpoints read of a purchase body (the PayPal one extends it). */
export type PurchaseTerms = Pick<
  Purchase,
  "product" | "seats" | "addOns" | "coupon" | "expectedTotal"
>;

export type PricedPurchase = { ok: true; code: string; pricing: AccountPricing };
export type PurchaseRefusal = { ok: false; error: ApiError };

/** Why the account may not buy on the web at all, or null when it may. */
export function purchaseRefusal(
  account: Account,
  catalog: Pick<Catalog, "blockedEmailDomains">,
): ApiError | null {
  if (
    account.user.domainStatus === "blocked" ||
    isBlockedEmail(account.user.email, catalog.blockedEmailDomains)
  ) {
    return apiError("blocked_domain");
  }
  if (account.upgradesDisabled) return apiError("upgrades_disabled");
  if (account.managed) return apiError("managed_account");
  return null;
}

/** Prices a purchase for the account, or the refusal of what cannot be bought. */
export function pricePurchase(
  catalog: Catalog,
  account: Account,
  body: PurchaseTerms,
  sellerCountry: string,
): PricedPurchase | PurchaseRefusal {
  // Spec 5: 'Upgrade call without any product'.
  const code = body.product?.code?.trim();
  if (!code) return { ok: false, error: apiError("upgrade_without_product") };
  const refusal = purchaseRefusal(account, catalog);
  if (refusal) return { ok: false, error: refusal };
  const plan = catalog.plans.find((p) => p.code === code);
  if (plan && (plan.isTrial || plan.price === 0 || plan.legacy)) {
    return { ok: false, error: apiError("product_not_purchasable", code) };
  }
  // Education plans (teacher, schools, spec 6) are for a verified education address; the app
  // sends anyone else to the invalid-email page first, so this refuses a crafted call.
  if (!educationEligibleFor(catalog, account, code)) {
    return { ok: false, error: apiError("education_email_required") };
  }
  const priced = priceForAccount(catalog, account, {
    targetProduct: code,
    seats: body.seats,
    addOns: body.addOns,
    coupon: body.coupon,
    sellerCountry,
  });
  if (!priced.ok) return priced;
  if (body.expectedTotal !== undefined && body.expectedTotal !== priced.pricing.summary.total) {
    return { ok: false, error: apiError("price_changed") };
  }
  return { ok: true, code, pricing: priced.pricing };
}
