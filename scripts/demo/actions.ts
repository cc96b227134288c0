// What a visitor does, as calls of the API in the order the pages and the checkout make them
// (src/stores/payment.ts, checkout.ts; e2e/cart/api-helpers.ts does the same for the browser
// tests): the exposure beacon of the static pricing page, sign-up, the e-mail code, a trial, the
// card form's token, the address, the coupon, the order summary and the purchase, a change of
// plan, a cancellation, a new card.
import { api } from "../../src/contract/index.ts";
import { pageEndpoints } from "../../src/contract/page-endpoints.ts";
import type { Experiment } from "../../src/domain/catalog/catalog-schema.ts";
import { Browser } from "./browser.ts";
import type { Action, Country, Story } from "./stories.ts";

/** Every visitor's password: anyone may sign in as one to look around. */
export const VISITOR_PASSWORD = "demo-season";

/** Stripe's test cards, as the sandbox takes them (src/server/payments/test-cards.ts). */
const PAYING_CARD = "4242424242424242";
/** Saved without complaint; every charge on it is declined (card_declined). */
const DECLINING_CARD = "4000000000000341";

/** Where a buyer pays from: Oregon (no sales tax) or Berlin (19 % VAT). */
const ADDRESSES = {
  US: { name: "Demo Visitor", country: "US", state: "OR", postalCode: "97201" },
  DE: {
    name: "Demo Besucher",
    line1: "Hauptstraße 1",
    city: "Berlin",
    country: "DE",
    postalCode: "10115",
  },
} as const satisfies Record<Country, unknown>;

/** The experiment beacon's path (the static pricing page's script sends it). */
const EXPOSURES_PATH = pageEndpoints.experimentExposures.path;

/** A visitor and the browser they are using now (a new one after `otherDevice`). */
/** `hasCard`: the account has a saved card (the checkout then skips the card form). */
export type Visitor = { story: Story; browser: Browser; hasCard: boolean };

export function newVisitor(base: string, story: Story): Visitor {
  return {
    story,
    browser: new Browser(base, `visitor ${story.number} (${story.email})`),
    hasCard: false,
  };
}

/** What a visitor's browser knows of the day: the time, and the experiments its pages carry. */
export type Today = { nowMs: number; experiments: readonly Experiment[] };

export async function play(visitor: Visitor, action: Action, today: Today): Promise<void> {
  switch (action.kind) {
    case "arrive":
      return arrive(visitor, today);
    case "signUp":
      return signUp(visitor, action.country);
    case "startTrial":
      return startTrial(visitor, action.vertical);
    case "buy":
      return buy(visitor, action.product, action.coupon);
    case "changePlan":
      return buy(visitor, action.product, null);
    case "cancel":
      await signedIn(visitor);
      await visitor.browser.call(api.cancelSubscription);
      return;
    case "failingCard":
      await signedIn(visitor);
      await saveCard(visitor, DECLINING_CARD);
      return;
    case "otherDevice":
      return otherDevice(visitor);
  }
}

/**
 * The static plans page's head script (src/browser/experiment-head.ts): it makes the visitor id
 * cookie when there is none and sends one exposure beacon naming the running experiments that the
 * server has not settled for this visitor (no entry in the `xp` cookie, and no `!`).
 */
async function arrive(visitor: Visitor, today: Today): Promise<void> {
  const { browser, story } = visitor;
  if (!browser.cookie("vid")) browser.setCookie("vid", story.visitorId);
  const xp = (browser.cookie("xp") ?? "").split("|");
  if (xp.includes("!")) return;
  const unsettled = today.experiments
    .filter((x) => x.from <= today.nowMs && today.nowMs < x.to)
    .map((x) => x.id)
    .filter((id) => !xp.some((entry) => entry.startsWith(`${id}:`)));
  if (unsettled.length === 0) return;
  // navigator.sendBeacon with a string: a text/plain body, as the page sends it.
  const answer = await browser.fetch(EXPOSURES_PATH, {
    method: "POST",
    headers: { "content-type": "text/plain;charset=UTF-8" },
    body: JSON.stringify({ experiments: unsettled }),
  });
  if (!answer.ok) {
    throw new Error(
      `${browser.who}: POST ${EXPOSURES_PATH} answered ${answer.status}: ${await answer.text()}`,
    );
  }
}

async function signUp(visitor: Visitor, country: Country): Promise<void> {
  const { browser, story } = visitor;
  await browser.call(api.signUp, {
    body: {
      email: story.email,
      password: VISITOR_PASSWORD,
      firstName: "Demo",
      lastName: `Visitor ${story.number}`,
    },
  });
  // The checkout asks for the billing address before the card (the total includes its tax).
  await browser.call(api.address, { body: ADDRESSES[country] });
}

/** The checkout's start-up: who is signed in; a session that ran out signs in again. */
async function signedIn(visitor: Visitor): Promise<void> {
  const info = await visitor.browser.call(api.userInfo);
  if (info.success) return;
  await visitor.browser.call(api.signIn, {
    body: { email: visitor.story.email, password: VISITOR_PASSWORD },
  });
}

/** A new browser (another device): the sign-in sets its visitor id to the account's. */
async function otherDevice(visitor: Visitor): Promise<void> {
  const { story } = visitor;
  visitor.browser = new Browser(visitor.browser.base, `${visitor.browser.who} on another device`);
  await visitor.browser.call(api.signIn, {
    body: { email: story.email, password: VISITOR_PASSWORD },
  });
}

/** A trial needs a verified address: the code mailed at sign-up, read from the sandbox mailbox. */
async function startTrial(visitor: Visitor, vertical: string): Promise<void> {
  const { browser, story } = visitor;
  const mailbox = await browser.fetch(
    `/dev/mailbox?format=json&to=${encodeURIComponent(story.email)}`,
  );
  const mails = (await mailbox.json()) as { subject: string }[];
  const code = mails
    .map((m) => /^Your verification code.*?(\d{6})/.exec(m.subject)?.[1])
    .find((c) => c !== undefined);
  if (!code) throw new Error(`${browser.who}: no verification code in the mailbox`);
  await browser.call(api.verifyEmailCode, { body: { code } });
  await browser.call(api.activateFreeTrial, {
    body: { vertical, instanceName: null },
    idempotencyKey: browser.key(),
  });
}

/** The card form's token, then saving it as the account's card. */
async function saveCard(visitor: Visitor, number: string): Promise<void> {
  const { browser } = visitor;
  const token = await browser.call(api.sandboxToken, {
    body: { number, expMonth: 12, expYear: 2030, cvc: "123", postalCode: "97201" },
  });
  await browser.call(api.paymentToken, {
    body: { token: token.id },
    idempotencyKey: browser.key(),
  });
  visitor.hasCard = true;
}

/** The checkout: the plans, the card, the coupon, the summary shown, the purchase at its total. */
async function buy(visitor: Visitor, product: string, coupon: string | null): Promise<void> {
  const { browser } = visitor;
  await signedIn(visitor);
  // The plans screen (/cart#plans) prices every plan for this customer.
  await browser.call(api.paymentOptions, { query: { new: "true", newCart: "true" } });
  if (!visitor.hasCard) await saveCard(visitor, PAYING_CARD);
  if (coupon) {
    await browser.call(api.verifyCoupon, { params: { code: coupon }, body: {} });
    await browser.call(api.applyCoupon, { params: { code: coupon }, body: {} });
  }
  const summary = await browser.call(api.orderSummary, { body: { targetProduct: product } });
  await browser.call(api.upgrade, {
    body: { product: { code: product }, newCart: true, expectedTotal: summary.total },
    idempotencyKey: browser.key(),
  });
}
