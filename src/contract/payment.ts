// Payments: card token, upgrade, PayPal, trials, invoices, address, cancellations (spec 3.6-3.8, 7).
import { z } from "zod";
import { Cents, ProductCode, Timestamp, typedText } from "./common.ts";

/** POST /api/3/payment/sandbox/tokens: the sandbox card form (Stripe's test card numbers). */
export const SandboxTokenRequest = z.object({
  number: z
    .string()
    .transform((s) => s.replace(/[\s-]/g, ""))
    .pipe(z.string().regex(/^\d{12,19}$/, { message: "must be 12 to 19 digits" })),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, { message: "must be 3 or 4 digits" }),
  postalCode: z.string().trim().min(1).max(12),
});
/** A test card as the sandbox's card form sends it (the card-token store). */
export type SandboxCard = z.input<typeof SandboxTokenRequest>;
const CardSummary = z.object({
  brand: z.string(),
  last4: z.string().length(4),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export const SandboxTokenResponse = z.object({
  id: z.string().startsWith("tok_sandbox_"),
  card: CardSummary,
});

/**
 * GET /api/5/payment/providers (spec 3.10's publishable keys): who takes the payment in the
 * browser. Public values only: the publishable key's pattern refuses a secret key, so a server
 * that put one here would fail its own response check.
 */
export const PaymentProvidersResponse = z.object({
  /** The card fields: the sandbox's own form, or Stripe Elements with this publishable key. */
  card: z.discriminatedUnion("provider", [
    z.object({ provider: z.literal("sandbox") }),
    z.object({
      provider: z.literal("stripe"),
      publishableKey: z.string().regex(/^pk_(test|live)_[A-Za-z0-9]+$/),
    }),
  ]),
  /**
   * PayPal: the local approval page (sandbox), PayPal's JS SDK buttons with this client id (whose
   * orders the server's PayPal calls create and settle), or not offered at all.
   */
  paypal: z.discriminatedUnion("provider", [
    z.object({ provider: z.literal("sandbox") }),
    z.object({ provider: z.literal("paypal"), clientId: z.string().min(1).max(200) }),
    z.object({ provider: z.literal("none") }),
  ]),
});
export type PaymentProviders = z.output<typeof PaymentProvidersResponse>;

/**
 * GET /api/5/payment/method (issue 34): how the account's renewals are paid, as its invoices name
 * it ("Visa ending 4242", "PayPal"); kind "none" when nothing is saved.
 */
export const PaymentMethodResponse = z.object({
  kind: z.enum(["card", "paypal", "none"]),
  label: z.string().nullable(),
});
export type PaymentMethod = z.output<typeof PaymentMethodResponse>;

export const TokenRequest = z.object({ token: z.string().min(1).max(255) });
export const TokenResponse = z.object({
  success: z.literal(true),
  paymentMethod: z.object({ processor: z.literal("cc"), brand: z.string(), last4: z.string() }),
});

/** The product of an upgrade call: only `code` is read; the rest of a plan entry may come along. */
const UpgradeProduct = z.looseObject({ code: z.string().optional() });

export const UpgradeRequest = z.object({
  product: UpgradeProduct.nullable().optional(),
  newCart: z.boolean().optional(),
  seats: z.number().int().min(1).max(1_000_000).optional(),
  addOns: z.array(ProductCode).max(20).optional(),
  coupon: z.string().trim().max(64).optional(),
  /** The total the customer saw; when given and different, the call answers 409 price_changed. */
  expectedTotal: Cents.optional(),
});
/**
 * The purchase body, the one type of it: as a caller writes it (the stores) and as the server
 * reads it once the router validated it (the purchase service).
 */
export type PurchaseBody = z.input<typeof UpgradeRequest>;
export type Purchase = z.output<typeof UpgradeRequest>;
export const UpgradeResponse = z.object({
  success: z.literal(true),
  orderId: z.string(),
  invoiceId: z.string(),
  productCode: z.string(),
  seats: z.number().int(),
  total: Cents,
  orderEndDate: Timestamp.nullable(),
  paymentProcessor: z.enum(["cc", "paypal"]),
  /**
   * Set when the purchase is a downgrade: nothing was charged, the account keeps its plan until
   * `effectiveDate` (the end of the paid period), then renews as this product at `total`.
   */
  scheduledChange: z
    .object({
      productCode: z.string(),
      seats: z.number().int(),
      effectiveDate: Timestamp,
      total: Cents,
    })
    .nullable(),
});

export const PaypalSubscriptionRequest = UpgradeRequest.extend({
  /** Where PayPal sends the customer back: a path of this site. */
  href: z.string().min(1).max(2000),
  /**
   * PayPal's subscription id (PayPal's buttons, onApprove): the server fetches it from PayPal and
   * writes the order only when it is ACTIVE with this checkout's order key, plan and amount.
   * Without it the call prepares the subscription (the order key, PayPal plan and quantity).
   */
  subscriptionId: z
    .string()
    .regex(/^[A-Za-z0-9-]{3,50}$/, { message: "must be a PayPal subscription id" })
    .optional(),
});
/** Spec 3.7: the PayPal hand-off record. */
const PaypalRecord = z.object({
  totalAmount: Cents,
  productCode: z.string(),
  productName: z.string(),
  tier: z.string(),
  hasPaypalPayment: z.boolean(),
  isCCRequiredTrial: z.boolean(),
  planIsTrial: z.boolean(),
});
export const PaypalSubscriptionResponse = z.object({
  success: z.literal(true),
  /** Our order key: PayPal's custom_id of the subscription. */
  approvalId: z.string(),
  approvalUrl: z.string(),
  paypal: PaypalRecord,
  /**
   * With PayPal's Subscriptions API: what the buttons' createSubscription sends (the plan, the
   * quantity, and the first cycle's unit price when the first payment differs from a renewal).
   */
  subscription: z
    .object({
      planId: z.string(),
      quantity: z.number().int().min(1),
      firstCycleUnitPrice: z.string().nullable(),
    })
    .optional(),
  /** Set once the order is written (a call with subscriptionId). */
  orderId: z.string().optional(),
});

export const ActivateFreeTrialRequest = z.object({
  vertical: z.string().trim().min(1).max(32),
  instanceName: typedText({ max: 100 }).nullable().optional(),
});
export const ActivateFreeTrialResponse = z.object({
  success: z.literal(true),
  productCode: z.string(),
  orderId: z.string(),
  orderEndDate: Timestamp,
  remainingTrialDays: z.number().int(),
  instanceName: z.string().nullable(),
});

/** One entry of GET /api/3/payment/invoices/1 and /paypalinvoices/1, oldest first. */
export const Invoice = z.object({
  invoiceId: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  orderId: z.string(),
  productCode: z.string(),
  productName: z.string(),
  orderDuration: z.number().int(),
  orderEndDate: Timestamp,
  created: Timestamp,
  price: Cents,
  amountPaid: Cents,
  salesTax: Cents,
  seats: z.number().int(),
  paymentProcessor: z.enum(["cc", "paypal"]),
  /** Refunded (or lost to a dispute) of amountPaid; absent when nothing was (issue 20). */
  amountRefunded: Cents.optional(),
});
export type Invoice = z.output<typeof Invoice>;
export const InvoiceList = z.array(Invoice);

export const AddressRequest = z.object({
  name: typedText({ max: 200 }).optional(),
  company: typedText({ max: 200 }).optional(),
  line1: typedText({ max: 200 }).optional(),
  line2: typedText({ max: 200 }).optional(),
  city: typedText({ max: 100 }).optional(),
  state: typedText({ max: 64 })
    .optional()
    .transform((s) => (s ? s.toUpperCase() : undefined)),
  postalCode: typedText({ max: 16 }).optional(),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, { message: "must be a two-letter country code" })
    .transform((s) => s.toUpperCase()),
});
export const AddressResponse = z.object({
  success: z.literal(true),
  countryCode: z.string(),
  stateCode: z.string().nullable(),
});

export const DeleteEssentialsResponse = z.object({
  success: z.literal(true),
  /** The product the subscription renews into, without Essentials. */
  productCode: z.string(),
  /** Essentials stays until then: the end of the period paid for (issue 33, item 8). */
  endsAt: Timestamp.nullable(),
});
export const CancelSubscriptionResponse = z.object({
  success: z.literal(true),
  orderState: z.literal("cancelled"),
  orderEndDate: Timestamp.nullable(),
});

const INVOICE_PAGE = "the page must be a whole number of at least 1";
/** The `:page` of the invoice lists: 1 to 10,000. */
export const InvoicePage = z.object({
  page: z.coerce
    .number({ error: INVOICE_PAGE })
    .int({ error: INVOICE_PAGE })
    .min(1, { error: INVOICE_PAGE })
    .max(10_000, { error: "the page must be at most 10000" }),
});
