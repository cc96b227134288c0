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
  "forgot-password",
  "what-for",
  "what-role",
  "about-you",
  "template-redirect",
  "segmentation-info-redirect",
] as const;

export const INVITE_PAGES = ["invite"] as const;

/**
 * Pages where account rules (upgrades disabled, education e-mail) are not applied: e-mail
 * activation among them, as the invalid-email page sends an unverified address there.
 */
const ACCOUNT_RULE_EXEMPT = new Set<string>([
  ...PUBLIC_PAGES.filter((p) => p !== "plans"),
  "upgrades-disabled",
  "invalid-email",
  "expired-account",
  "email-activation",
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
  /**
   * The product's features include TrialEmailVerification and the e-mail is not verified
   * (spec 4): the e-mail-activation step comes first (requiresEmailVerification, features.ts).
   */
  mustVerifyEmail?: boolean;
};

/**
 * Where an account that must verify its e-mail may still be: the activation step itself, the
 * trial's own confirmation and its cancellation (a trial is never held hostage by the step).
 */
const VERIFY_EMAIL_EXEMPT = new Set<string>([
  "email-activation",
  "cancel-trial",
  "free-account-completed",
  "edutrial-account-completed",
  "biztrial-account-completed",
]);

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

/**
 * The product's own pages (spec 2.2 and 2.3) that a redirect may land on: each path itself and
 * every page under it. Server endpoints (/api, /dev, /login) are never a redirect target, so a
 * crafted return address cannot replay a call or end a session.
 */
export const REDIRECT_PATHS = [
  "/cart",
  "/app",
  "/hub",
  "/plans",
  "/pricing",
  "/faq",
  "/sign-up",
  "/signup",
  "/sign-in",
  "/invite",
  "/newPassword",
  "/class",
  "/dash",
  "/terms-of-use",
  "/privacy",
  "/support",
  "/orders",
] as const;

const MAX_TARGET_LENGTH = 2000;
/** Resolves path-only targets; never appears in an answer. */
const PATH_ONLY_BASE = "http://same-site.invalid";

// Never allowed in a target, as sent or once percent-decoded: control characters (C0, DEL, C1;
// browsers drop tab and newline inside URLs, so "/\t/evil" becomes "//evil"), Unicode spaces and
// line separators, format characters (bidi and zero-width marks) and the backslash, which
// browsers read as a slash.
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Z}\\]/u;
/** What a Location header may carry: visible ASCII only, so the header can always be written. */
const HEADER_SAFE_PATH = /^\/(?![/\\])[\x21-\x7e]*$/;

function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // A stray "%" (as in "?off=100%") is not an escape: decode only the ASCII escapes there are.
    return text.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

/** The text and its successive percent-decodings; null when it is encoded more than 3 times over. */
function decodings(text: string): string[] | null {
  const forms = [text];
  let current = text;
  for (let round = 0; round < 4; round++) {
    const next = percentDecode(current);
    if (next === current) return forms;
    if (round === 3) return null;
    forms.push(next);
    current = next;
  }
  return forms;
}

function isOwnPage(pathname: string): boolean {
  return (
    pathname === "/" ||
    REDIRECT_PATHS.some((page) => pathname === page || pathname.startsWith(`${page}/`))
  );
}

/**
 * The one gate for redirect targets that come from outside (a return address, a redirect-back
 * parameter, a stored row). Turns `target` into a path of this site (path, query and hash) or
 * null. A target is either a path ("/cart#paypalCompleted") or, when `ownOrigin` is given, an
 * absolute http(s) URL of that origin. Refused: control characters, spaces, bidi marks and
 * backslashes (also percent-encoded), scheme-relative and "//" or "/\" paths (also encoded),
 * other schemes ("https:evil", "javascript:"), user info, other origins, and pages outside
 * REDIRECT_PATHS. The result holds visible ASCII only, so it is always safe in a Location header.
 */
export function safeRedirectPath(target: string, ownOrigin?: string): string | null {
  if (typeof target !== "string" || target.length === 0 || target.length > MAX_TARGET_LENGTH) {
    return null;
  }
  const forms = decodings(target);
  if (!forms || forms.some((form) => FORBIDDEN.test(form) || form.startsWith("//"))) return null;
  const absolute = /^https?:\/\//i.test(target);
  if (!target.startsWith("/") && !(absolute && ownOrigin)) return null;
  let origin: string;
  let url: URL;
  try {
    origin = new URL(ownOrigin ?? PATH_ONLY_BASE).origin;
    url = new URL(target, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.username !== "" || url.password !== "") return null;
  // "//" in the path, as sent or encoded ("/%2F%2Fevil"), is another host to some parsers.
  const pathForms = decodings(url.pathname);
  if (!pathForms || pathForms.some((form) => form.includes("//"))) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (!HEADER_SAFE_PATH.test(path) || !isOwnPage(url.pathname)) return null;
  return path;
}

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
    // sign-up tab keeps the chosen product, and the page itself (period, seats) to come back to
    // once signed up or in; anyone else signs in and comes back.
    if (query.p) {
      return {
        kind: "redirect",
        to: withQuery("/cart/plans", {
          tab: "signup",
          p: query.p,
          product: query.product,
          plan: query.plan,
          tier: query.tier,
          redirect: input.currentUrl,
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
  if (user.mustVerifyEmail && !VERIFY_EMAIL_EXEMPT.has(page)) {
    // With the page to come back to once verified: the trial or purchase it interrupted.
    return {
      kind: "redirect",
      to: `${withQuery("/cart", { redirect: input.currentUrl })}#email-activation`,
    };
  }
  return { kind: "stay" };
}
