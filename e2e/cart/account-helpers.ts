// Shared by the account-flow browser tests (issue 10): new accounts through the API (so tests that
// change an account never share one), the sandbox mailbox, and the axe check.
import AxeBuilder from "@axe-core/playwright";
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
} from "@playwright/test";

export const DEMO_PASSWORD = "demo-password";

let counter = 0;
/** An address no other test (or run) uses. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

/**
 * A client address of its own for one API call, as a visitor behind the loopback proxy would have
 * (playwright.config.ts trusts it): accounts made for tests do not use up the per-address sign-up
 * and sign-in limits that the tests' own browsers share. A page that signs up or in through its
 * screens uses one too (`actAsNewVisitor`).
 */
export function visitorAddress(): Record<string, string> {
  counter += 1;
  return {
    "X-Forwarded-For": `10.${process.pid % 250}.${Math.floor(counter / 250) % 250}.${counter % 250}`,
  };
}

/** Signs a new free account up; the page's context is then signed in as it. */
export async function signUpViaApi(page: Page, email: string, password: string): Promise<void> {
  const answer = await page.request.post("/api/5/auth/signup", {
    data: { email, password, firstName: "Pat", lastName: "Tester" },
    headers: visitorAddress(),
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** Signs the page's context in (a demo account or one a test made). */
export async function signInViaApi(page: Page, email: string, password = DEMO_PASSWORD) {
  const answer = await page.request.post("/api/5/auth/signin", {
    data: { email, password },
    headers: visitorAddress(),
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

type Mail = { to: string; subject: string; body: string };

/** The newest e-mail to `to` whose subject matches, from the sandbox mailbox (waits for it). */
export async function latestMail(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(async () => {
      const answer = await request.get(`/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
      const mails = (await answer.json()) as Mail[];
      found = mails.find((m) => subject.test(m.subject));
      return found !== undefined;
    })
    .toBe(true);
  if (!found) throw new Error(`no mail to ${to}`);
  return found;
}

/** The first link of this site in a mail, as a path (the tests' host may differ from the mail's). */
export function linkIn(mail: Mail): string {
  const url = new URL(/https?:\/\/\S+/.exec(mail.body)?.[0] ?? "about:blank");
  return `${url.pathname}${url.search}${url.hash}`;
}

export async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(" ")).join("\n  ")}`,
  );
  expect(summary, state).toEqual([]);
}

/** Subscribes the signed-in account to a plan with the sandbox's test card, through the API. */
export async function subscribeViaApi(page: Page, code: string): Promise<void> {
  const token = await page.request.post("/api/3/payment/sandbox/tokens", {
    data: {
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2099,
      cvc: "123",
      postalCode: "94103",
    },
  });
  expect(token.status(), await token.text()).toBe(200);
  const { id } = (await token.json()) as { id: string };
  const key = () => ({ "Idempotency-Key": crypto.randomUUID() });
  const saved = await page.request.post("/api/3/payment/token", {
    data: { token: id },
    headers: key(),
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const paid = await page.request.post("/api/3/payment/upgrade", {
    data: { product: { code }, newCart: true },
    headers: key(),
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

/** Starts a trial for the signed-in account, through the API. */
export async function startTrialViaApi(page: Page, vertical: string): Promise<void> {
  const answer = await page.request.post("/api/3/payment/activatefreetrial", {
    data: { vertical, instanceName: null },
    headers: { "Idempotency-Key": crypto.randomUUID() },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** Verifies a new account's e-mail with the mailed code and activates it, through the API. */
export async function activateViaApi(page: Page, email: string): Promise<void> {
  const mail = await latestMail(page.request, email, /^Your verification code/);
  const code = /(\d{6})/.exec(mail.subject)?.[1] ?? "";
  const verified = await page.request.post("/api/4/user/2fa/verifyemailcode", { data: { code } });
  expect(verified.status(), await verified.text()).toBe(200);
  const activated = await page.request.post("/api/4/user/activate", { data: {} });
  expect(activated.status(), await activated.text()).toBe(200);
}

/**
 * A team of the test's own: a new owner buys Business (3 seats, the owner's included) in a
 * context of its own, and makes an open invitation through the local run's /dev/invites.
 */
export async function newTeamViaApi(
  browser: Browser,
  prefix: string,
): Promise<{ owner: BrowserContext; ownerPage: Page; code: string; team: string }> {
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await signUpViaApi(ownerPage, uniqueEmail(`${prefix}-owner`), "owner-secret");
  await subscribeViaApi(ownerPage, "wv_bizoct17_1m");
  const made = await ownerPage.request.post("/dev/invites", { data: {} });
  expect(made.status(), await made.text()).toBe(200);
  const { code } = (await made.json()) as { code: string };
  const info = await ownerPage.request.get(`/api/5/invites/${code}`);
  const { instanceName } = (await info.json()) as { instanceName: string };
  return { owner, ownerPage, code, team: instanceName };
}

/** A new account in a context of its own that joins the team by the invitation, through the API. */
export async function memberViaApi(
  browser: Browser,
  code: string,
  prefix: string,
): Promise<{ context: BrowserContext; page: Page; email: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const email = uniqueEmail(prefix);
  await signUpViaApi(page, email, "member-secret");
  const joined = await page.request.post(`/api/5/invites/${code}`, { data: {} });
  expect(await joined.json()).toMatchObject({ success: true });
  return { context, page, email };
}

/** Presses Tab until `target` has the focus (at most `limit` times), as a keyboard user would. */
export async function tabTo(page: Page, target: Locator, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

/** From now on the page's requests come from a visitor address of their own (see above). */
export async function actAsNewVisitor(page: Page): Promise<void> {
  await page.setExtraHTTPHeaders(visitorAddress());
}
