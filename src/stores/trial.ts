// Starting a free trial from a trial link (/cart?p=trial&product=…#checkout): which trial the
// link asks for (domain/checkout/trial.ts), its name and length from the plan options, and the
// start itself (spec 7: POST /api/3/payment/activatefreetrial {vertical, instanceName}). After a
// start the account's context and product info are read again (the plan changed), then the
// person lands on the trial's completed screen (docs/decisions/0021-trial-landing.md).
import type { ApiResult } from "../client/client.ts";
import { educationEmailRequired } from "../domain/account/email-rules.ts";
import { resolveTier } from "../domain/account/tier.ts";
import { hrefFor } from "../domain/checkout/screens.ts";
import { type TrialTarget, trialTarget } from "../domain/checkout/trial.ts";
import { newIdempotencyKey } from "./api.ts";
import { operation } from "./operation.ts";
import { startFreeTrial } from "./payment.ts";
import { fetchOptions, forgetOptions, loadProducts, type Options } from "./products.ts";
import { $query, navigate } from "./router.ts";
import { $user, loadContext, verifyTeacherEmail } from "./user.ts";

/** The trial a link offers (null: the plan has none) and the trial product's name and length. */
export type TrialOffer = { target: TrialTarget | null; trial: Options["trialProduct"] };

async function fetchOffer(): Promise<ApiResult<TrialOffer>> {
  const query = $query.get();
  // The plans of the link's tier hold the link's plan, whose own tier picks the trial.
  const listed = await fetchOptions({
    tier: resolveTier({ tier: query.tier, productCode: query.productCode }),
  });
  if (!listed.ok) return listed;
  const target = trialTarget(query, listed.value.products);
  if (!target) return { ok: true, value: { target, trial: null }, status: 200 };
  const options = await fetchOptions({ tier: target.vertical, trial: true });
  if (!options.ok) return options;
  return { ok: true, value: { target, trial: options.value.trialProduct }, status: 200 };
}

/** What the trial screen shows: loading, then the offer, or the failure with a retry. */
export const loadTrialOffer = operation("options", fetchOffer);

/**
 * Loads what the trial screen shows. An education trial needs a school address the owner has
 * verified: when the check has not run yet (the link was followed inside the app), it runs now,
 * and a failure sends the person to the invalid-email page (stores/guard.ts).
 */
export function openTrial(): void {
  const user = $user.get();
  if (!user.teacherEmailWasValidated && educationEmailRequired({ ...user, query: $query.get() })) {
    void verifyTeacherEmail.run();
  }
  void loadTrialOffer.run();
}

/**
 * Starts the trial once: the button is disabled while the call runs, and a second press joins
 * it. The idempotency key makes a retry after a lost answer start nothing twice.
 */
export async function startTrial(instanceName: string): Promise<void> {
  const offer = loadTrialOffer.$state.get();
  const target = offer.status === "success" ? offer.value.target : null;
  if (!target || startFreeTrial.$state.get().status === "started") return;
  const name = instanceName.trim();
  const result = await startFreeTrial.run(
    target.vertical,
    target.asksWorkspace && name ? name : null,
    newIdempotencyKey(),
  );
  if (!result.ok) return;
  // The plans screen marks the current plan: its lists are stale now. (The checkout's own list
  // reads no current plan, and loading it here would put it in this chunk.)
  forgetOptions();
  await Promise.all([loadContext.run(), loadProducts.run()]);
  navigate(hrefFor(target.landing, { product: result.value.productCode }, { via: "hash" }));
}
