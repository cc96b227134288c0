// The account's plan as the account page says it (domain/account/plan-words.ts), from the
// products payload.
import { computed } from "nanostores";
import { planWords } from "../domain/account/plan-words.ts";
import { $productInfo } from "./products.ts";

export const accountPlan = planWords;

export const $accountPlan = computed($productInfo, (info) => (info ? planWords(info) : null));
