// Issue 20 item 3: an off-session renewal whose bank wants the customer (3-D Secure). The renewal
// goes to dunning with its own e-mail, whose link opens a page where the customer authenticates
// that same payment; once it has succeeded (read back from the provider) the period is paid:
// one order and one invoice, the subscription continues. Here the sandbox (card 4000 0027 6000
// 3184 and its authentication page).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { periodEnd } from "../../domain/calendar/index.ts";
import { DAY_MS } from "../clock.ts";
import { SandboxCharges } from "../db/ledger.ts";
import { Renewals } from "../db/renewals.ts";
import { Subscriptions } from "../db/subscriptions.ts";
import { newKey, startTestServer, type TestClient, type TestServer } from "../testing/harness.ts";
import {
  AUTHENTICATE_EVERY_PAYMENT,
  expectPaidOnce,
  invoiceCount,
  mailsTo,
  moveClock,
  PASSWORD,
  paymentLink,
  renewalOrders,
  roundWithConfirmFirst,
} from "../testing/renewal-authentication-flow.ts";
import { chargesOfRenewal } from "../testing/tables.ts";

describe("sandbox: a renewal that needs the customer", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { CLOCK: "settable" }, renewals: { intervalMs: 0 } });
  });
  afterAll(async () => {
    await server.close();
  });

  async function saveCard(client: TestClient, number: string): Promise<void> {
    const token = await client.call(api.sandboxToken, {
      body: { number, expMonth: 12, expYear: 2040, cvc: "123", postalCode: "12345" },
    });
    if (!token.ok) throw new Error(token.body.message);
    const key = newKey();
    const save = () =>
      client.call(api.paymentToken, { body: { token: token.body.id }, idempotencyKey: key });
    let saved = await save();
    // 3184: its bank asks when the card is saved too (as Stripe's SetupIntent): the step, then
    // the same save again.
    if (!saved.ok && saved.body.action) {
      await step(client, saved.body.action.paymentId, "complete", "");
      saved = await save();
    }
    if (!saved.ok) throw new Error(saved.body.message);
  }

  /** Bought with 4242, then card 3184 saved: its renewals need the customer. */
  async function subscriber(email: string) {
    const { client, userId } = await server.verifiedAccount(email, PASSWORD);
    await client.call(api.address, { body: { country: "US", state: "OR" } });
    await saveCard(client, "4242424242424242");
    const t0 = server.clock.now();
    const bought = await client.call(api.upgrade, {
      body: { product: { code: "wv_single_1m" }, newCart: true },
      idempotencyKey: newKey(),
    });
    if (!bought.ok) throw new Error(bought.body.message);
    await saveCard(client, AUTHENTICATE_EVERY_PAYMENT);
    return { client, userId, due: periodEnd(t0, 0, 1), t0 };
  }

  const step = (client: TestClient, payment: string, action: string, back: string) =>
    client.fetch("/dev/sandbox/authenticate", {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ payment, action, return: back }).toString(),
    });

  it("mails a link to the payment; authenticating it pays the period once", async () => {
    const email = "renew-3ds@example.com";
    const { client, userId, due, t0 } = await subscriber(email);
    await moveClock(server, due);

    const [renewal] = await Renewals.forUser(server.running.deps.db, userId);
    expect(renewal).toMatchObject({
      state: "failed",
      attempts: 1,
      lastError: "authentication_required",
      paymentKey: `renewal:${renewal?.id}:1`,
    });
    expect(renewal?.paymentId).toMatch(/^ch_sandbox_/);
    // The grace days: the plan keeps working.
    const context = await (await server.signedIn(email, PASSWORD)).call(api.userContext);
    expect(context.ok && context.body).toMatchObject({
      productCode: "wv_single_1m",
      orderState: "automatic",
      isExpiredAccount: false,
    });
    const mail = (await mailsTo(server, email)).at(-1);
    expect(mail?.subject).toBe("Confirm your payment to keep your subscription");
    expect(mail?.body).toContain(
      "We could not charge $9.99 for your Power subscription: your bank asks you to confirm this payment yourself.",
    );

    const link = await paymentLink(server, email);
    // A stranger's guess at the token opens nothing.
    const forged = link.replace(/token=[^&]+/, "token=AAAA");
    expect((await fetch(`${server.running.url}${forged}`)).status).toBe(404);

    const shown = await fetch(`${server.running.url}${link}`);
    expect(shown.status).toBe(200);
    const text = await shown.text();
    expect(text).toContain("Confirm your payment");
    expect(text).toContain("$9.99");
    const sandboxPage = text.match(/href="(\/dev\/sandbox\/authenticate\?[^"]+)"/)?.[1];
    expect(sandboxPage).toBeDefined();
    const sandboxUrl = new URL(`http://x${(sandboxPage ?? "").replace(/&amp;/g, "&")}`);
    expect(sandboxUrl.searchParams.get("payment")).toBe(renewal?.paymentId);
    const authPage = await client.fetch(sandboxUrl.pathname + sandboxUrl.search);
    expect(await authPage.text()).toContain(">Complete</button>");

    const completed = await step(client, renewal?.paymentId ?? "", "complete", link);
    expect(completed.status).toBe(303);
    expect(completed.headers.get("location")).toBe(link);
    const paid = await fetch(`${server.running.url}${link}`);
    expect(await paid.text()).toContain("Payment received");

    expect(await renewalOrders(server, userId)).toEqual([
      expect.objectContaining({ charge_ref: renewal?.paymentId, total: 999 }),
    ]);
    expect(await invoiceCount(server, email)).toBe(2);
    const sub = await Subscriptions.get(server.running.deps.db, userId);
    expect(sub).toMatchObject({ orderState: "automatic", orderEnd: periodEnd(t0, 1, 1) });
    expect((await mailsTo(server, email)).at(-1)?.subject).toBe(
      "Payment received: your subscription continues",
    );

    // Replays: the page again, the step answered again, the retry day: nothing more.
    expect(await (await fetch(`${server.running.url}${link}`)).text()).toContain(
      "Payment received",
    );
    await step(client, renewal?.paymentId ?? "", "fail", link);
    await moveClock(server, due + 3 * DAY_MS);
    expect(await renewalOrders(server, userId)).toHaveLength(1);
    expect(await invoiceCount(server, email)).toBe(2);
    expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
      { state: "charged", attempts: 1 },
    ]);
  });

  it("a failed step leaves dunning as it was: the next try on day 3, with a new link", async () => {
    const email = "renew-3ds-fail@example.com";
    const { client, userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [renewal] = await Renewals.forUser(server.running.deps.db, userId);
    const link = await paymentLink(server, email);
    await step(client, renewal?.paymentId ?? "", "fail", link);
    const page = await fetch(`${server.running.url}${link}`);
    expect(await page.text()).toContain("The payment was not confirmed, and nothing was charged.");
    expect(await Renewals.forUser(server.running.deps.db, userId)).toMatchObject([
      { state: "failed", attempts: 1, nextAttemptAt: due + 3 * DAY_MS },
    ]);
    expect(await renewalOrders(server, userId)).toHaveLength(0);
    expect(await Subscriptions.get(server.running.deps.db, userId)).toMatchObject({
      productCode: "wv_single_1m",
      orderState: "automatic",
    });

    await moveClock(server, due + 3 * DAY_MS);
    const [retried] = await Renewals.forUser(server.running.deps.db, userId);
    expect(retried).toMatchObject({ state: "failed", attempts: 2 });
    expect(retried?.paymentId).not.toBe(renewal?.paymentId);
    const confirmMails = (await mailsTo(server, email)).filter(
      (m) => m.subject === "Confirm your payment to keep your subscription",
    );
    expect(confirmMails).toHaveLength(2);
  });

  const chargesOf = (renewalId: string) => chargesOfRenewal(server.running.deps.db, renewalId);

  it("the next attempt cancels the waiting payment first: an open page can no longer pay it, one new attempt", async () => {
    const email = "renew-3ds-replaced@example.com";
    const { client, userId, due } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const old = first?.paymentId ?? "";
    const link = await paymentLink(server, email);
    // The page is open in a tab, its button pointing at the old payment.
    expect(await (await fetch(`${server.running.url}${link}`)).text()).toContain(old);

    await moveClock(server, due + 3 * DAY_MS);
    const [retried] = await Renewals.forUser(server.running.deps.db, userId);
    expect(retried).toMatchObject({ state: "failed", attempts: 2, paymentRetired: null });
    expect(retried?.paymentId).not.toBe(old);
    // Exactly one new attempt, and the old payment is cancelled.
    expect(await chargesOf(retried?.id ?? "")).toEqual([
      { id: old, error_code: "canceled" },
      { id: retried?.paymentId, error_code: "requires_action" },
    ]);
    // The old tab's step: the sandbox's page no longer offers it, and completing it pays nothing.
    expect((await client.fetch(`/dev/sandbox/authenticate?payment=${old}`)).status).toBe(404);
    await step(client, old, "complete", link);
    expect((await SandboxCharges.byId(server.running.deps.db, old))?.errorCode).toBe("canceled");
    expect(await renewalOrders(server, userId)).toHaveLength(0);
  });

  it("the old payment confirmed just before the next attempt: recorded once, no new charge", async () => {
    const email = "renew-3ds-race@example.com";
    const { client, userId, due, t0 } = await subscriber(email);
    await moveClock(server, due);
    const [first] = await Renewals.forUser(server.running.deps.db, userId);
    const old = first?.paymentId ?? "";
    await roundWithConfirmFirst(server, due + 3 * DAY_MS, async () => {
      expect((await step(client, old, "complete", "")).status).toBe(200);
    });
    await expectPaidOnce(server, userId, old, t0);
    expect(await chargesOf(first?.id ?? "")).toEqual([{ id: old, error_code: null }]);
  });

  it("a lapse cancels the payments that waited: the page says so, with no button", async () => {
    const email = "renew-3ds-lapse@example.com";
    const { userId, due } = await subscriber(email);
    await moveClock(server, due);
    const link = await paymentLink(server, email);
    await moveClock(server, due + 3 * DAY_MS);
    await moveClock(server, due + 7 * DAY_MS);
    const [lapsed] = await Renewals.forUser(server.running.deps.db, userId);
    expect(lapsed).toMatchObject({ state: "lapsed", attempts: 3, paymentRetired: "cancelled" });
    // None of the three payments can be paid any more.
    const charges = await chargesOf(lapsed?.id ?? "");
    expect(charges.map((c) => c.error_code)).toEqual(["canceled", "canceled", "canceled"]);
    const page = await fetch(`${server.running.url}${link}`);
    const text = await page.text();
    expect(page.status).toBe(200);
    expect(text).toContain("This payment was cancelled and can no longer be made.");
    expect(text).not.toContain("confirm-payment");
    expect(await renewalOrders(server, userId)).toHaveLength(0);
  });
});
