// The screens of the checkout app under /cart (spec 2.1 and 2.2): which URL shows which screen,
// how to link to a screen, its heading and whether it needs a signed-in user. Pure: the router
// (a store) reads location.pathname and location.hash and hands them here.
import { INVITE_PAGES, PUBLIC_PAGES } from "../account/redirects.ts";
import { isExtensionFlow } from "./query.ts";

export const BASE_PATH = "/cart";

/** Hash routes on the base path, /cart#<screen> (spec 2.1). */
export const HASH_SCREENS = [
  "signup",
  "auth",
  "plans",
  "checkout",
  "checkout_summary",
  "checkout_single_export",
  "payment-completed",
  "paypalCompleted",
  "free-account-completed",
  "edutrial-account-completed",
  "biztrial-account-completed",
  "email-activation",
  "additional-seats",
  "essentials",
  "cancel-essentials",
  "cancel-trial",
  "upgrades-disabled",
] as const;

/** Browser-path pages, /cart/<screen> (spec 2.2). */
export const PATH_SCREENS = [
  "checkout_summary",
  "invalid-email",
  "rce",
  "plans",
  "what-for",
  "what-role",
  "about-you",
  "template-redirect",
  "expired-account",
  "segmentation-info-redirect",
  "invite",
  "login",
  "new-password",
  "forgot-password",
  "sign-up",
  "home",
] as const;

export type HashScreen = (typeof HASH_SCREENS)[number];
export type PathScreen = (typeof PATH_SCREENS)[number];
export type ScreenId = HashScreen | PathScreen;

export type Route =
  | {
      kind: "screen";
      screen: ScreenId;
      /** Which form of URL showed it (plans and checkout_summary exist in both). */
      via: "hash" | "path";
      /** An invitation code from /cart/invite/<code>, when there is one. */
      inviteCode?: string;
    }
  | { kind: "not-found" };

/** The heading of each screen; the spec's words where it has them (2.7: 'Reset password'). */
export const SCREEN_TITLES: Readonly<Record<ScreenId, string>> = {
  signup: "Sign up",
  auth: "Sign in",
  plans: "Plans",
  checkout: "Checkout",
  checkout_summary: "Order summary",
  checkout_single_export: "Buy a single export",
  "payment-completed": "Payment complete",
  paypalCompleted: "PayPal payment complete",
  "free-account-completed": "Your free account is ready",
  "edutrial-account-completed": "Your education trial has started",
  "biztrial-account-completed": "Your trial has started",
  "email-activation": "Activate your account",
  "additional-seats": "Add seats",
  essentials: "Add Essentials",
  "cancel-essentials": "Cancel Essentials",
  "cancel-trial": "Cancel trial",
  "upgrades-disabled": "Upgrades are not available",
  "invalid-email": "Check your education email",
  rce: "Screen recorder",
  "what-for": "What will you use it for?",
  "what-role": "What is your role?",
  "about-you": "Tell us about you",
  "template-redirect": "Opening your template",
  "expired-account": "Your account has expired",
  "segmentation-info-redirect": "Setting up your account",
  invite: "Join your team",
  login: "Sign in",
  "new-password": "Reset password",
  "forgot-password": "Forgot your password?",
  "sign-up": "Sign up",
  home: "Your account",
};

export const NOT_FOUND_TITLE = "Page not found";

const HASH_SET: ReadonlySet<string> = new Set(HASH_SCREENS);
const PATH_SET: ReadonlySet<string> = new Set(PATH_SCREENS);
// Invitation codes are opaque tokens; anything else under /cart/invite/ is not an invitation.
const INVITE_CODE = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The screen a URL shows. The base path with no hash or an unknown hash, and any unknown path
 * under /cart, are not found (spec 2.1). Trailing slashes are ignored, as the site serves both
 * forms; a path page ignores the hash, since hash routes live on the base path only.
 */
export function parseRoute(pathname: string, hash: string): Route {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  if (path === BASE_PATH) {
    const name = hash.startsWith("#") ? hash.slice(1) : hash;
    return HASH_SET.has(name)
      ? { kind: "screen", screen: name as HashScreen, via: "hash" }
      : { kind: "not-found" };
  }
  if (!path.startsWith(`${BASE_PATH}/`)) return { kind: "not-found" };
  const rest = path.slice(BASE_PATH.length + 1);
  if (PATH_SET.has(rest)) return { kind: "screen", screen: rest as PathScreen, via: "path" };
  const invite = /^invite\/([^/]+)$/.exec(rest);
  if (invite?.[1] && INVITE_CODE.test(invite[1])) {
    return { kind: "screen", screen: "invite", via: "path", inviteCode: invite[1] };
  }
  return { kind: "not-found" };
}

export type QueryInput =
  | string
  | URLSearchParams
  | Readonly<Record<string, string | number | boolean | null | undefined>>;

/** A search string ("?a=b", or "" when empty); false, null, undefined and "" values are left out. */
export function toSearch(query: QueryInput | undefined): string {
  if (query === undefined) return "";
  let params: URLSearchParams;
  if (typeof query === "string" || query instanceof URLSearchParams) {
    params = new URLSearchParams(query);
  } else {
    params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value === null || value === undefined || value === false || value === "") continue;
      params.set(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * The URL of a screen: /cart/<screen> for path pages, /cart?query#<screen> for hash routes.
 * plans and checkout_summary exist in both forms: the path form unless `via: "hash"` is asked
 * for. A form the screen does not have is ignored.
 */
export function hrefFor(
  screen: ScreenId,
  query?: QueryInput,
  options: { via?: "hash" | "path" } = {},
): string {
  const search = toSearch(query);
  const usePath = PATH_SET.has(screen) && (options.via !== "hash" || !HASH_SET.has(screen));
  return usePath ? `${BASE_PATH}/${screen}${search}` : `${BASE_PATH}${search}#${screen}`;
}

/**
 * The page name that decideRedirect (spec 2.5) knows a screen by. The auth screen is where a
 * visitor signs in, so it counts as the sign-in page; every other screen goes by its own name.
 */
export function pageName(screen: ScreenId): string {
  return screen === "auth" ? "sign-in" : screen;
}

/** Whether a screen needs a signed-in user: anything not public (spec 2.5), invitations never. */
export function requiresLogin(screen: ScreenId): boolean {
  const page = pageName(screen);
  return (
    !(PUBLIC_PAGES as readonly string[]).includes(page) &&
    !(INVITE_PAGES as readonly string[]).includes(page)
  );
}

/** Where the app runs: on its own, in the hub's iframe, or opened from the browser extension. */
export type AppHost = "standalone" | "hub" | "extension";

/** The extension flow wins: the extension may open the checkout inside a frame of its own. */
export function detectHost(facts: {
  inFrame: boolean;
  query: { flow: string | null; origin: string | null };
}): AppHost {
  if (isExtensionFlow(facts.query)) return "extension";
  return facts.inFrame ? "hub" : "standalone";
}

/**
 * The URL to replace the current one with so the order summary shows in its form for this host,
 * or null to keep it (spec 2.2: inside the hub frame the summary's hash route replaces the
 * browser-path one, in the extension the browser path replaces the hash route). Standalone, both
 * forms are kept. The query is carried over.
 */
export function summaryReplacement(
  route: Route,
  host: AppHost,
  location: { search: string },
): string | null {
  if (route.kind !== "screen" || route.screen !== "checkout_summary") return null;
  const wanted = host === "hub" ? "hash" : host === "extension" ? "path" : route.via;
  if (wanted === route.via) return null;
  return hrefFor("checkout_summary", location.search, { via: wanted });
}
