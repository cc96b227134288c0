// The static pages' own calls (issue 36): entries of the route table like those of endpoints.ts,
// in a module of their own because no checkout screen calls them, while endpoints.ts is in the
// checkout's first load, whose JavaScript budget (e2e/cart/budgets.spec.ts) has no bytes to
// spare (decision 0085). `index.ts` adds them to `api` with the rest.
import type { Route } from "./endpoints.ts";

export const pageEndpoints = {
  /**
   * The static pages' beacon (decision 0089), sent when a visitor sees the prices of running
   * price experiments; the server records each exposure in the group it works out itself.
   */
  experimentExposures: {
    method: "POST",
    path: "/api/4/experiments/exposures",
    limit: "exposuresPerIp",
  },
} as const satisfies Record<string, Route>;
