// The plans screen's cards (issue 22, item 9): one card per plan. A plan sold in other terms than
// monthly and annual (Schools, 12 and 6 months) shows once: the account's current one, else the
// mode's term, else the longest. Its own module, so the checkout's chunk does not carry it.
import type { RequestMode } from "../pricing/terms.ts";
import { type PlanLike, plansForMode } from "./purchase.ts";

export function planCards<P extends PlanLike>(plans: readonly P[], mode: RequestMode): P[] {
  const shown = plansForMode(plans, mode);
  const term = mode === "monthly" ? 1 : 12;
  const rank = (p: P) =>
    (p.currentPlan ? 3 : p.termDuration === term ? 2 : 1) * 100 + p.termDuration;
  return shown.filter(
    (p, i) =>
      !shown.some(
        (q, j) =>
          j !== i &&
          q.name === p.name &&
          q.tier === p.tier &&
          (rank(q) > rank(p) || (rank(q) === rank(p) && j < i)),
      ),
  );
}
