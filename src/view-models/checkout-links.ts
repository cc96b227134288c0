// Links from the static pages into the checkout app under /cart (spec 2.1 and 2.4): the buy or
// trial context `p`, the product code and the tier travel as query parameters, the screen as the
// hash. Every call to action of the plans pages is built here.

export type Link = { href: string; label: string };

/** The checkout screens the static pages open (hash routes of spec 2.1). */
export type CheckoutRoute = "checkout" | "checkout_single_export" | "signup";

export type CheckoutTarget = {
  /** Buy or trial context; omitted for a plain sign-up. */
  p?: "buy" | "trial";
  product?: string;
  tier: string;
  route?: CheckoutRoute;
};

/** `/cart?p=buy&product=wv_single_12m&tier=personal#checkout` */
export function checkoutHref({ p, product, tier, route = "checkout" }: CheckoutTarget): string {
  const params = new URLSearchParams();
  if (p !== undefined) params.set("p", p);
  if (product !== undefined) params.set("product", product);
  params.set("tier", tier);
  return `/cart?${params.toString()}#${route}`;
}

/** The quote request for more seats than can be ordered online (spec 2.3). */
export function quoteHref(seats: number): string {
  return `/orders?seats=${seats}`;
}
