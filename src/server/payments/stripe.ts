// The Stripe provider, through the official server SDK. Tokens come from Stripe Elements in the
// browser; the card is saved on a Customer and charged with the Charges API, each call carrying
// an idempotency key so that retries never charge twice.
import Stripe from "stripe";
import type { AttachResult, ChargeResult, PaymentProvider, ProviderFailure } from "./provider.ts";

export type StripeOptions = { secretKey: string; apiUrl: string | null };

function failure(error: unknown): ProviderFailure {
  if (error instanceof Stripe.errors.StripeCardError) {
    return { ok: false, kind: "card", code: error.code ?? "card_declined" };
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    return { ok: false, kind: "invalid", message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, kind: "unavailable", message };
}

function cardOf(source: unknown): { brand: string; last4: string } {
  const card = source as {
    brand?: string;
    last4?: string;
    card?: { brand?: string; last4?: string };
  } | null;
  const inner = card?.card ?? card;
  return { brand: (inner?.brand ?? "card").toLowerCase(), last4: inner?.last4 ?? "0000" };
}

export function createStripeProvider(options: StripeOptions): PaymentProvider {
  const url = options.apiUrl ? new URL(options.apiUrl) : null;
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(url
      ? {
          host: url.hostname,
          port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
          protocol: url.protocol === "https:" ? "https" : "http",
        }
      : {}),
  });

  return {
    name: "stripe",

    async attachCard({ customerId, userId, email, token, idempotencyKey }): Promise<AttachResult> {
      try {
        if (customerId === null) {
          const customer = await stripe.customers.create(
            {
              email,
              source: token,
              metadata: { userId: String(userId) },
              expand: ["default_source"],
            },
            { idempotencyKey: `${idempotencyKey}:customer` },
          );
          return { ok: true, customerId: customer.id, ...cardOf(customer.default_source) };
        }
        const source = await stripe.customers.createSource(
          customerId,
          { source: token },
          { idempotencyKey: `${idempotencyKey}:source` },
        );
        await stripe.customers.update(
          customerId,
          { default_source: source.id },
          { idempotencyKey: `${idempotencyKey}:default` },
        );
        return { ok: true, customerId, ...cardOf(source) };
      } catch (error) {
        return failure(error);
      }
    },

    async charge({
      customerId,
      amount,
      description,
      idempotencyKey,
      metadata,
    }): Promise<ChargeResult> {
      try {
        const charge = await stripe.charges.create(
          { amount, currency: "usd", customer: customerId, description, metadata },
          { idempotencyKey },
        );
        return { ok: true, chargeId: charge.id };
      } catch (error) {
        return failure(error);
      }
    },
  };
}
