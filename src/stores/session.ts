// Signing in and up from the checkout's own screens. Afterwards start-up runs again (the session
// changed), then the visitor goes back where they came from (the checked redirect parameter or
// flowParameters' location) with the product they chose still in the URL.
import { atom } from "nanostores";
import type { ApiFailure } from "../client/client.ts";
import { endpoints } from "../contract/endpoints.ts";
import { returnAfterSignIn } from "../domain/checkout/navigation.ts";
import { hrefFor } from "../domain/checkout/screens.ts";
import { api } from "./api.ts";
import { initApp } from "./app.ts";
import { $location, $query, navigate } from "./router.ts";

export const $sessionForm = atom<{ busy: boolean; error: ApiFailure | null }>({
  busy: false,
  error: null,
});

/**
 * Where a visitor goes once signed up or in, when no page asked to be returned to: the plan or
 * trial they chose (the free plan is no purchase), else `otherwise`.
 */
function chosenOr(otherwise: string): string {
  const query = $query.get();
  return query.p && query.productCode && query.productCode !== "wv_free"
    ? hrefFor("checkout", { p: query.p, product: query.productCode, tier: query.tier })
    : otherwise;
}

async function afterSession(fallback: string): Promise<void> {
  const query = $query.get();
  const { search } = $location.get();
  await initApp.run({ search, referrer: "" });
  navigate(returnAfterSignIn(query, fallback), { replace: true });
}

export async function signIn(email: string, password: string): Promise<void> {
  $sessionForm.set({ busy: true, error: null });
  const result = await api().call(endpoints.signIn, { body: { email, password } });
  if (!result.ok) {
    $sessionForm.set({ busy: false, error: result.error });
    return;
  }
  $sessionForm.set({ busy: false, error: null });
  await afterSession(chosenOr(hrefFor("plans")));
}

export async function signUp(details: {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}): Promise<void> {
  $sessionForm.set({ busy: true, error: null });
  const result = await api().call(endpoints.signUp, { body: details });
  if (!result.ok) {
    $sessionForm.set({ busy: false, error: result.error });
    return;
  }
  $sessionForm.set({ busy: false, error: null });
  // Back to the page the visitor came from (the redirect parameter wins), else the plan they
  // chose; anyone else, the free plan's sign-up too, sees their new account.
  await afterSession(chosenOr(hrefFor("free-account-completed", undefined, { via: "hash" })));
}
