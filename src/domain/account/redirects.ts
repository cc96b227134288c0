// Redirect rules of spec section 2.5, as one pure decision over the page, the session and the
// account facts. The caller (the checkout's router) performs the navigation.
import { districtRedirect, type SchoolDistrictRule } from "./email-rules.ts";

/** Pages that anonymous visitors may see (spec 2.5); the invitation pages never redirect. */
export const PUBLIC_PAGES = [
  "plans",
  "sign-up",
  "signup",
  "home",
  "sign-in",
  "login",
  "new-password",
  "what-for",
  "what-role",
  "about-you",
  "template-redirect",
  "segmentation-info-redirect",
] as const;

export const INVITE_PAGES = ["invite"] as const;

/** Pages where account rules (upgrades disabled, education e-mail) are not applied. */
const ACCOUNT_RULE_EXEMPT = new Set<string>([
  ...PUBLIC_PAGES.filter((p) => p !== "plans"),
  "upgrades-disabled",
  "invalid-email",
  "expired-account",
]);

export type RedirectUser = {
  email: string;
  domainStatus: string | null;
  productIsFree: boolean;
  disableAccountUpgrades: boolean;
  /** Upgrades are disabled and the account has a mobile-store or wallet subscription. */
  mobileOrWalletBlocked: boolean;
  /** The education e-mail must be checked here (teacher plan, trial needing activation, URL flag). */
  mustValidateEducationEmail: boolean;
  /** Result of the teacher e-mail check; null when not checked. */
  educationEmailValid: boolean | null;
  /** Whether this user may continue with an unverified education e-mail anyway. */
  allowedThrough: boolean;
};

export type RedirectInput = {
  page: string;
  isAuth: boolean;
  /** The path, query and hash of the current page, for the redirect back after sign-in. */
  currentUrl: string;
  query: {
    p?: string | null;
    product?: string | null;
    plan?: string | null;
    tier?: string | null;
    validateEduEmail?: string | null;
  };
  user: RedirectUser | null;
  districts: readonly SchoolDistrictRule[];
};

export type RedirectDecision =
  | { kind: "stay" }
  | { kind: "redirect"; to: string }
  | { kind: "stop"; reason: "blocked_domain" };

function withQuery(path: string, params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== "") search.set(key, value);
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

function signIn(currentUrl: string): string {
  return withQuery("/sign-in", { redirect: currentUrl });
}

export function decideRedirect(input: RedirectInput): RedirectDecision {
  const { page, isAuth, query } = input;
  if ((INVITE_PAGES as readonly string[]).includes(page)) return { kind: "stay" };
  if (page === "rce") {
    if (!isAuth) return { kind: "redirect", to: signIn(input.currentUrl) };
  }
  const isPublic = (PUBLIC_PAGES as readonly string[]).includes(page);
  if (!isAuth || !input.user) {
    if (isPublic) return { kind: "stay" };
    // A visitor who came to buy or start a trial is new more often than not: the plans page's
    // sign-up tab keeps the chosen product; anyone else signs in and comes back.
    if (query.p) {
      return {
        kind: "redirect",
        to: withQuery("/cart/plans", {
          tab: "signup",
          p: query.p,
          product: query.product,
          plan: query.plan,
          tier: query.tier,
        }),
      };
    }
    return { kind: "redirect", to: signIn(input.currentUrl) };
  }
  const user = input.user;
  if (user.domainStatus === "blocked") return { kind: "stop", reason: "blocked_domain" };
  if (ACCOUNT_RULE_EXEMPT.has(page)) return { kind: "stay" };
  if (user.disableAccountUpgrades || user.mobileOrWalletBlocked) {
    return { kind: "redirect", to: "/cart#upgrades-disabled" };
  }
  const district = districtRedirect(user.email, input.districts, user.productIsFree);
  if (district) return { kind: "redirect", to: district };
  if (
    user.mustValidateEducationEmail &&
    user.educationEmailValid === false &&
    !user.allowedThrough
  ) {
    return {
      kind: "redirect",
      to: withQuery("/cart/invalid-email", {
        p: query.p === "trial" ? "trial" : "buy",
        tier: "education",
        product: query.product,
        plan: query.plan,
        validateEduEmail: query.validateEduEmail === "true" ? "true" : null,
      }),
    };
  }
  return { kind: "stay" };
}
