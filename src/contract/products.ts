// Products, plan options and the order summary (spec sections 3.3, 3.4, 3.5 and 7).
import { z } from "zod";
import { PREMIUM_TEMPLATE_LINES, RESOLUTIONS } from "../domain/catalog/source-schema.ts";
import { Cents, ProductCode, QueryFlag, Timestamp } from "./common.ts";

const EssentialsInfo = z.object({
  hasEssentials: z.boolean(),
  /** The same plan with essentials, or null. */
  upgradePlan: z.string().nullable(),
  essentialsPrice: Cents,
  newTotalPrice: Cents,
  /** Essentials was cancelled: it stays until this day (the period paid for), then renews not. */
  endsAt: Timestamp.nullable(),
});

/** A next renewal: when, what it charges (tax included), the tax inside it, the term it pays for. */
const NextRenewalView = z.object({
  at: Timestamp,
  amount: Cents,
  tax: Cents,
  termMonths: z.number().int(),
});

/** GET /api/2/wevideouser/products (spec 3.3; the spec's key names, spaces included). */
export const ProductsResponse = z.object({
  productCode: z.string(),
  orderState: z.string(),
  prevOrderState: z.string().nullable(),
  orderEndDate: Timestamp.nullable(),
  orderId: z.string().nullable(),
  orderDuration: z.number().int().nullable(),
  TrialProduct: z.string().nullable(),
  "Trial Duration": z.number().int(),
  FreeProduct: z.string(),
  TermDurationMonths: z.number().int().nullable(),
  "Purchasable Products": z.array(z.string()),
  "Purchasable Products Trial": z.array(z.string()),
  "Seat Price": Cents,
  Seats: z.number().int(),
  sku_term: z.string(),
  essentialsInfo: EssentialsInfo,
  accountType: z.string(),
  covidPromotionOrder: z.boolean(),
  previousTrialOwner: z.boolean(),
  previousTrialProduct: z.string().nullable(),
  expiredAccount: z.boolean(),
  licensePricingStructure: z.string().nullable(),
  hasLicense: z.boolean(),
  subscriptionName: z.string(),
  baseProductPrice: Cents,
  /** Space-separated feature list. */
  Features: z.string(),
  "4KExportPrice": Cents,
  ExportPrice: Cents,
  "GB Price": Cents,
  /** hours:price pairs in cents, comma-separated: "0.5:600,1:1000,2:1800". */
  "Export Upgrades": z.string(),
  maxExportResolution: z.string(),
  maxExportMins: z.number(),
  ExportQuotaMonths: z.number().int(),
  Vertical: z.string(),
  PriorityProcessingLevel: z.number().int(),
  excludedFeatures: z.string(),
  FontPackages: z.string(),
  defaultCapacity: z.string(),
  maxInvitations: z.number().int(),
  exportTimeLeft: z.number(),
  subscriptionExportTimeMax: z.number(),
  timeUsed: z.number(),
  exportTimeMax: z.number(),
  flexExportTimeMax: z.number(),
  nextBillingDate: Timestamp.nullable(),
  /** What the renewal on nextBillingDate charges, tax included (cents); null when none is due. */
  nextBillingAmount: Cents.nullable(),
  /**
   * The next renewal as one number (domain/renewals/next-renewal.ts): when, what it charges with
   * its tax (the same as nextBillingAmount), the tax inside it and the term it pays for; null when
   * nothing renews. Screens say it with renewalWords.
   */
  nextRenewal: NextRenewalView.nullable(),
  /** A one-time product (Flex): the day it runs out (nothing renews); null otherwise. */
  validUntil: Timestamp.nullable(),
  upcomingPurchaseOrder: z.boolean(),
  exportCredits: z.number().int(),
  googleWalletSubscription: z.boolean(),
  itunesSubscription: z.boolean(),
  androidSubscription: z.boolean(),
  disableAccountUpgrades: z.boolean(),
});
export type ProductsPayload = z.output<typeof ProductsResponse>;

export const OptionsQuery = z.object({
  tier: z.string().max(32).optional(),
  new: QueryFlag,
  promoId: z.string().max(64).optional(),
  trial: QueryFlag,
  newCart: QueryFlag,
  _: z.string().optional(),
});

const DescriptionItem = z.object({
  text: z.string(),
  icon: z.string(),
  tooltip: z
    .object({ text: z.string(), dataFor: z.string().optional(), newTooltip: z.boolean() })
    .optional(),
});

/** A plan as the plans page and checkout show it (spec 3.4); prices in cents. */
export const PlanOption = z.object({
  code: z.string(),
  productId: z.string(),
  name: z.string(),
  subTitle: z.string(),
  tier: z.string(),
  category: z.string(),
  description: z.array(DescriptionItem),
  /** The campaign price when a non-recurring campaign applies, else the plan price. */
  price: Cents,
  listPrice: Cents,
  capacity: z.string(),
  multiUser: z.boolean(),
  termDuration: z.number().int(),
  recurring: z.boolean(),
  showYearly: z.boolean(),
  monthlyPrice: Cents,
  monthlyDuration: z.number().int(),
  monthlyVersionPrice: Cents.nullable(),
  campaignDiscountPercent: z.number().nullable(),
  campaignDiscountPercentFound: z.boolean(),
  hasRecurringCampaign: z.boolean(),
  hasAnnualCampaignPrice: z.boolean(),
  campaign: z
    .object({ id: z.string(), name: z.string(), coupon: z.string(), price: Cents, discount: Cents })
    .nullable(),
  essentials: z.boolean(),
  essentialsPrice: Cents,
  essentialsDowngrade: z.object({ code: z.string(), essentialsPrice: Cents }).nullable(),
  essentialsUpgrade: z
    .object({ code: z.string(), price: Cents, essentialsPrice: Cents })
    .nullable(),
  currentPlan: z.boolean(),
  seatPrice: z.number().int(),
  includedSeats: z.number().int(),
  savingsValue: z.number().int().nullable(),
  gbPerSeat: z.number().nullable(),
  hoursPerSeat: z.number().nullable(),
  includedGb: z.number().nullable(),
  includedHrs: z.number().nullable(),
  includedContentTier: z.string(),
  maxPublishResolution: z.enum(RESOLUTIONS),
  premiumMusic: z.boolean(),
  /** Which premium-templates line the plan card shows (pricing/premium-templates.ts). */
  premiumTemplates: z.enum(PREMIUM_TEMPLATE_LINES),
  vertical: z.string(),
  screenCapture: z.boolean(),
  dualCapture: z.boolean(),
  trialDuration: z.number().int(),
  isTrial: z.boolean(),
});
export type PlanOption = z.output<typeof PlanOption>;

const EssentialsPlan = z.object({
  code: z.string(),
  name: z.string(),
  subTitle: z.string(),
  productId: z.string(),
  description: z.array(DescriptionItem),
  price: Cents,
  termDuration: z.number().int(),
  recurring: z.literal(true),
  essentials: z.literal(true),
  essentialsPrice: Cents,
});

export const OptionsResponse = z.object({
  products: z.array(PlanOption),
  essentialsPlan: z.array(EssentialsPlan),
  trialProduct: PlanOption.nullable(),
  priceTestingGroupValue: z.string().nullable(),
});

export const OrderSummaryRequest = z.object({
  /** A product code; an object with a code (a plan entry) is accepted too. */
  targetProduct: z.union([ProductCode, z.looseObject({ code: ProductCode })]),
  seats: z.number().int().min(1).max(1_000_000).optional(),
  addOns: z.array(ProductCode).max(20).optional(),
  coupon: z.string().trim().max(64).optional(),
});

const PriceLine = z.object({ kind: z.string(), label: z.string(), amount: Cents });

/** POST /api/4/payment/summary (spec 3.5), all cents. */
export const OrderSummaryResponse = z.object({
  total: Cents,
  subTotal: Cents,
  newSubscription: z.object({
    firstTermDiscount: Cents,
    firstTermBasePrice: Cents,
    prorateDiscount: Cents,
    recurringBasePrice: Cents,
    firstTermExtraSeatsPrice: Cents,
    extraSeatsRecurringPrice: Cents,
    nonRecurringAddOnsPrice: Cents,
  }),
  proration: z.object({
    prorateAmount: Cents,
    currentExtraSeatsPrice: Cents,
    prorateRatio: z.number().min(0).max(1),
  }),
  taxRates: z.array(
    z.object({ type: z.literal("COMBINED"), taxAmount: Cents, ratePercent: z.number() }),
  ),
  salesTax: Cents,
  /** What the tax line is called where the buyer is billed: "Sales tax", "VAT", "GST" (item 6). */
  taxLabel: z.string(),
  lines: z.array(PriceLine),
  productCode: z.string(),
  seats: z.number().int(),
  currency: z.literal("USD"),
  /**
   * What buying it does to a running subscription: new, upgrade (now, with credit), downgrade
   * (at the end of the paid period, nothing charged now; domain/account/plan-change.ts) or
   * addition (seats or essentials for the rest of the running period).
   */
  change: z.enum(["new", "upgrade", "downgrade", "addition"]),
  /**
   * An addition (issue 18, item 9): seats or essentials added to the running period, charged pro
   * rata until `periodEnd`, when the subscription renews as before; null otherwise.
   */
  addition: z
    .object({ periodEnd: Timestamp, ratio: z.number().min(0).max(1), termValueAdded: Cents })
    .nullable(),
  /**
   * The coupon priced with (typed, or applied to the account), whether it was applied, and if not
   * why: it is for other products, or its first-term discount was used (issue 18, items 5, 10).
   */
  coupon: z
    .object({ code: z.string(), applied: z.boolean(), note: z.string().nullable() })
    .nullable(),
  /** When `total` is charged: null for now, else the end of the paid period (a downgrade). */
  startsAt: Timestamp.nullable(),
  /**
   * The next renewal once this is bought (domain/renewals/next-renewal.ts): the amount the
   * account page and the renewal charge name, tax included; null for what does not renew.
   */
  renewal: NextRenewalView.nullable(),
});
export type OrderSummaryAnswer = z.output<typeof OrderSummaryResponse>;

/**
 * GET /api/5/catalog/version (not in spec section 7; decision 0018): the version of the catalogue
 * this server prices with, the content hash the static pages carry in
 * `<meta name="catalog-version">`. When they differ, the server's quote is the truth.
 */
export const CatalogVersionResponse = z.object({
  /** The first 12 hex digits of the SHA-256 of the catalogue (src/domain/catalog/version.ts). */
  version: z.string().regex(/^[0-9a-f]{12}$/),
  /**
   * The last release `catalog publish` recorded (catalog/releases.json), or null before the first.
   * When its version is not `version`, this server prices with an unpublished catalogue.
   */
  release: z.object({ version: z.string(), publishedAt: z.string() }).nullable(),
});
