// Every plan the account may be shown, across the tiers: the checkout finds the plan of its URL
// here (loaded with the checkout's chunk, not on the first load of /cart).
import { atom } from "nanostores";
import type { ApiResult } from "../client/client.ts";
import { operation } from "./operation.ts";
import { fetchOptions, forgetOptions, type Options } from "./products.ts";

const TIERS = ["personal", "business", "education"] as const;

export const $allPlans = atom<Options["products"] | null>(null);

export const loadAllPlans = operation(
  "options",
  async (): Promise<ApiResult<Options["products"]>> => {
    const results = await Promise.all(TIERS.map((tier) => fetchOptions({ tier })));
    const plans: Options["products"] = [];
    for (const result of results) {
      if (!result.ok) return result;
      for (const plan of result.value.products) {
        if (!plans.some((p) => p.code === plan.code)) plans.push(plan);
      }
    }
    return { ok: true as const, value: plans, status: 200 };
  },
  {
    onSuccess(plans) {
      $allPlans.set(plans);
    },
  },
);

/** After a purchase: the account's current plan changed, so every plan list is stale. */
export function forgetPlans(): void {
  forgetOptions();
  $allPlans.set(null);
}
