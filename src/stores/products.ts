// The products store of spec 3.8: the account's product payload (3.3) and the plan options
// (products, essentials plan, trial product, price-testing group). Product lists are cached for
// the page's life (spec 7); a successful card payment reloads product info (payment.ts).
import { atom } from "nanostores";
import type { z } from "zod";
import type { ApiResult } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import type { OptionsQuery, OptionsResponse, ProductsPayload } from "../contract/products.ts";
import { api } from "./api.ts";
import { operation } from "./operation.ts";

export const $productInfo = atom<ProductsPayload | null>(null);

export const loadProducts = operation("products", () => api().call(endpoints.products), {
  onSuccess(payload) {
    $productInfo.set(payload);
  },
});

type OptionsFilter = { tier?: string; trial?: boolean; promoId?: string };
export type Options = z.output<typeof OptionsResponse>;

export function fetchOptions(filter: OptionsFilter): Promise<ApiResult<Options>> {
  const query: z.input<typeof OptionsQuery> = { new: "true", newCart: "true" };
  if (filter.tier) query.tier = filter.tier;
  if (filter.trial) query.trial = "true";
  if (filter.promoId) query.promoId = filter.promoId;
  return api().call(endpoints.paymentOptions, { query });
}

const optionsCache = new Map<string, Options>();
export const $options = atom<Options | null>(null);

export const loadOptions = operation(
  "options",
  async (filter?: OptionsFilter): Promise<ApiResult<Options>> => {
    const key = JSON.stringify(filter ?? {});
    const cached = optionsCache.get(key);
    if (cached) return { ok: true as const, value: cached, status: 200 };
    const result = await fetchOptions(filter ?? {});
    if (result.ok) optionsCache.set(key, result.value);
    return result;
  },
  {
    onSuccess(options) {
      $options.set(options);
    },
  },
);

/** After a purchase the current plan changed: the cached options are stale. */
export function forgetOptions(): void {
  optionsCache.clear();
}
