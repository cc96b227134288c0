// What buying a plan does to an account that already pays for one (issue 7, item 8). A change is
// applied at once only when it loses the customer nothing: the credit for the unused part of the
// current period fits inside the new first term, and no seat goes away. Anything else (a cheaper
// plan, a shorter term, fewer seats) is a downgrade: it is scheduled for the end of the period
// already paid, nothing is charged now, and the customer keeps what they paid for until then.
// docs/decisions/0012-downgrades-at-period-end.md says why this and not an account credit.

export type PlanChangeKind =
  /** No running paid period: the purchase starts now at the full price. */
  | "new"
  /** The account has exactly this product and seat count already. */
  | "same"
  /** Applied now; the unused part of the current period is credited. */
  | "upgrade"
  /** Applied when the current period ends; nothing is charged now. */
  | "downgrade";

export type PlanChangeInput = {
  /** The running paid period, or null. `creditCents` is its unused part, not capped. */
  current: { productCode: string; seats: number; creditCents: number } | null;
  /** The product the account would have and the price of its first term before any credit. */
  target: { productCode: string; seats: number; firstTermCents: number };
};

export function classifyPlanChange({ current, target }: PlanChangeInput): PlanChangeKind {
  if (current === null) return "new";
  if (current.productCode === target.productCode && current.seats === target.seats) return "same";
  if (target.seats < current.seats) return "downgrade";
  if (current.creditCents > target.firstTermCents) return "downgrade";
  return "upgrade";
}

/**
 * The seats a team workspace needs, or null when the target fits: a plan change can never leave
 * fewer seats than members in use (the owner counts as one), and a one-person plan cannot hold a
 * team that has members besides its owner.
 */
export function seatsInUseShortfall(input: {
  /** Approved members of the workspace the account owns, owner included; 0 without one. */
  usedSeats: number;
  targetMultiUser: boolean;
  targetSeats: number;
}): { needed: number } | null {
  const { usedSeats, targetMultiUser, targetSeats } = input;
  if (usedSeats <= 1) return null;
  if (!targetMultiUser || targetSeats < usedSeats) return { needed: usedSeats };
  return null;
}
