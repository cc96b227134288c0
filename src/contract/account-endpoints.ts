// The account page's own calls (issue 34, not in spec section 7): entries of the route table like
// those of endpoints.ts, in a module of their own because only the account page's chunk calls
// them, while endpoints.ts is in the checkout's first load, whose JavaScript budget
// (e2e/cart/budgets.spec.ts) has no bytes to spare. `index.ts` adds them to `api` with the rest.
import type { Route } from "./endpoints.ts";

export const accountEndpoints = {
  /** How the account pays. */
  paymentMethod: { method: "GET", path: "/api/5/payment/method", auth: true },
  /** The team owner's invitation link. */
  teamInvite: { method: "POST", path: "/api/5/team/invite", auth: true },
  /** The owner's team members. */
  teamMembers: { method: "GET", path: "/api/5/team/members", auth: true },
  /** The owner removes a member; their seat is free at once. */
  removeTeamMember: {
    method: "DELETE",
    path: "/api/5/team/members/:id",
    auth: true,
    accountLock: "always",
  },
} as const satisfies Record<string, Route>;
