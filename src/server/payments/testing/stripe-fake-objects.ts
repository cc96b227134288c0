// The objects of the Stripe fake (stripe-fake.ts): its test cards, Stripe's form encoding, and
// the objects and errors it answers with, built as Stripe builds them.
import { randomBytes } from "node:crypto";
import type Stripe from "stripe";

/** A Stripe test card as the fake plays it. */
export type FakeCard = {
  brand: string;
  last4: string;
  /** Declined when set up (saved). */
  setupDecline: { code: string; decline_code: string } | null;
  /** Declined when charged. */
  chargeDecline: { code: string; decline_code: string } | null;
  /** 3-D Secure: when setting up only ("setup"), or on every payment ("every"). */
  authentication: "setup" | "every" | null;
};

export const decline = (code: string, decline_code = code) => ({ code, decline_code });

/** Stripe's test PaymentMethods (https://docs.stripe.com/testing), by id. */
export const FAKE_CARDS: Record<string, FakeCard> = {
  pm_card_visa: card("visa", "4242"),
  pm_card_mastercard: card("mastercard", "4444"),
  pm_card_visa_chargeDeclined: card("visa", "0002", {
    setupDecline: decline("card_declined", "generic_decline"),
  }),
  pm_card_visa_chargeDeclinedInsufficientFunds: card("visa", "9995", {
    setupDecline: decline("card_declined", "insufficient_funds"),
  }),
  pm_card_visa_chargeDeclinedExpiredCard: card("visa", "0069", {
    setupDecline: decline("expired_card"),
  }),
  pm_card_visa_chargeDeclinedIncorrectCvc: card("visa", "0127", {
    setupDecline: decline("incorrect_cvc"),
  }),
  pm_card_visa_chargeDeclinedProcessingError: card("visa", "0119", {
    setupDecline: decline("processing_error"),
  }),
  pm_card_chargeCustomerFail: card("visa", "0341", {
    chargeDecline: decline("card_declined", "generic_decline"),
  }),
  // 4000 0025 0000 3155: authentication when saved, then off-session payments succeed.
  pm_card_authenticationRequiredOnSetup: card("visa", "3155", { authentication: "setup" }),
  // 4000 0027 6000 3184: authentication on every payment.
  pm_card_authenticationRequired: card("visa", "3184", { authentication: "every" }),
  // 4000 0082 6000 3178: authentication succeeds, then insufficient funds.
  pm_card_authenticationRequiredChargeDeclinedInsufficientFunds: card("visa", "3178", {
    authentication: "every",
    chargeDecline: decline("card_declined", "insufficient_funds"),
  }),
};

export function card(brand: string, last4: string, rest: Partial<FakeCard> = {}): FakeCard {
  return {
    brand,
    last4,
    setupDecline: null,
    chargeDecline: null,
    authentication: null,
    ...rest,
  };
}

/** What can go wrong with one call (consumed by the next matching request). */
export type Fault =
  /** The work is done, then the connection is cut: the answer is lost. */
  | { kind: "lose-answer" }
  /** The work is done, then 500 with a body that is not an error object. */
  | { kind: "5xx-no-error"; status?: number }
  /** The work is not done: 429 rate_limit. */
  | { kind: "rate-limit" }
  /** The work is done, the answer sent after `ms`. */
  | { kind: "slow"; ms: number }
  /** The connection is refused before anything is read (the request never arrives). */
  | { kind: "reset-before" }
  /** The work is done, and the answer is another stored PaymentIntent (a proxy's or cache's mix-up). */
  | { kind: "other-intent"; id: string };

export type FakeRequest = {
  method: string;
  path: string;
  params: Record<string, unknown>;
  idempotencyKey: string | undefined;
  apiVersion: string | undefined;
  authorization: string | undefined;
};

export type Stored = { status: number; body: string };

export function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`;
}

/** Stripe's form encoding (`a[b][0]=x`) read back into objects and arrays. */
export function parseForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: Record<string, unknown> = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      if (last) {
        node[part] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(parts[i + 1] as string);
      node[part] ??= nextIsIndex ? [] : {};
      node = node[part] as Record<string, unknown>;
    });
  }
  return root;
}

export const now = () => Math.floor(Date.now() / 1000);

/**
 * Stripe's answer to a refused card: 402 with the error, and the intent the refusal left behind
 * (its last error is the same object).
 */
export function declined(
  error: Record<string, unknown>,
  left: { payment_intent: Stripe.PaymentIntent } | { setup_intent: Stripe.SetupIntent },
): [number, unknown] {
  return [402, { error: { ...error, ...left } }];
}

/** Stripe's values of a PaymentIntent's cancellation_reason that a cancel request may give. */
export const CANCELLATION_REASONS = [
  "duplicate",
  "fraudulent",
  "requested_by_customer",
  "abandoned",
];

/** Stripe's answer to an operation the intent's status does not allow (the intent included). */
export function unexpectedState(
  intent: Stripe.PaymentIntent,
  what: "cancel" | "confirm",
): [number, unknown] {
  return [
    400,
    {
      error: {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: `You cannot ${what} this PaymentIntent because it has a status of ${intent.status}.`,
        payment_intent: intent,
      },
    },
  ];
}

export function authenticationFailure() {
  return {
    type: "invalid_request_error",
    code: "payment_intent_authentication_failure",
    message: "The provided PaymentMethod has failed authentication.",
  };
}

export function missing(kind: string, what: string, param?: string): [number, unknown] {
  return [
    404,
    {
      error: {
        type: "invalid_request_error",
        code: "resource_missing",
        message: `No such ${kind}: '${what}'`,
        ...(param ? { param } : {}),
      },
    },
  ];
}

export function paymentMethod(
  pmId: string,
  pm: FakeCard,
  customer: string | null,
): Stripe.PaymentMethod {
  return {
    id: pmId,
    object: "payment_method",
    allow_redisplay: "unspecified",
    billing_details: { address: null, email: null, name: null, phone: null, tax_id: null },
    card: {
      brand: pm.brand,
      checks: null,
      country: "US",
      display_brand: pm.brand,
      exp_month: 12,
      exp_year: 2034,
      funding: "credit",
      generated_from: null,
      last4: pm.last4,
      networks: null,
      regulated_status: null,
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: now(),
    customer,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: "card",
  };
}

export function newIntent(fields: {
  amount: number;
  currency: string;
  customer: string;
  description: string | null;
  metadata: Stripe.Metadata;
  payment_method: string;
}): Stripe.PaymentIntent {
  const intentId = id("pi");
  return {
    id: intentId,
    object: "payment_intent",
    allowed_payment_method_types: null,
    amount: fields.amount,
    amount_capturable: 0,
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic",
    client_secret: `${intentId}_secret_${randomBytes(8).toString("hex")}`,
    confirmation_method: "automatic",
    created: now(),
    currency: fields.currency,
    customer: fields.customer,
    customer_account: null,
    description: fields.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: fields.metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: fields.payment_method,
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: ["card"],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: "requires_confirmation",
    transfer_group: null,
  };
}
