// The redirect rules of spec 2.5, applied to every route once start-up has finished: the pure
// decision is domain/checkout/navigation.ts; this reads the stores and performs it.
import { computed } from "nanostores";
import { educationEmailRequired } from "../domain/account/email-rules.ts";
import { parseFeatures, requiresEmailVerification } from "../domain/account/features.ts";
import type { RedirectUser } from "../domain/account/redirects.ts";
import { decideNavigation, type NavigationDecision } from "../domain/checkout/navigation.ts";
import type { CheckoutQuery } from "../domain/checkout/query.ts";
import { $app } from "./app.ts";
import { $productInfo } from "./products.ts";
import { $location, $query, $route, navigate } from "./router.ts";
import { $user, type UserState } from "./user.ts";

function redirectUser(u: UserState, query: CheckoutQuery, features: string): RedirectUser {
  return {
    email: u.userEmail,
    domainStatus: u.domainStatus,
    productIsFree: u.productCode === "wv_free",
    disableAccountUpgrades: u.disableAccountUpgrades,
    mobileOrWalletBlocked: u.upgradesDisabled && (u.itunesSubscription || u.androidSubscription),
    mustValidateEducationEmail: educationEmailRequired({ ...u, query }),
    educationEmailValid: u.teacherEmailWasValidated ? !u.invalidTeacherEmail : null,
    allowedThrough: false,
    mustVerifyEmail: requiresEmailVerification(parseFeatures(features), u.emailVerified),
  };
}

/** What the rules say about the current route; "stay" until start-up has finished. */
export const $navigation = computed(
  [$app, $user, $route, $query, $location, $productInfo],
  (app, user, route, query, location, info): NavigationDecision => {
    if (!app.loaded) return { kind: "stay" };
    return decideNavigation({
      route,
      query,
      currentUrl: `${location.pathname}${location.search}${location.hash}`,
      isAuth: user.isAuth,
      user: user.isAuth ? redirectUser(user, query, info?.Features ?? "") : null,
      districts: user.schoolDistricts,
    });
  },
);

/** Performs each decision as it changes; returns the function that stops. */
export function startGuard(leave: (url: string) => void): () => void {
  return $navigation.subscribe((decision) => {
    if (decision.kind === "go") navigate(decision.to, { replace: true });
    else if (decision.kind === "leave") leave(decision.to);
  });
}
