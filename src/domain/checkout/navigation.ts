// What the checkout does when a route shows (spec 2.5): stay, go to another page of this site,
// leave for a school district's own page, or stop. One pure decision over the parsed route, the
// session and the query; the router performs it. The rules themselves are decideRedirect's
// (account/redirects.ts); this adds what the app knows: which page a route is, the redirect back
// after sign-in, and the extension's parameters. Every same-site target passes safeRedirectPath.

import type { SchoolDistrictRule } from "../account/email-rules.ts";
import { decideRedirect, type RedirectUser, safeRedirectPath } from "../account/redirects.ts";
import { type CheckoutQuery, isExtensionFlow, withExtensionParams } from "./query.ts";
import { hrefFor, pageName, type Route } from "./screens.ts";

export type NavigationInput = {
  route: Route;
  query: CheckoutQuery;
  /** Path, query and hash of the page now ("/cart?p=buy#checkout"), for the redirect back. */
  currentUrl: string;
  isAuth: boolean;
  /** The signed-in user's facts; null for a visitor (or before they are known). */
  user: RedirectUser | null;
  /** The school districts of the catalogue (accounts.yaml); none by default. */
  districts?: readonly SchoolDistrictRule[];
};

export type NavigationDecision =
  | { kind: "stay" }
  /** A path of this site: "/sign-in?redirect=…", "/cart#upgrades-disabled". */
  | { kind: "go"; to: string }
  /** A school district's dedicated page (https, from the catalogue, never from the URL). */
  | { kind: "leave"; to: string }
  | { kind: "stop"; reason: "blocked_domain" };

/** A redirect-back address longer than this is replaced by the screen's own address. */
const MAX_RETURN_LENGTH = 1000;

/** Where sign-in sends the visitor back to: this page if it is a safe path, else its screen. */
function returnAddress(input: NavigationInput): string {
  const here = safeRedirectPath(input.currentUrl);
  if (here !== null && here.length <= MAX_RETURN_LENGTH) return here;
  const { route, query } = input;
  return route.kind === "screen"
    ? hrefFor(route.screen, { p: query.p, product: query.product, plan: query.plan })
    : "/cart";
}

function isDistrictPage(to: string, districts: readonly SchoolDistrictRule[]): boolean {
  if (!/^https:\/\//i.test(to)) return false;
  return districts.some((district) => district.studentUrl === to || district.staffUrl === to);
}

export function decideNavigation(input: NavigationInput): NavigationDecision {
  const { route, query } = input;
  // The not-found screen shows to everyone: there is nothing to sign in for.
  if (route.kind !== "screen") return { kind: "stay" };
  const districts = input.districts ?? [];
  const decision = decideRedirect({
    page: pageName(route.screen),
    isAuth: input.isAuth,
    currentUrl: returnAddress(input),
    query: {
      p: query.p,
      product: query.product,
      plan: query.plan,
      tier: query.tier,
      validateEduEmail: query.validateEduEmail ? "true" : null,
    },
    user: input.user,
    districts,
  });
  if (decision.kind !== "redirect") return decision;
  if (isDistrictPage(decision.to, districts)) return { kind: "leave", to: decision.to };
  const target = safeRedirectPath(decision.to);
  // Only a district page that is not https can fail here (a catalogue mistake): the person
  // keeps the page rather than being sent somewhere unchecked.
  if (target === null) return { kind: "stay" };
  const to = isExtensionFlow(query) ? withExtensionParams(target) : target;
  // Already there (the redirect would loop).
  if (to === input.currentUrl) return { kind: "stay" };
  return { kind: "go", to };
}

/**
 * Where to go once the visitor has signed in (on /cart/login or the auth screen): the checked
 * redirect-back parameter, else the location of flowParameters, else the fallback. In the
 * extension the extension's parameters are kept.
 */
export function returnAfterSignIn(query: CheckoutQuery, fallback = hrefFor("plans")): string {
  const target = query.redirect ?? query.flowParameters?.location ?? fallback;
  return isExtensionFlow(query) ? withExtensionParams(target) : target;
}
