// The payment handlers through the API: the sandbox card form, saving a card, the free trial.

import { describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import {
  CARD_ERROR_MESSAGES,
  GENERIC_CARD_ERROR_MESSAGE,
} from "../../domain/errors/card-errors.ts";
import { newKey } from "../testing/harness.ts";
import { cardToken, newAccount, server, startsPaymentsServer } from "../testing/payments-flow.ts";

startsPaymentsServer();

describe("sandbox card form", () => {
  it("makes tokens for valid numbers and refuses invalid ones", async () => {
    const client = server.client();
    expect(await cardToken(client, "4242 4242 4242 4242")).toMatch(/^tok_sandbox_/);
    const bad = await client.call(api.sandboxToken, {
      body: {
        number: "4242424242424241",
        expMonth: 12,
        expYear: 2030,
        cvc: "123",
        postalCode: "1",
      },
    });
    expect(bad).toMatchObject({ status: 400, body: { error_code: "invalid_card" } });
    const past = await client.call(api.sandboxToken, {
      body: { number: "4242424242424242", expMonth: 1, expYear: 2025, cvc: "123", postalCode: "1" },
    });
    expect(past).toMatchObject({ status: 400, body: { error_code: "invalid_card" } });
  });
});

describe("saving a card", () => {
  it("needs an Idempotency-Key", async () => {
    const client = await newAccount("key@example.com");
    // @ts-expect-error: no Idempotency-Key, on purpose: the server must refuse the call
    const answer = await client.call(api.paymentToken, {
      body: { token: await cardToken(client, "4242424242424242") },
    });
    expect(answer).toMatchObject({ status: 400, body: { error_code: "idempotency_key_required" } });
  });

  it("answers each test card's error with the spec's message", async () => {
    const client = await newAccount("cards@example.com");
    const cases: [string, string, string][] = [
      ["4000000000000002", "card_declined", CARD_ERROR_MESSAGES.card_declined],
      ["4000000000000069", "expired_card", CARD_ERROR_MESSAGES.expired_card],
      ["4000000000000127", "incorrect_cvc", CARD_ERROR_MESSAGES.incorrect_cvc],
      ["4000000000000119", "processing_error", CARD_ERROR_MESSAGES.processing_error],
      ["4000000000000036", "incorrect_zip", CARD_ERROR_MESSAGES.incorrect_zip],
      ["4000000000009995", "insufficient_funds", GENERIC_CARD_ERROR_MESSAGE],
    ];
    for (const [number, code, message] of cases) {
      const answer = await client.call(api.paymentToken, {
        body: { token: await cardToken(client, number) },
        idempotencyKey: newKey(),
      });
      expect(answer).toEqual(
        expect.objectContaining({ status: 402, body: { message, error_code: code } }),
      );
    }
    const ok = await client.call(api.paymentToken, {
      body: { token: await cardToken(client, "4242424242424242") },
      idempotencyKey: newKey(),
    });
    expect(ok.body).toEqual({
      success: true,
      paymentMethod: { processor: "cc", brand: "visa", last4: "4242" },
    });
    const context = await client.call(api.userContext);
    expect(context.ok && context.body.userHasPaymentMethodSet).toBe(true);
  });

  it("refuses a token used twice", async () => {
    const client = await newAccount("twice@example.com");
    const token = await cardToken(client, "4242424242424242");
    expect(
      (await client.call(api.paymentToken, { body: { token }, idempotencyKey: newKey() })).ok,
    ).toBe(true);
    expect(
      await client.call(api.paymentToken, { body: { token }, idempotencyKey: newKey() }),
    ).toMatchObject({
      status: 400,
      body: { error_code: "invalid_card" },
    });
  });
});

describe("free trial", () => {
  it("names a second team with the same name as its owner chose, numbered readably", async () => {
    const names: string[] = [];
    for (const email of ["same-name-1@example.com", "same-name-2@example.com"]) {
      const client = await newAccount(email, true);
      const answer = await client.call(api.activateFreeTrial, {
        body: { vertical: "business", instanceName: "Same Name Studio" },
        idempotencyKey: newKey(),
      });
      if (!answer.ok) throw new Error(answer.body.message);
      names.push(answer.body.instanceName ?? "");
    }
    expect(names).toEqual(["Same Name Studio", "Same Name Studio (2)"]);
  });

  it("names teams started at the same moment with one name apart, and starts every one", async () => {
    const clients = await Promise.all(
      [1, 2, 3, 4].map((n) => newAccount(`same-moment-${n}@example.com`, true)),
    );
    const answers = await Promise.all(
      clients.map((client) =>
        client.call(api.activateFreeTrial, {
          body: { vertical: "business", instanceName: "Same Moment Studio" },
          idempotencyKey: newKey(),
        }),
      ),
    );
    const names = answers.map((answer) => (answer.ok ? answer.body.instanceName : answer.status));
    expect(names.toSorted()).toEqual([
      "Same Moment Studio",
      "Same Moment Studio (2)",
      "Same Moment Studio (3)",
      "Same Moment Studio (4)",
    ]);
  });

  it("starts once per account, with a workspace for business", async () => {
    const client = await newAccount("trialist@example.com", true);
    const answer = await client.call(api.activateFreeTrial, {
      body: { vertical: "business", instanceName: "Trial Team" },
      idempotencyKey: newKey(),
    });
    if (!answer.ok) throw new Error(answer.body.message);
    expect(answer.body).toMatchObject({
      productCode: "wv_bizoct17_trial",
      remainingTrialDays: 14,
      instanceName: "Trial Team",
    });
    expect(answer.body.orderId).toMatch(/^ord_/);
    const context = await client.call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      isTrial: true,
      remainingTrialDays: 14,
      previousTrialOwner: true,
    });
    expect(
      await client.call(api.activateFreeTrial, {
        body: { vertical: "unlimited" },
        idempotencyKey: newKey(),
      }),
    ).toMatchObject({ status: 409, body: { error_code: "trial_not_available" } });
  });

  it("gives the education trial 30 days, to a verified school address only", async () => {
    for (const email of ["teacher@example.com", "edu@school.edu"]) {
      // Refused before the address is verified, and for an address that is not a school's.
      const refused = await newAccount(email);
      expect(
        await refused.call(api.activateFreeTrial, {
          body: { vertical: "education" },
          idempotencyKey: newKey(),
        }),
      ).toMatchObject({ status: 403, body: { error_code: "education_email_required" } });
    }
    const client = server.client();
    await client.call(api.signIn, { body: { email: "edu@school.edu", password: "secret-1" } });
    await client.call(api.generateEmailCode);
    const mails = (await (
      await fetch(`${server.running.url}/dev/mailbox?format=json&to=edu@school.edu`)
    ).json()) as { subject: string }[];
    const code = /(\d{6})/.exec(mails[0]?.subject ?? "")?.[1] ?? ""; // newest first
    expect((await client.call(api.verifyEmailCode, { body: { code } })).body).toEqual({
      success: true,
    });
    const answer = await client.call(api.activateFreeTrial, {
      body: { vertical: "education" },
      idempotencyKey: newKey(),
    });
    expect(answer.ok && answer.body).toMatchObject({
      productCode: "wv_edu_trial",
      remainingTrialDays: 30,
    });
  });
});
