// The purchase screens are chunks of their own, outside the first load that the 90 KB budget
// covers (e2e/cart/budgets.spec.ts). Their download starts as soon as this module runs, in
// parallel with start-up, so showing one never waits for a second round trip after start-up;
// ScreenView renders them inside Suspense, whose fallback is the loader.
import { type ComponentType, lazy } from "react";

// biome-ignore lint/suspicious/noExplicitAny: each screen declares its own props.
type Screens = Record<string, ComponentType<any>>;

function from<M extends Screens, K extends keyof M & string>(load: () => Promise<M>, name: K) {
  return lazy(() => load().then((m) => ({ default: m[name] as M[K] })));
}

/** Starts the download now; the screen resolves from the same promise when it is shown. */
function early<M>(load: () => Promise<M>): () => Promise<M> {
  const loading = load();
  return () => loading;
}

const plans = early(() => import("./PlansScreen.tsx"));
const checkout = early(() => import("./CheckoutScreen.tsx"));
const completed = early(() => import("./CompletedScreens.tsx"));
const session = early(() => import("./SessionScreens.tsx"));

export const PlansScreen = from(plans, "PlansScreen");
export const CheckoutScreen = from(checkout, "CheckoutScreen");
export const PaymentCompletedScreen = from(completed, "PaymentCompletedScreen");
export const AccountReadyScreen = from(completed, "AccountReadyScreen");
export const SignInScreen = from(session, "SignInScreen");
export const SignUpScreen = from(session, "SignUpScreen");
