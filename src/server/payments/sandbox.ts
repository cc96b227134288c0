// The sandbox payment provider: cards come from the local card form (POST
// /api/3/payment/sandbox/tokens) and behave as Stripe's test cards. Its books (tokens, customers,
// charges) are tables of the same database, written in their own transactions, as a remote
// provider's would be. Charges are keyed by the idempotency key, so a retry finds the first charge.

import { randomId } from "../auth/tokens.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/db.ts";
import {
  AWAITING_AUTHENTICATION,
  CANCELLED_CHARGE,
  CardTokens,
  SandboxCharges,
  SandboxCustomers,
  type SandboxSetup,
  SandboxSetups,
} from "../db/ledger.ts";
import type { AttachResult, CancelResult, ChargeResult, PaymentProvider } from "./provider.ts";
import { authenticationOf } from "./test-cards.ts";

/** The sandbox's authentication page (handlers/sandbox-authentication.ts), Stripe's test page's stand-in. */
export const SANDBOX_AUTHENTICATION_PATH = "/dev/sandbox/authenticate";

/** A charge as the provider answers it: paid, declined, or waiting for the customer's step. */
function answerOf(charge: { id: string; errorCode: string | null }): ChargeResult {
  if (charge.errorCode === AWAITING_AUTHENTICATION) {
    return {
      ok: false,
      kind: "action",
      intentId: charge.id,
      // The sandbox has no client SDK: the page's address is what the payment step opens.
      clientSecret: `${charge.id}_secret`,
      url: `${SANDBOX_AUTHENTICATION_PATH}?${new URLSearchParams({ payment: charge.id })}`,
    };
  }
  // Cancelled while it waited: a refusal, as Stripe's provider reads a `canceled` intent.
  if (charge.errorCode === CANCELLED_CHARGE)
    return { ok: false, kind: "card", code: "card_declined" };
  return charge.errorCode
    ? { ok: false, kind: "card", code: charge.errorCode }
    : { ok: true, chargeId: charge.id };
}

/** A card being saved whose bank asks to confirm it: its step's page, as Stripe's SetupIntent. */
function setupAction(setup: SandboxSetup): AttachResult {
  return {
    ok: false,
    kind: "action",
    intentId: setup.id,
    clientSecret: `${setup.id}_secret`,
    url: `${SANDBOX_AUTHENTICATION_PATH}?${new URLSearchParams({ payment: setup.id })}`,
  };
}

export function createSandboxProvider(db: Db, clock: Clock): PaymentProvider {
  return {
    name: "sandbox",

    async attachCard({ customerId, userId, email, token, idempotencyKey }) {
      const now = clock.now();
      return db.transaction(async (tx): Promise<AttachResult> => {
        // The same save asked again after its bank's step (same key, same card): its outcome.
        const setup = await SandboxSetups.byKey(tx, idempotencyKey);
        if (setup && setup.tokenId === token) {
          if (setup.state === "requires_action") return setupAction(setup);
          // Stripe's code for a failed step (the fake's and the payment's alike).
          if (setup.state === "failed") {
            return { ok: false, kind: "card", code: "payment_intent_authentication_failure" };
          }
          const card = await CardTokens.get(tx, token);
          if (!card)
            return { ok: false, kind: "invalid", message: "this card token does not exist" };
          await SandboxCustomers.upsert(tx, { id: setup.customerId, tokenId: token, email, now });
          return {
            ok: true,
            customerId: setup.customerId,
            paymentMethodId: null,
            brand: card.brand,
            last4: card.last4,
          };
        }
        const card = await CardTokens.get(tx, token);
        if (!card)
          return {
            ok: false,
            kind: "invalid",
            message: "this card token does not exist",
          };
        if (!(await CardTokens.use(tx, token, now))) {
          return {
            ok: false,
            kind: "invalid",
            message: "this card token was used already",
          };
        }
        if (card.attachError) return { ok: false, kind: "card", code: card.attachError };
        const expiry = Date.UTC(card.expYear, card.expMonth); // first instant after the expiry month
        if (expiry <= now) return { ok: false, kind: "card", code: "expired_card" };
        const id = customerId ?? `cus_sandbox_${userId}`;
        if (authenticationOf(card.chargeError)?.onSetup) {
          // Saved for later payments only once the customer has done the bank's step.
          const waiting: SandboxSetup = {
            idempotencyKey,
            id: randomId("seti_sandbox"),
            customerId: id,
            tokenId: token,
            state: "requires_action",
            createdAt: now,
          };
          await SandboxSetups.insert(tx, waiting);
          return setupAction(waiting);
        }
        await SandboxCustomers.upsert(tx, { id, tokenId: token, email, now });
        return {
          ok: true,
          customerId: id,
          paymentMethodId: null,
          brand: card.brand,
          last4: card.last4,
        };
      });
    },

    async charge({ customerId, amount, description, idempotencyKey }) {
      const now = clock.now();
      // As a provider keeps its books: the first charge recorded under a key answers every call
      // with it. One read (that charge, and the customer's card), then one insert that commits
      // alone and keeps the first charge of a key (ON CONFLICT DO NOTHING), so concurrent calls
      // need no serializable transaction.
      const { previous, chargeError } = await SandboxCharges.beforeCharge(
        db,
        idempotencyKey,
        customerId,
      );
      if (previous) return answerOf(previous);
      if (chargeError === undefined)
        return { ok: false, kind: "invalid", message: "no card is saved for this customer" };
      // An authentication card whose payments ask (3184, 3178, though authenticated when saved
      // too): the payment waits for the customer's step (its page answers it), a purchase's at
      // once, an off-session one (a renewal: Stripe's authentication_required) until the
      // customer comes back from the dunning e-mail. 3155 was authenticated when saved: its
      // payments need no step.
      const authentication = authenticationOf(chargeError);
      const errorCode = !authentication
        ? chargeError
        : authentication.onPayment
          ? AWAITING_AUTHENTICATION
          : null;
      const charge = {
        idempotencyKey,
        id: randomId("ch_sandbox"),
        customerId,
        amount,
        currency: "usd",
        description,
        errorCode,
        createdAt: now,
      };
      if (await SandboxCharges.insertFirst(db, charge)) {
        const answer = answerOf(charge);
        return answer.ok ? { ...answer, new: true } : answer;
      }
      const first = await SandboxCharges.byKey(db, idempotencyKey);
      if (!first) throw new Error(`The sandbox charge of key ${idempotencyKey} vanished.`);
      return answerOf(first);
    },

    async findPayment({ orderKey }) {
      const previous = await SandboxCharges.byKey(db, orderKey);
      return previous ? answerOf(previous) : null;
    },

    async removeCard({ customerId }) {
      await db.transaction((tx) => SandboxCustomers.remove(tx, customerId));
      return { ok: true };
    },

    async cancelPayment({ customerId, orderKey, amount, paymentId }): Promise<CancelResult> {
      const ours = (c: { idempotencyKey: string; customerId: string; amount: number } | null) =>
        c !== null &&
        c.idempotencyKey === orderKey &&
        c.customerId === customerId &&
        c.amount === amount;
      if (!ours(await SandboxCharges.byId(db, paymentId))) {
        return { kind: "unknown", message: `no charge ${paymentId} of order ${orderKey}` };
      }
      // The ledger's one update that ends a waiting charge (its authentication page's too): the
      // step and the cancel cannot both win, and what the row says afterwards is the answer.
      await db.transaction((tx) =>
        SandboxCharges.settleAuthentication(tx, paymentId, CANCELLED_CHARGE),
      );
      const charge = await SandboxCharges.byId(db, paymentId);
      if (!charge) return { kind: "unknown", message: `the charge ${paymentId} vanished` };
      // Paid meanwhile, or refused (a failed step): only a waiting charge could still be paid.
      return charge.errorCode === null
        ? { kind: "succeeded", chargeId: charge.id }
        : { kind: "cancelled" };
    },
  };
}
