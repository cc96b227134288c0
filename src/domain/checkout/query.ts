// The query parameters the checkout reads (spec 2.4), parsed once into a typed object. Every value
// comes from a URL anyone can craft, so each is checked here: product codes and tokens keep to a
// safe alphabet, free text is bounded, and every redirect target goes through safeRedirectPath.
import { safeRedirectPath } from "../account/redirects.ts";
import type { ResolutionFilter } from "../pricing/plan-filters.ts";
import { decodeFlowParameters, type FlowParameters } from "./flow-parameters.ts";

export type { FlowParameters, JsonValue } from "./flow-parameters.ts";
export { decodeFlowParameters, MAX_FLOW_PARAMETERS_LENGTH } from "./flow-parameters.ts";

export type CheckoutQuery = {
  /** Buy or trial context. */
  p: "buy" | "trial" | null;
  product: string | null;
  plan: string | null;
  /** The product asked for: product, else plan (spec 2.4 "product or plan"). */
  productCode: string | null;
  /** As given; resolveTier (account/tier.ts) applies the fallbacks of spec section 4. */
  tier: string | null;
  flowParameters: FlowParameters | null;
  premium: boolean;
  /** Product codes, or ["all"]. */
  availableProducts: string[];
  ctv: string | null;
  minutes: number | null;
  productCodes: string[];
  /** The strictest of 720=true, 1080=true, 2160=true (it satisfies all that are set). */
  resolution: ResolutionFilter | null;
  flow: string | null;
  origin: string | null;
  essential: boolean;
  modal: boolean;
  avoidRedirecting: boolean;
  templateId: string | null;
  validateEduEmail: boolean;
  /** Reset-password verification code and e-mail (spec 2.7). */
  vc: string | null;
  email: string | null;
  tab: string | null;
  /** The redirect-back target after sign-in, already checked: a path of this site or null. */
  redirect: string | null;
};

const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const TOKEN = /^[A-Za-z0-9_-]{1,128}$/;
// Control characters, Unicode spaces other than the ASCII space, and format (bidi) characters:
// never part of a value a person typed or a link we sent.
const UNSAFE_TEXT = /[\p{Cc}\p{Cf}\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

function code(value: string | null): string | null {
  return value !== null && CODE.test(value) ? value : null;
}

function token(value: string | null): string | null {
  return value !== null && TOKEN.test(value) ? value : null;
}

function text(value: string | null, max: number): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  return trimmed !== "" && trimmed.length <= max && !UNSAFE_TEXT.test(trimmed) ? trimmed : null;
}

/** A flag is on for "true", "1" or a bare key ("?modal"); anything else is off. */
function flag(value: string | null): boolean {
  return value === "true" || value === "1" || value === "";
}

function codeList(value: string | null): string[] {
  if (value === null) return [];
  const codes = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => CODE.test(item));
  return [...new Set(codes)].slice(0, 100);
}

function minutes(value: string | null): number | null {
  if (value === null || !/^\d{1,6}(\.\d{1,3})?$/.test(value.trim())) return null;
  return Number(value.trim());
}

function resolution(params: URLSearchParams): ResolutionFilter | null {
  const set = (["2160", "1080", "720"] as const).find((key) => flag(params.get(key)));
  return set ?? null;
}

export type ParseQueryOptions = {
  /** The site's origin, so an absolute URL of this site is accepted as a redirect target. */
  ownOrigin?: string;
};

/** The query parameters of spec 2.4 from a search string ("?p=buy&..." or "p=buy&..."). */
export function parseCheckoutQuery(search: string, options: ParseQueryOptions = {}): CheckoutQuery {
  const params = new URLSearchParams(search);
  const get = (key: string) => params.get(key);
  const p = get("p");
  const product = code(get("product"));
  const plan = code(get("plan"));
  const encodedFlow = get("flowParameters");
  const redirect = get("redirect");
  return {
    p: p === "buy" || p === "trial" ? p : null,
    product,
    plan,
    productCode: product ?? plan,
    tier: token(get("tier")),
    flowParameters:
      encodedFlow === null ? null : decodeFlowParameters(encodedFlow, options.ownOrigin),
    premium: flag(get("premium")),
    availableProducts: codeList(get("availableProducts")),
    ctv: text(get("ctv"), 200),
    minutes: minutes(get("minutes")),
    productCodes: codeList(get("productCodes")),
    resolution: resolution(params),
    flow: token(get("flow")),
    origin: token(get("origin")),
    essential: flag(get("essential")),
    modal: flag(get("modal")),
    avoidRedirecting: flag(get("avoidRedirecting")),
    templateId: token(get("templateId")),
    validateEduEmail: flag(get("validateEduEmail")),
    vc: text(get("vc"), 512),
    email: text(get("email"), 320),
    tab: token(get("tab")),
    redirect: redirect === null ? null : safeRedirectPath(redirect, options.ownOrigin),
  };
}

/** The extension flow: flow=extension or origin=rce (spec 2.4). */
export function isExtensionFlow(query: { flow: string | null; origin: string | null }): boolean {
  return query.flow === "extension" || query.origin === "rce";
}

const EXTENSION_PARAMS = { origin: "rce", flow: "extension", avoidRedirecting: "true" } as const;

/**
 * The same link with the extension's parameters (spec 2.4: in the extension, navigation adds
 * origin=rce, flow=extension and avoidRedirecting), so the flow survives every step. Works on
 * paths ("/cart?p=buy#checkout") and absolute URLs; the hash stays last.
 */
export function withExtensionParams(href: string): string {
  const base = "http://same-site.invalid";
  let url: URL;
  try {
    url = new URL(href, base);
  } catch {
    return href;
  }
  const isPath = url.origin === base && href.startsWith("/");
  // Anything else ("//host", "mailto:") is not a link of ours to extend: left as it is.
  if (!isPath && !/^https?:\/\//i.test(href)) return href;
  for (const [key, value] of Object.entries(EXTENSION_PARAMS)) url.searchParams.set(key, value);
  return isPath ? `${url.pathname}${url.search}${url.hash}` : url.href;
}
