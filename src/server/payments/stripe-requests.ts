// How the Stripe provider asks (stripe.ts): one request tried again while it may succeed within
// its deadline, and a payment looked up by its id or its order key when an answer was lost.
import type Stripe from "stripe";
import type { ChargeResult } from "./provider.ts";
import {
  matches,
  mayHaveLeft,
  outcomeOf,
  requestIdOf,
  retryable,
  statusOf,
  UntrustedReply,
} from "./stripe-replies.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Attempts = <T>(
  what: string,
  deadline: number,
  call: (timeout: number) => Promise<T>,
  state: { left: boolean },
) => Promise<T>;

/** What a lookup reads with: the SDK's client, its retried requests and the log. */
export type StripeCalls = { stripe: Stripe; attempts: Attempts; log: (line: string) => void };

export type PaymentLookup = {
  customerId: string;
  orderKey: string;
  amount: number;
  paymentId?: string | null;
};

/**
 * One request, tried again while it may succeed and time is left. `left` records whether any
 * try may have reached Stripe. Throws the last error.
 */
export function attemptsWithin(requestTimeoutMs: number, log: (line: string) => void): Attempts {
  return async function attempts<T>(
    what: string,
    deadline: number,
    call: (timeout: number) => Promise<T>,
    state: { left: boolean },
  ): Promise<T> {
    let pause = 250;
    for (;;) {
      const remaining = deadline - Date.now();
      try {
        const reply = await call(Math.max(1_000, Math.min(requestTimeoutMs, remaining)));
        if (statusOf(reply) >= 300) {
          state.left = true;
          throw new UntrustedReply(`HTTP ${statusOf(reply)} without an error object`);
        }
        return reply;
      } catch (error) {
        if (error instanceof UntrustedReply || mayHaveLeft(error)) state.left = true;
        const again = error instanceof UntrustedReply || retryable(error);
        if (!again || deadline - Date.now() < pause + 1_000) {
          log(
            `stripe: ${what} failed (request ${requestIdOf(error)}): ${error instanceof Error ? error.message : String(error)}`,
          );
          throw error;
        }
        await sleep(pause);
        pause *= 2;
      }
    }
  };
}

/** A payment found at Stripe by its id, else by its order key; null when there is none. */
export async function lookupPayment(
  { stripe, attempts, log }: StripeCalls,
  input: PaymentLookup,
  deadline: number,
): Promise<ChargeResult | null> {
  const state = { left: false };
  let intent: Stripe.PaymentIntent | undefined;
  if (input.paymentId) {
    intent = await attempts(
      "payment lookup",
      deadline,
      (timeout) => stripe.paymentIntents.retrieve(input.paymentId as string, {}, { timeout }),
      state,
    );
  } else {
    const found = await attempts(
      "payment search",
      deadline,
      (timeout) =>
        stripe.paymentIntents.search(
          { query: `metadata['order_key']:'${input.orderKey.replace(/'/g, "\\'")}'`, limit: 10 },
          { timeout },
        ),
      state,
    );
    // A succeeded one first: an order key pays for one order.
    const ours = (found.data ?? []).filter((i) => matches(i, input));
    intent = ours.find((i) => i.status === "succeeded") ?? ours[0];
  }
  if (!intent) return null;
  // Retrieved by its id: the reply must be that payment, as cancelPayment checks too.
  if (!matches(intent, input) || (input.paymentId && intent.id !== input.paymentId)) {
    log(`stripe: payment ${intent.id} does not match order ${input.orderKey}: not trusted`);
    return { ok: false, kind: "unknown", message: "the payment found does not match the order" };
  }
  return outcomeOf(intent);
}
