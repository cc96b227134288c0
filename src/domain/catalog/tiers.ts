// The tiers of spec section 4, without the catalogue's schemas: the checkout's browser code
// (trial selection, tier fallbacks) reads them and must not load zod for it.
export const TIERS = [
  "personal",
  "business",
  "education",
  "professional",
  "unlimited",
  "playposit",
] as const;
