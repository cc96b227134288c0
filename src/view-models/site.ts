// The shared chrome of every static page (spec 2.6): the logged-out header and the footer.
// Pages are anonymous and prerendered, so the header is always the logged-out one.
import { checkoutHref, type Link } from "./checkout-links.ts";

export const SITE_NAME = "Video Editor";

export type HeaderModel = {
  brand: string;
  /** The logo links to the site root. */
  home: Link;
  /** Logged out, the header says Pricing rather than Plans (spec 2.6). */
  nav: Link[];
  /** Sign-up links for the personal, business and education tiers. */
  signUp: Link[];
  login: Link;
};

export type FooterModel = {
  /** Year at build time; an inline snippet replaces it with the visitor's current year. */
  year: number;
  owner: string;
  /** Terms of use and privacy: each opens in a new tab. */
  legal: Link[];
};

export function headerModel(): HeaderModel {
  return {
    brand: SITE_NAME,
    home: { href: "/", label: `${SITE_NAME} home` },
    nav: [
      { href: "/pricing", label: "Pricing" },
      { href: "/plans", label: "Plans" },
      { href: "/faq", label: "FAQ" },
    ],
    signUp: [
      { href: checkoutHref({ tier: "personal", route: "signup" }), label: "Personal" },
      { href: checkoutHref({ tier: "business", route: "signup" }), label: "Business" },
      { href: checkoutHref({ tier: "education", route: "signup" }), label: "Education" },
    ],
    login: { href: "/sign-in", label: "Log in" },
  };
}

export function footerModel(nowMs: number): FooterModel {
  return {
    year: new Date(nowMs).getUTCFullYear(),
    owner: SITE_NAME,
    legal: [
      { href: "/terms-of-use", label: "Terms of use" },
      { href: "/privacy", label: "Privacy" },
    ],
  };
}
