// A test server with PAYMENTS=stripe whose Stripe is the fake (payments/testing/stripe-fake.ts),
// as the Stripe tests start it: no seed, the fake's keys and address, and (when asked) a provider
// with short deadlines so that a fault is tested in a few seconds.
import type Stripe from "stripe";
import type { Queryable } from "../db/db.ts";
import { Users } from "../db/users.ts";
import { createStripeProvider, stripeClient } from "../payments/stripe.ts";
import type { StripeFake } from "../payments/testing/stripe-fake.ts";
import { startTestServer, type TestServer } from "./harness.ts";

const SECRET_KEY = "sk_test_fake";

/** A server's environment for Stripe at the fake, with `more` on top. */
export function stripeFakeEnv(
  fake: StripeFake,
  more: Record<string, string> = {},
): Record<string, string> {
  return {
    PAYMENTS: "stripe",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
    STRIPE_API_URL: fake.url,
    ...more,
  };
}

/** The Stripe SDK pointed at the fake, as the server's own client is. */
export function fakeStripeClient(fake: StripeFake): Stripe {
  return stripeClient(SECRET_KEY, fake.url);
}

/**
 * Starts the fake, then the server. `provider`: the payment provider's deadline and request
 * timeout (the real ones are 20 s and 8 s); without it the server builds its provider from its
 * environment, as in production.
 */
export async function startStripeServer(
  fake: StripeFake,
  options: Parameters<typeof startTestServer>[0] & {
    provider?: { deadlineMs: number; requestTimeoutMs: number };
  } = {},
): Promise<TestServer> {
  const { provider, env, ...rest } = options;
  await fake.start();
  const server: TestServer = await startTestServer({
    seed: false,
    ...rest,
    env: stripeFakeEnv(fake, env),
    ...(provider
      ? {
          payments: () =>
            createStripeProvider({
              secretKey: SECRET_KEY,
              apiUrl: fake.url,
              log: (line) => server.log.warn(line),
              ...provider,
            }),
        }
      : {}),
  });
  return server;
}

/** Stops the server (which fails on errors it logged unexpectedly), then the fake. */
export async function stopStripeServer(server: TestServer, fake: StripeFake): Promise<void> {
  await server.close();
  await fake.stop();
}

/**
 * A payment whose answer was lost and never asked for again: confirmed at Stripe with the
 * account's saved card and its own order key, with no order here.
 */
export async function lostPayment(
  stripe: Stripe,
  db: Queryable,
  userId: number,
): Promise<Stripe.PaymentIntent> {
  const user = await Users.byId(db, userId);
  return stripe.paymentIntents.create(
    {
      amount: 500,
      currency: "usd",
      customer: user?.paymentCustomer as string,
      payment_method: "pm_card_visa",
      confirm: true,
      metadata: { order_key: `order:${userId}:lost` },
    },
    { idempotencyKey: `order:${userId}:lost` },
  );
}
