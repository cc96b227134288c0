// Issue 20 item 3 in a real browser: a renewal whose bank wants the customer (the sandbox's card
// 4000 0027 6000 3184 asks on every payment, so the off-session renewal is refused with
// authentication_required). From the dunning e-mail in /dev/mailbox to a paid period: the link
// opens the renewal's payment page, the sandbox's authentication page completes that same
// payment, and the account renews on the next period's date. This spec runs a server of its own
// with a settable clock (the shared test server's clock is the system's). And the card that is
// authenticated once, when saved (4000 0025 0000 3155): its renewal needs nobody.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api as contract } from "../../src/contract/index.ts";
import { periodEnd } from "../../src/domain/calendar/index.ts";
import { type RunningServer, startServer } from "../../src/server/main.ts";
import { createStaticHandler } from "../../src/server/static-files.ts";
import { browserApi, expect, test } from "./api-helpers.ts";
import { fillCard, openBankForSavedCard } from "./purchase-helpers.ts";

const PASSWORD = "secret-password";
const day = (ms: number) =>
  new Date(ms).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

let server: RunningServer;
let dataDir: string;

test.beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "e2e-renewal-3ds-"));
  server = await startServer({
    port: 0,
    host: "127.0.0.1",
    staticHandler: createStaticHandler(join(process.cwd(), "dist")),
    env: { DATA_DIR: dataDir, CLOCK_START: "2026-03-02T12:00:00Z", SEED: "false" },
    // The worker runs when the clock moves (POST /dev/clock answers once it has caught up).
    renewals: { intervalMs: 0 },
    log: { info() {}, warn() {}, error: (message) => console.error(message) },
  });
});
test.afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("a renewal that needs the customer: from the dunning e-mail to a paid period", async ({
  page,
  context,
}) => {
  const origin = `http://127.0.0.1:${server.port}`;
  const api = browserApi(context, origin);
  const email = await api.signUp({ password: PASSWORD });
  await api.subscribe("wv_single_1m");
  const t0 = server.deps.clock.now();
  // Card 4000 0027 6000 3184 on file: every payment asks for the bank's step.
  const token = await api.call(contract.sandboxToken, {
    body: {
      number: "4000002760003184",
      expMonth: 12,
      expYear: 2099,
      cvc: "123",
      postalCode: "94103",
    },
  });
  // Its bank asks when it is saved too (as Stripe's SetupIntent): the step, then the same save.
  const saveKey = crypto.randomUUID();
  const asked = await api.attempt(contract.paymentToken, {
    body: { token: token.id },
    idempotencyKey: saveKey,
  });
  expect(asked.ok ? null : asked.error.code).toBe("authentication_required");
  const setupStep = await context.request.post(`${origin}/dev/sandbox/authenticate`, {
    headers: { origin },
    form: { payment: asked.ok ? "" : (asked.error.action?.paymentId ?? ""), action: "complete" },
  });
  expect(setupStep.status()).toBe(200);
  await api.call(contract.paymentToken, { body: { token: token.id }, idempotencyKey: saveKey });

  // The renewal date: the off-session charge is refused, and dunning mails the customer.
  const due = periodEnd(t0, 0, 1);
  const moved = await context.request.post(`${origin}/dev/clock`, {
    data: { set: due + 60 * 60_000 },
  });
  // (The worker's counts are the whole server's: this account is looked at on its own below.)
  expect(moved.status()).toBe(200);

  // Sessions last 30 days: the customer signs in again, and the plan still works meanwhile.
  await api.signIn(email, PASSWORD);
  await page.goto(`${origin}/cart/home`);
  await expect(page.getByTestId("account-status")).toHaveText("Active");
  await expect(page.getByTestId("account-plan")).toHaveText("Power, billed monthly");

  await page.goto(`${origin}/dev/mailbox?to=${encodeURIComponent(email)}`);
  const mail = page.getByRole("article").filter({
    has: page.getByRole("heading", { name: "Confirm your payment to keep your subscription" }),
  });
  await expect(mail).toHaveCount(1);
  await mail.getByRole("link", { name: /\/orders\/renewal\?/ }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Confirm your payment");
  await expect(page.getByText("$9.99")).toBeVisible();
  await page.getByRole("link", { name: "Confirm the payment" }).click();
  // The sandbox's stand-in for the bank's page, for that same payment.
  await expect(page.getByText("Amount: $9.99")).toBeVisible();
  await page.getByRole("button", { name: "Complete" }).click();

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");
  await expect(page.getByRole("status")).toHaveText(
    "Thank you: your payment went through and your subscription continues. The receipt is on its way by e-mail.",
  );
  // A reload (the step's return replayed) records nothing more.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment received");

  // The period is paid: the account renews on the next period's date, with two invoices.
  await page.getByRole("link", { name: "Go to your account" }).click();
  await expect(page.getByTestId("account-status")).toHaveText("Active");
  await expect(page.getByTestId("account-renews-on")).toHaveText(day(periodEnd(t0, 1, 1)));
  expect(await api.call(contract.invoices, { params: { page: 1 } })).toHaveLength(2);
  const mails = await context.request.get(
    `${origin}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`,
  );
  expect(((await mails.json()) as { subject: string }[])[0]?.subject).toBe(
    "Payment received: your subscription continues",
  );
});

test("a card authenticated once when saved (3155): its renewal needs no customer", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000 * Number(process.env.E2E_TIMEOUT_SCALE ?? 1));
  const origin = `http://127.0.0.1:${server.port}`;
  const api = browserApi(context, origin);
  const email = await api.signUp({ password: PASSWORD });
  await page.goto(`${origin}/cart?p=buy&product=wv_single_1m#checkout`);
  await expect(page.getByTestId("total")).toBeVisible({ timeout: 30_000 });
  await fillCard(page, "4000 0025 0000 3155");
  const t0 = server.deps.clock.now();
  await page.getByRole("button", { name: /^Pay \$/ }).click();
  // The bank's step comes when the card is saved, and charges nothing itself.
  const bank = await openBankForSavedCard(page);
  await bank.getByRole("button", { name: "Complete" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Payment complete");

  const due = periodEnd(t0, 0, 1);
  const moved = await context.request.post(`${origin}/dev/clock`, {
    data: { set: due + 60 * 60_000 },
  });
  expect(moved.status()).toBe(200);
  await api.signIn(email, PASSWORD);
  expect(await api.call(contract.invoices, { params: { page: 1 } })).toHaveLength(2);
  const mails = await context.request.get(
    `${origin}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`,
  );
  const subjects = ((await mails.json()) as { subject: string }[]).map((m) => m.subject);
  expect(subjects[0]).toBe("Your subscription renewed");
  expect(subjects).not.toContain("Confirm your payment to keep your subscription");
});
