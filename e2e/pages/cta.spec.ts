// Every call to action of the static plans pages (/plans and each tab, /pricing), read from the
// built HTML, so a new link or form is covered without touching this file. A new visitor follows
// each one and, once signed up (a new account) or signed in (free@demo.test), lands on the screen
// the link asked for with its product, period and seats still chosen:
// - p=buy to #checkout: the checkout of that product (an order summary priced by the server);
// - p=buy to #checkout_single_export: the single export of that quality;
// - p=trial: the trial screen of that plan;
// - every education product (teacher, schools) and education trials: the invalid-email page,
//   with p, tier=education and product (these accounts have no verified school address: spec
//   2.5 and 6);
// - #signup: the free account, or the plans after signing in;
// - the seat calculator's form: the checkout with the seats typed in.
//
// How, and why it is not one full sign-up through the screens per link and way (it was: 73 tests,
// the longest part of the browser stage). A link that asks for a purchase or a trial takes a
// visitor to the plans page's sign-up tab, which keeps the product and carries the link itself as
// `redirect` (decideRedirect, src/domain/account/redirects.ts); signing up or in there goes to
// that `redirect` (returnAfterSignIn), where the app, now with an account, shows the screen. The
// only part that differs from link to link is the link: what the screens do with it is the same
// code for every link of a kind. So:
// - through the screens, for each kind of link (checkout, checkout with seats from the
//   calculator, single export, trial, invalid-email after a purchase link, invalid-email after a
//   trial link) and each way (sign-up and sign-in), one link followed and the account got by
//   typing into the sign-up and sign-in forms, as before; the #signup links, whose landing is the
//   sign-up form's own result, all of them so;
// - every other link (and form), a few to a test, as strictly: each followed by a new visitor,
//   whose sign-up tab must carry exactly that link as `redirect` (and its p, product and tier);
//   then in the same browser a new account through the API goes to each `redirect` and lands on
//   the same screen with the same checks as above.
// Every link is still followed by a visitor and landed on by a new account. What is not repeated
// per link is typing the form, which the kind's test proves takes the visitor to `redirect`, and
// landing a second time as free@demo.test (it was, until decision 0030: a third full page load
// per link). Where a link lands depends on the link, not on which free account follows it: the
// landing rules above name no account, and for a link that is not a #signup link they give the
// same screen after a sign-up and a sign-in. free@demo.test still lands on every kind of link,
// through the sign-in form.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { isEducationCode } from "../../src/domain/account/tier.ts";
import { expect, test, uniqueEmail } from "../cart/api-helpers.ts";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));
const PAGES = ["plans", ...tabPages(), "pricing"];

function tabPages(): string[] {
  const dir = join(dist, "plans");
  return readdirSync(dir)
    .filter((entry) => statSync(join(dir, entry)).isDirectory())
    .map((entry) => `plans/${entry}`);
}

function html(page: string): string {
  return readFileSync(join(dist, page, "index.html"), "utf8");
}

function decodeEntities(text: string): string {
  return text.replaceAll("&amp;", "&").replaceAll("&quot;", '"');
}

type Cta = { href: string; pages: string[] };

/** Every link into /cart of each page, once, with the pages that carry it. */
function ctas(): Cta[] {
  const found = new Map<string, string[]>();
  for (const page of PAGES) {
    for (const m of html(page).matchAll(/<a\b[^>]*\bhref="(\/cart[^"]*)"/g)) {
      const href = decodeEntities(m[1] ?? "");
      found.set(href, [...(found.get(href) ?? []), `/${page}`]);
    }
  }
  return [...found].map(([href, pages]) => ({ href, pages }));
}

type SeatForm = { page: string; action: string; hidden: Record<string, string> };

/** The seat calculator's forms into the checkout. */
function seatForms(): SeatForm[] {
  const forms: SeatForm[] = [];
  for (const page of PAGES) {
    for (const m of html(page).matchAll(
      /<form\b[^>]*action="(\/cart[^"]*)"[^>]*>([\s\S]*?)<\/form>/g,
    )) {
      const hidden: Record<string, string> = {};
      for (const input of (m[2] ?? "").matchAll(
        /<input type="hidden" name="([^"]+)" value="([^"]*)"/g,
      )) {
        hidden[input[1] ?? ""] = decodeEntities(input[2] ?? "");
      }
      forms.push({ page: `/${page}`, action: decodeEntities(m[1] ?? ""), hidden });
    }
  }
  return forms;
}

const links = ctas();
const forms = seatForms();

test("the pages have calls to action of every kind", () => {
  // A guard against a parser that finds nothing (every table-driven test below would vanish).
  const kinds = new Set(links.map((l) => new URL(l.href, "http://x").hash));
  expect([...kinds].sort()).toEqual(["#checkout", "#checkout_single_export", "#signup"]);
  expect(links.some((l) => l.href.includes("p=trial"))).toBe(true);
  expect(forms.length).toBeGreaterThan(0);
});

type Landing =
  | { kind: "checkout"; product: string; seats?: string }
  | { kind: "single-export"; product: string }
  | { kind: "trial"; product: string }
  | { kind: "invalid-email"; p: string; product: string }
  | { kind: "free-account" }
  | { kind: "plans" };

function isEducationLink(params: URLSearchParams): boolean {
  const product = params.get("product") ?? "";
  // Every education product (teacher, schools, the education trial) needs a verified education
  // address (spec 6, issue 18 item 2).
  if (isEducationCode(product)) return true;
  return params.get("p") === "trial" && params.get("tier") === "education";
}

/** Where a link lands once the visitor has an account (the rules of the comment above). */
function landingOf(href: string, how: "sign-up" | "sign-in"): Landing {
  const url = new URL(href, "http://x");
  const params = url.searchParams;
  const product = params.get("product") ?? "";
  if (url.hash === "#signup")
    return how === "sign-up" ? { kind: "free-account" } : { kind: "plans" };
  if (isEducationLink(params)) {
    return { kind: "invalid-email", p: params.get("p") ?? "buy", product };
  }
  if (params.get("p") === "trial") return { kind: "trial", product };
  if (url.hash === "#checkout_single_export") return { kind: "single-export", product };
  const seats = params.get("seats");
  return seats ? { kind: "checkout", product, seats } : { kind: "checkout", product };
}

/**
 * Where the seat calculator's form lands: the checkout with the seats typed in, or, for an
 * education product (the schools plan), the invalid-email page, as these accounts have no
 * verified school address (spec 6, issue 18 item 2).
 */
function seatFormLanding(product: string): Landing {
  return isEducationCode(product)
    ? { kind: "invalid-email", p: "buy", product }
    : { kind: "checkout", product, seats: "45" };
}

/** On the sign-up form a link led to: a new account, or free@demo.test through "Sign in". */
async function getAnAccount(page: Page, how: "sign-up" | "sign-in"): Promise<void> {
  const heading = page.getByRole("heading", { level: 1 });
  await expect(heading).toHaveText("Sign up");
  if (how === "sign-up") {
    await page.getByLabel("First name").fill("Cora");
    await page.getByLabel("Last name").fill("Clicker");
    await page.getByLabel("E-mail").fill(uniqueEmail("cta"));
    await page.getByLabel("Password").fill("secret-password");
    await page.getByRole("button", { name: "Sign up for free" }).click();
  } else {
    await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
    await expect(heading).toHaveText("Sign in");
    await page.getByLabel("E-mail").fill("free@demo.test");
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await expect(heading).not.toHaveText(how === "sign-up" ? "Sign up" : "Sign in");
}

async function expectLanding(page: Page, landing: Landing): Promise<void> {
  const heading = page.getByRole("heading", { level: 1 });
  const params = () => new URL(page.url()).searchParams;
  switch (landing.kind) {
    case "checkout":
      await expect(heading).toHaveText("Checkout");
      expect(params().get("product")).toBe(landing.product);
      await expect(page.getByRole("table", { name: "Order summary" })).toBeVisible();
      if (landing.seats) await expect(page.getByLabel("Seats")).toHaveValue(landing.seats);
      return;
    case "single-export":
      await expect(heading).toHaveText("Buy a single export");
      expect(params().get("product")).toBe(landing.product);
      await expect(
        page.getByRole("group", { name: "Export quality" }).getByRole("radio", { checked: true }),
      ).toHaveAccessibleName(landing.product.endsWith("_4k") ? "4K (2160p)" : "HD (1080p)");
      await expect(page.getByRole("table", { name: "Order summary" })).toBeVisible();
      return;
    case "trial":
      await expect(heading).toHaveText("Start your free trial");
      expect(params().get("product")).toBe(landing.product);
      expect(params().get("p")).toBe("trial");
      await expect(page.getByRole("button", { name: "Start free trial" })).toBeVisible();
      return;
    case "invalid-email":
      await expect(heading).toHaveText("Check your education email");
      expect(new URL(page.url()).pathname).toBe("/cart/invalid-email");
      expect(params().get("p")).toBe(landing.p);
      expect(params().get("tier")).toBe("education");
      expect(params().get("product")).toBe(landing.product);
      return;
    case "free-account":
      await expect(heading).toHaveText("Your free account is ready");
      return;
    case "plans":
      await expect(heading).toHaveText("Plans");
      return;
  }
}

/** The kind of a link, for choosing one of each to follow through the screens. */
function kindOf(href: string): string {
  const landing = landingOf(href, "sign-up");
  return landing.kind === "invalid-email" ? `invalid-email after p=${landing.p}` : landing.kind;
}

/** The #signup links stay on the sign-up form: their landing is what that form itself does. */
const isSignUpLink = (href: string) => landingOf(href, "sign-up").kind === "free-account";

const throughScreens = new Set<string>();
{
  const kinds = new Set<string>();
  for (const { href } of links) {
    const kind = kindOf(href);
    if (isSignUpLink(href) || !kinds.has(kind)) throughScreens.add(href);
    kinds.add(kind);
  }
}
const [screenForm, ...otherForms] = forms;

test("one link of each kind is followed through the screens", () => {
  // A guard on the choice above: each kind that the rules of the header name is there.
  expect([...new Set([...throughScreens].map(kindOf))].sort()).toEqual([
    "checkout",
    "free-account",
    "invalid-email after p=buy",
    "invalid-email after p=trial",
    "single-export",
    "trial",
  ]);
  expect(screenForm).toBeDefined();
});

/** Fills the seat calculator of a form with 45 and sends it; the sign-up tab keeps its fields. */
async function sendSeatForm(page: Page, form: SeatForm): Promise<void> {
  // The calculator is on its tier's tab (?tab= opens it).
  await page.goto(`${form.page}?tab=${form.hidden.tier ?? "education"}`);
  const seats = page.locator(`form[action="${form.action}"] input[name=seats]`);
  await seats.fill("45");
  await seats.press("Enter");
  await expect(page).toHaveURL(/\/cart\/plans\?tab=signup/);
  expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({
    ...Object.fromEntries(
      Object.entries(form.hidden).filter(([key]) => ["p", "product", "tier"].includes(key)),
    ),
    tab: "signup",
  });
}

const WAYS = ["sign-up", "sign-in"] as const;
type Way = (typeof WAYS)[number];

/** Clears what the visitor stored, so that the next load is a new visitor's. */
async function asNewVisitor(page: Page): Promise<void> {
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await page.context().clearCookies();
}

/**
 * Runs `way` once for a new visitor who signs up and once for a new visitor who signs in, in one
 * browser context: before the second, the first one's cookies and storage are cleared and the
 * page left for about:blank, so that a link differing from where the first landed only in its
 * hash is still a load of its own.
 */
async function bothWays(page: Page, way: (how: Way) => Promise<void>): Promise<void> {
  // Two ways in one test: the one-way test's time limit for each.
  test.setTimeout(WAYS.length * test.info().timeout);
  for (const [i, how] of WAYS.entries()) {
    await test.step(`through ${how}`, async () => {
      if (i > 0) {
        await asNewVisitor(page);
        await page.goto("about:blank");
      }
      await way(how);
    });
  }
}

// Both ways of a link in one test and one browser context (a few links or screens may share one
// context: e2e/README.md, decision 0069): first a new visitor follows the link and signs up, then
// another new visitor follows it and signs in as free@demo.test. Each way is a step of its own,
// from a load of its own. The link is loaded straight away: the static page that carries it
// stores nothing (its inline scripts only show prices and the year), so loading that page first
// changed nothing the cart sees.
test.describe("through sign-up, then through sign-in", () => {
  for (const { href, pages } of links.filter((link) => throughScreens.has(link.href))) {
    test(`${href} (on ${pages.join(", ")})`, async ({ page }) => {
      await bothWays(page, async (how) => {
        await page.goto(href);
        await getAnAccount(page, how);
        await expectLanding(page, landingOf(href, how));
      });
    });
  }

  if (screenForm) {
    test(`the seat calculator on ${screenForm.page} keeps the seats`, async ({ page }) => {
      await bothWays(page, async (how) => {
        await sendSeatForm(page, screenForm);
        await getAnAccount(page, how);
        await expectLanding(page, seatFormLanding(screenForm.hidden.product ?? ""));
      });
    });
  }
});

/**
 * On the sign-up tab a link led a visitor to: its `redirect`, where signing up or in goes back to.
 */
async function redirectOnSignUpTab(page: Page): Promise<string> {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign up");
  const redirect = new URL(page.url()).searchParams.get("redirect") ?? "";
  expect(redirect).toMatch(/^\/cart[?#]/);
  return redirect;
}

/** A link or form of the pages, followed by a visitor, and where its `redirect` must land. */
type Followed = { name: string; follow: (page: Page) => Promise<void>; landing: Landing };

const followedByRedirect: Followed[] = [
  ...links
    .filter((link) => !throughScreens.has(link.href))
    .map(({ href, pages }) => ({
      name: `${href} (on ${pages.join(", ")})`,
      landing: landingOf(href, "sign-up"),
      follow: async (page: Page) => {
        await page.goto(href);
        await expect(page).toHaveURL(/\/cart\/plans\?tab=signup/);
        const link = new URL(href, "http://x").searchParams;
        const params = new URL(page.url()).searchParams;
        // The link itself, unchanged, is where signing up or in goes back to.
        expect(params.get("redirect")).toBe(href);
        for (const key of ["p", "product", "tier"]) expect(params.get(key)).toBe(link.get(key));
        // The same screen whichever way the account came (not a #signup link: those go through
        // the screens), so one landing covers both.
        expect(landingOf(href, "sign-in")).toEqual(landingOf(href, "sign-up"));
      },
    })),
  ...otherForms.map((form) => ({
    name: `the seat calculator on ${form.page} keeps the seats`,
    landing: seatFormLanding(form.hidden.product ?? ""),
    follow: (page: Page) => sendSeatForm(page, form),
  })),
];

/** `items` in groups of at most `size`, in order. */
function inGroupsOf<T>(items: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
}

// A few links per test, in one browser context (several checks of one state share one load:
// e2e/README.md). Each link is followed by a new visitor (cookies and storage cleared before the
// next one) and read off its sign-up tab; then one new account through the API lands on each
// `redirect` in turn, each a page load of its own. Landing changes nothing on the account (no
// order, no trial: the screens only show), so the links' landings do not depend on one another,
// and where a link lands does not depend on which new account follows it (the header). A test of
// its own per link spent most of its time making its context and account.
const REDIRECTS_PER_TEST = 4;

test.describe("through the sign-up tab's redirect", () => {
  for (const group of inGroupsOf(followedByRedirect, REDIRECTS_PER_TEST)) {
    test(group.map((item) => item.name).join("; "), async ({ page, api }) => {
      // Half the one-link test's time limit per link, as the links share a context and account.
      test.setTimeout((group.length * test.info().timeout) / 2);
      const redirects: string[] = [];
      for (const item of group) {
        await test.step(`a visitor follows ${item.name}`, async () => {
          await item.follow(page);
          redirects.push(await redirectOnSignUpTab(page));
          // The next link is a new visitor's: nothing this one stored is left.
          await asNewVisitor(page);
        });
      }
      await api.signUp({ email: uniqueEmail("cta") });
      for (const [i, item] of group.entries()) {
        await test.step(`a new account lands from ${item.name}`, async () => {
          // From about:blank, so that a redirect differing only in its hash is a load as well.
          await page.goto("about:blank");
          await page.goto(redirects[i] ?? "");
          await expectLanding(page, item.landing);
        });
      }
    });
  }
});
