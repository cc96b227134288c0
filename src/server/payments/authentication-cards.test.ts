// Stripe's authentication (3-D Secure) test cards give the same answers in the sandbox and with
// Stripe (issue 20: "the same messages and outcomes for the same test cards"): each card is saved,
// bought with, and renewed off-session through both providers (the sandbox's books, and the
// Stripe provider against the Stripe fake), each bank step completed, and the two transcripts of
// what the customer and the renewal worker are told must be equal, and as Stripe documents them
// (https://docs.stripe.com/testing#regulatory-cards): 3155 asks when saved only; 3184 asks when
// saved and on every payment; 3178 asks likewise, then declines for insufficient funds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { apiError } from "../../domain/errors/api-errors.ts";
import { GENERIC_CARD_ERROR_MESSAGE } from "../../domain/errors/card-errors.ts";
import { Users } from "../db/users.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import type { ChargeResult } from "./provider.ts";
import { createStripeProvider } from "./stripe.ts";
import { StripeFake } from "./testing/stripe-fake.ts";

type Card = "3155" | "3184" | "3178";

/** One provider as a customer meets it: its server, its card tokens, and its bank's step. */
type Path = {
  server: TestServer;
  token(client: TestClient, card: Card): Promise<string>;
  step(client: TestClient, paymentId: string, outcome: "complete" | "fail"): Promise<void>;
};

const SANDBOX_NUMBERS: Record<Card, string> = {
  "3155": "4000002500003155",
  "3184": "4000002760003184",
  "3178": "4000008260003178",
};
const STRIPE_METHODS: Record<Card, string> = {
  "3155": "pm_card_authenticationRequiredOnSetup",
  "3184": "pm_card_authenticationRequired",
  "3178": "pm_card_authenticationRequiredChargeDeclinedInsufficientFunds",
};

const fake = new StripeFake();
const paths: Record<"sandbox" | "stripe", Path> = {} as Record<"sandbox" | "stripe", Path>;

beforeAll(async () => {
  await fake.start();
  const sandbox = await startTestServer({ seed: false });
  paths.sandbox = {
    server: sandbox,
    async token(client, card) {
      const token = await client.call(api.sandboxToken, {
        body: {
          number: SANDBOX_NUMBERS[card],
          expMonth: 12,
          expYear: 2040,
          cvc: "123",
          postalCode: "97201",
        },
      });
      if (!token.ok) throw new Error(token.body.message);
      return token.body.id;
    },
    async step(client, paymentId, outcome) {
      const answered = await client.fetch("/dev/sandbox/authenticate", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ payment: paymentId, action: outcome }).toString(),
      });
      expect(answered.status).toBe(200);
    },
  };
  let stripe: TestServer | undefined;
  stripe = await startTestServer({
    seed: false,
    env: {
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY: "sk_test_fake",
      STRIPE_PUBLISHABLE_KEY: "pk_test_fake",
      STRIPE_API_URL: fake.url,
    },
    payments: () =>
      createStripeProvider({
        secretKey: "sk_test_fake",
        apiUrl: fake.url,
        log: (line) => stripe?.log.warn(line),
      }),
  });
  paths.stripe = {
    server: stripe,
    token: async (_client, card) => STRIPE_METHODS[card],
    async step(_client, paymentId, outcome) {
      fake.authenticate(paymentId, outcome);
    },
  };
});
afterAll(async () => {
  await paths.sandbox?.server.close();
  await paths.stripe?.server.close();
  await fake.stop();
});

/** What an answer tells: its status, error code and message (or the card saved, or the order). */
function told(answer: { ok: boolean; status: number; body: unknown }): string {
  if (!answer.ok) {
    const body = answer.body as { error_code?: string; message?: string };
    return `${answer.status} ${body.error_code} ${body.message}`;
  }
  const body = answer.body as { paymentMethod?: { last4: string }; total?: number };
  return body.paymentMethod
    ? `${answer.status} saved •••• ${body.paymentMethod.last4}`
    : `${answer.status} paid`;
}

const actionOf = (answer: { ok: boolean; body: unknown }) =>
  answer.ok ? "" : ((answer.body as { action?: { paymentId: string } }).action?.paymentId ?? "");

/** What the renewal worker learns from the provider. */
function renewalTold(result: ChargeResult | null): string {
  if (result === null) return "no payment";
  if (result.ok) return "paid";
  return result.kind === "card" ? `declined ${result.code}` : result.kind;
}

let accounts = 0;

/**
 * The card saved (its bank's step, then the same save again), a purchase (its step when it asks,
 * then the same purchase again), and an off-session renewal (its step when it waits for the
 * customer, then the payment read back): every answer, in order.
 */
async function transcript(path: Path, card: Card): Promise<string[]> {
  const { server } = path;
  const lines: string[] = [];
  const { client, userId } = await server.verifiedAccount(
    `card-${card}-${++accounts}@example.com`,
    "secret-1",
  );
  await client.call(api.address, { body: { country: "US", state: "OR" } });

  const token = await path.token(client, card);
  const saveKey = newKey();
  const save = () => client.call(api.paymentToken, { body: { token }, idempotencyKey: saveKey });
  let saved = await save();
  lines.push(`save: ${told(saved)}`);
  if (!saved.ok && actionOf(saved)) {
    await path.step(client, actionOf(saved), "complete");
    saved = await save();
    lines.push(`save after the step: ${told(saved)}`);
  }

  const buyKey = newKey();
  const buy = () =>
    client.call(api.upgrade, {
      body: { product: { code: "wv_single_1m" }, newCart: true },
      idempotencyKey: buyKey,
    });
  let bought = await buy();
  lines.push(`purchase: ${told(bought)}`);
  if (!bought.ok && actionOf(bought)) {
    await path.step(client, actionOf(bought), "complete");
    bought = await buy();
    lines.push(`purchase after the step: ${told(bought)}`);
  }

  const user = await Users.byId(server.running.deps.db, userId);
  const provider = server.running.deps.payments;
  const renewalKey = `renewal:parity-${card}-${accounts}:1`;
  const charge = {
    customerId: user?.paymentCustomer ?? "",
    paymentMethodId: user?.paymentMethod ?? null,
    amount: 999,
    description: "wv_single_1m renewal",
    idempotencyKey: renewalKey,
    orderKey: renewalKey,
    offSession: true,
    metadata: { userId: String(userId) },
  };
  const renewed = await provider.charge(charge);
  lines.push(`renewal: ${renewalTold(renewed)}`);
  if (!renewed.ok && renewed.kind === "action") {
    // The customer, back from the dunning e-mail, completes the bank's step for that payment.
    await path.step(client, renewed.intentId, "complete");
    const now = await provider.findPayment({
      customerId: charge.customerId,
      orderKey: renewalKey,
      amount: charge.amount,
      paymentId: renewed.intentId,
    });
    lines.push(`renewal after the step: ${renewalTold(now)}`);
  }
  return lines;
}

const ASKS = `402 authentication_required ${apiError("authentication_required").body.message}`;

describe("authentication test cards: the sandbox answers as Stripe does", () => {
  const expected: Record<Card, string[]> = {
    // Authenticated once, when saved: its payments, off-session ones included, need no step.
    "3155": [
      `save: ${ASKS}`,
      "save after the step: 200 saved •••• 3155",
      "purchase: 200 paid",
      "renewal: paid",
    ],
    // Asks when saved and on every payment: every renewal needs the customer.
    "3184": [
      `save: ${ASKS}`,
      "save after the step: 200 saved •••• 3184",
      `purchase: ${ASKS}`,
      "purchase after the step: 200 paid",
      "renewal: action",
      "renewal after the step: paid",
    ],
    // Asks likewise; once authenticated, every payment is declined for insufficient funds.
    "3178": [
      `save: ${ASKS}`,
      "save after the step: 200 saved •••• 3178",
      `purchase: ${ASKS}`,
      `purchase after the step: 402 insufficient_funds ${GENERIC_CARD_ERROR_MESSAGE}`,
      "renewal: action",
      "renewal after the step: declined insufficient_funds",
    ],
  };

  for (const card of ["3155", "3184", "3178"] as const) {
    it(`${card}: saved, bought with and renewed alike`, async () => {
      const sandbox = await transcript(paths.sandbox, card);
      const stripe = await transcript(paths.stripe, card);
      expect(sandbox).toEqual(expected[card]);
      expect(stripe).toEqual(sandbox);
    });
  }

  it("a failed step when the card is saved: the same refusal, and the card is not saved", async () => {
    const answers: string[] = [];
    for (const path of [paths.sandbox, paths.stripe]) {
      for (const card of ["3184", "3178"] as const) {
        const { client, userId } = await path.server.verifiedAccount(
          `fail-${card}-${++accounts}@example.com`,
          "secret-1",
        );
        const token = await path.token(client, card);
        const key = newKey();
        const asked = await client.call(api.paymentToken, { body: { token }, idempotencyKey: key });
        await path.step(client, actionOf(asked), "fail");
        const failed = await client.call(api.paymentToken, {
          body: { token },
          idempotencyKey: key,
        });
        answers.push(told(failed));
        const user = await Users.byId(path.server.running.deps.db, userId);
        expect(user?.cardLast4 ?? null).toBeNull();
      }
    }
    const refused = `402 authentication_failed ${apiError("authentication_failed").body.message}`;
    expect(answers).toEqual([refused, refused, refused, refused]);
  });
});
