// Saving a sandbox test card (payments/test-cards.ts) as the checkout does: the card form's
// tokenisation, then the payment-token call with an Idempotency-Key.
import type { z } from "zod";
import { api } from "../../contract/index.ts";
import type { SandboxTokenRequest } from "../../contract/payment.ts";
import { newKey, type TestClient } from "./harness.ts";

/** The sandbox card form's fields, as the contract takes them. */
type SandboxCard = z.input<typeof SandboxTokenRequest>;

/** Card 4242 4242 4242 4242: every payment with it succeeds. */
const PAYING_CARD: SandboxCard = {
  number: "4242424242424242",
  expMonth: 12,
  expYear: 2030,
  cvc: "123",
  postalCode: "1",
};

/**
 * Tokenises `card` (the paying card, with the fields given changed) and saves it as `client`'s
 * payment method. `tokenOn`: the client that tokenises it, when another server of the same
 * browser does. Throws when the card is not tokenised; the save's answer is the test's to judge.
 */
export async function saveSandboxCard(
  client: TestClient,
  card: Partial<SandboxCard> = {},
  tokenOn: TestClient = client,
) {
  const token = await tokenOn.call(api.sandboxToken, { body: { ...PAYING_CARD, ...card } });
  if (!token.ok) throw new Error(token.body.message);
  return client.call(api.paymentToken, {
    body: { token: token.body.id },
    idempotencyKey: newKey(),
  });
}

/** A new account signed up on `client`'s server, with the paying card saved; throws on a refusal. */
export async function signUpWithCard(
  client: TestClient,
  body: { email: string; password: string; firstName: string; lastName: string },
): Promise<TestClient> {
  const signedUp = await client.call(api.signUp, { body });
  if (!signedUp.ok) throw new Error(signedUp.body.message);
  const saved = await saveSandboxCard(client);
  if (!saved.ok) throw new Error(saved.body.message);
  return client;
}
