// The SELLER_* settings a test gives a server that is not a local run (config.ts refuses to start
// one without them: every invoice names the seller).
export const DEPLOYED_SELLER = {
  SELLER_NAME: "Acme Video Ltd",
  SELLER_ADDRESS: "2 Harbour Road; Dublin D04 Y123",
  SELLER_COUNTRY: "IE",
  SELLER_TAX_ID: "IE3668997OH",
} as const;
