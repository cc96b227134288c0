// What the services/renewal-authentication-*.test.ts files share (issue 20 item 3): the card that
// wants the customer on every payment, the clock moved through /dev/clock, the dunning e-mail's
// payment link, and what the period ended with (orders, invoices).
import { expect } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { Outbox } from "../db/outbox.ts";
import { Renewals } from "../db/renewals.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import type { PaymentProvider } from "../payments/provider.ts";
import { RenewalWorker } from "../services/renewals.ts";
import type { TestServer } from "./harness.ts";
import { renewalOrdersOf } from "./tables.ts";

export const AUTHENTICATE_EVERY_PAYMENT = "4000002760003184";
export const PASSWORD = "secret-1";

export async function moveClock(server: TestServer, set: number): Promise<void> {
  const response = await fetch(`${server.running.url}/dev/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ set }),
  });
  expect(response.status).toBe(200);
}

/** The outbox's mail to `email`, oldest first (the outbox is what /dev/mailbox shows). */
export async function mailsTo(server: TestServer, email: string) {
  // Outbox.latest answers the newest first.
  const mails = await Outbox.latest(server.running.deps.db, 1000, email);
  return mails.reverse().map(({ subject, body }) => ({ subject, body }));
}

/** The link of the newest "confirm your payment" e-mail, as a path of the server. */
export async function paymentLink(server: TestServer, email: string): Promise<string> {
  const mail = (await mailsTo(server, email))
    .filter((m) => m.subject === "Confirm your payment to keep your subscription")
    .at(-1);
  const url = mail?.body.match(/http:\/\/\S+\/orders\/renewal\?\S+/)?.[0];
  if (!url) throw new Error(`no payment link mailed to ${email}`);
  return new URL(url).pathname + new URL(url).search;
}

export async function invoiceCount(server: TestServer, email: string): Promise<number> {
  const client = await server.signedIn(email, PASSWORD);
  const answer = await client.call(api.invoices, { params: { page: 1 } });
  if (!answer.ok) throw new Error(answer.body.message);
  return answer.body.length;
}

/**
 * The renewal worker's next round run by a worker whose provider lets the customer pay the old
 * payment (`confirm`) just before the worker's next request that would replace it reaches the
 * provider (a new charge, or the cancel): the race an old tab wins or loses.
 */
export async function roundWithConfirmFirst(
  server: TestServer,
  at: number,
  confirm: () => Promise<void>,
): Promise<void> {
  const deps = server.running.deps;
  let confirmed = false;
  const once = async () => {
    if (!confirmed) await confirm();
    confirmed = true;
  };
  const racing: PaymentProvider = {
    ...deps.payments,
    async charge(input) {
      if (input.offSession) await once();
      return deps.payments.charge(input);
    },
    async cancelPayment(input) {
      await once();
      return deps.payments.cancelPayment(input);
    },
  };
  await server.running.renewals?.stop();
  try {
    server.clock.set(at);
    await new RenewalWorker({ ...deps, payments: racing }, { intervalMs: 0 }).runOnce();
    expect(confirmed).toBe(true);
  } finally {
    server.running.renewals?.start();
  }
}

/** The first renewal paid by `payment` alone: one order, its first attempt, the next period. */
export async function expectPaidOnce(
  server: TestServer,
  userId: number,
  payment: string,
  t0: number,
) {
  expect(await renewalOrders(server, userId)).toEqual([
    expect.objectContaining({ charge_ref: payment, total: 999 }),
  ]);
  expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
    { state: "charged", attempts: 1 },
  ]);
  expect(await Subscriptions.get(server.running.deps.db, userId)).toMatchObject({
    orderEnd: periodEnd(t0, 1, 1),
  });
}

export async function renewalOrders(server: TestServer, userId: number) {
  return renewalOrdersOf(server.running.deps.db, userId);
}
