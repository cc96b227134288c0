// Which screen a route shows. Every screen of spec 2.1 and 2.2 has its heading (SCREEN_TITLES)
// and its state wired to the stores; the purchase and account flows fill them in.
import { useStore } from "@nanostores/react";
import { type ComponentType, lazy, Suspense } from "react";
import type { Route, ScreenId } from "../../domain/checkout/screens.ts";
import { NOT_FOUND_TITLE, SCREEN_TITLES } from "../../domain/checkout/screens.ts";
import { $query } from "../../stores/router.ts";
import { reporter } from "../../stores/telemetry.ts";
import { Busy } from "./Frame.tsx";

// Each group of screens is its own chunk, loaded when one of its routes shows: a page loads the
// app's shell and the screens it needs, not every screen of the app (the 90 KB budget of
// scripts/cart-bundle.ts). A chunk that fails or takes over 120 s is reported (spec 8).
function screen<M, P>(name: string, chunk: () => Promise<M>, pick: (m: M) => ComponentType<P>) {
  return lazy(async () => ({ default: pick(await reporter.watchChunk(chunk(), { name })) }));
}

const plans = () => import("./PlansScreen.tsx");
const checkout = () => import("./CheckoutScreen.tsx");
const session = () => import("./SessionScreens.tsx");
const completed = () => import("./CompletedScreens.tsx");
const account = () => import("./AccountScreens.tsx");
const onboarding = () => import("./OnboardingScreens.tsx");
const other = () => import("./OtherScreens.tsx");
const trial = () => import("./TrialScreen.tsx");

/**
 * Starts loading the chunk of the screen a page opens on (the plans, the checkout and its payment
 * step) at start-up, beside the start-up calls, rather than once they have answered: two fewer
 * steps in the chain of requests before the screen shows (issue 22 item 12). The screen's lazy
 * component then finds the module loaded.
 */
export function preloadScreen(route: Route, trialLink: boolean): void {
  if (route.kind !== "screen") return;
  if (route.screen === "plans") void plans().catch(() => {});
  else if (route.screen.startsWith("checkout") && !(trialLink && route.screen === "checkout"))
    void checkout()
      .then((m) => m.preloadPaymentStep())
      .catch(() => {});
}

const PlansScreen = screen("plans", plans, (m) => m.PlansScreen);
const CheckoutScreen = screen("checkout", checkout, (m) => m.CheckoutScreen);
const SignInScreen = screen("session", session, (m) => m.SignInScreen);
const SignUpScreen = screen("session", session, (m) => m.SignUpScreen);
const PaymentCompletedScreen = screen("completed", completed, (m) => m.PaymentCompletedScreen);
const AccountReadyScreen = screen("completed", completed, (m) => m.AccountReadyScreen);
const TrialReadyScreen = screen("completed", completed, (m) => m.TrialReadyScreen);
const TrialScreen = screen("trial", trial, (m) => m.TrialScreen);
const SeatsScreen = screen("account", account, (m) => m.SeatsScreen);
const EssentialsScreen = screen("account", account, (m) => m.EssentialsScreen);
const CancelEssentialsScreen = screen("account", account, (m) => m.CancelEssentialsScreen);
const CancelTrialScreen = screen("account", account, (m) => m.CancelTrialScreen);
// The words of these pages live in their chunk, not in the app's shell.
const ExpiredAccountScreen = screen("account", account, (m) => m.ExpiredAccountScreen);
const UpgradesDisabledScreen = screen("account", account, (m) => m.UpgradesDisabledScreen);
const InvalidEmailScreen = screen("account", account, (m) => m.InvalidEmailScreen);
const Unsupported = screen("account", account, (m) => m.UnsupportedBrowserScreen);
const Blocked = screen("account", account, (m) => m.BlockedScreen);
const SegmentationScreen = screen("onboarding", onboarding, (m) => m.SegmentationScreen);
const TemplateRedirectScreen = screen("onboarding", onboarding, (m) => m.TemplateRedirectScreen);
const SegmentationRedirectScreen = screen(
  "onboarding",
  onboarding,
  (m) => m.SegmentationRedirectScreen,
);
const ActivationScreen = screen("other", other, (m) => m.ActivationScreen);
const InviteScreen = screen("other", other, (m) => m.InviteScreen);
const NewPasswordScreen = screen("other", other, (m) => m.NewPasswordScreen);
const ForgotScreen = screen("other", other, (m) => m.ForgotScreen);
const RceScreen = screen("other", other, (m) => m.RceScreen);
const HomeScreen = screen("other", other, (m) => m.HomeScreen);
const NotFoundScreen = screen("other", other, (m) => m.NotFoundScreen);

function screenFor(
  screen: ScreenId,
  route: Extract<Route, { kind: "screen" }>,
  title: string,
  trialLink: boolean,
) {
  switch (screen) {
    case "plans":
      return <PlansScreen title={title} />;
    case "checkout":
      // A trial link (p=trial) starts a trial: its own chunk, no payment code.
      return trialLink ? <TrialScreen /> : <CheckoutScreen title={title} />;
    case "checkout_summary":
      return <CheckoutScreen title={title} />;
    case "checkout_single_export":
      return <CheckoutScreen title={title} singleExport />;
    case "signup":
    case "sign-up":
      return <SignUpScreen title={title} />;
    case "auth":
    case "login":
      return <SignInScreen title={title} />;
    case "payment-completed":
      return <PaymentCompletedScreen title={title} processor="cc" />;
    case "paypalCompleted":
      return <PaymentCompletedScreen title={title} processor="paypal" />;
    case "free-account-completed":
      return <AccountReadyScreen title={title} text="Your free account is ready to use." />;
    case "edutrial-account-completed":
    case "biztrial-account-completed":
      return <TrialReadyScreen title={title} />;
    case "email-activation":
      return <ActivationScreen title={title} />;
    case "additional-seats":
      return <SeatsScreen title={title} />;
    case "essentials":
      return <EssentialsScreen title={title} />;
    case "cancel-essentials":
      return <CancelEssentialsScreen title={title} />;
    case "cancel-trial":
      return <CancelTrialScreen title={title} />;
    case "upgrades-disabled":
      return <UpgradesDisabledScreen title={title} />;
    case "invalid-email":
      return <InvalidEmailScreen title={title} />;
    case "expired-account":
      return <ExpiredAccountScreen title={title} />;
    case "what-for":
    case "what-role":
    case "about-you":
      return <SegmentationScreen title={title} screen={screen} />;
    case "template-redirect":
      return <TemplateRedirectScreen title={title} />;
    case "segmentation-info-redirect":
      return <SegmentationRedirectScreen title={title} />;
    case "invite":
      return <InviteScreen title={title} code={route.inviteCode ?? null} />;
    case "new-password":
      return <NewPasswordScreen title={title} />;
    case "forgot-password":
      return <ForgotScreen title={title} />;
    case "rce":
      return <RceScreen title={title} />;
    case "home":
      return <HomeScreen title={title} />;
  }
}

/** What the app shows instead of a screen: an unsupported browser, a blocked e-mail domain. */
export function AppNotice({ kind }: { kind: "unsupported" | "blocked" }) {
  return (
    <Suspense fallback={<Busy />}>{kind === "blocked" ? <Blocked /> : <Unsupported />}</Suspense>
  );
}

export function ScreenView({ route }: { route: Route }) {
  const trialLink = useStore($query).p === "trial";
  return (
    <Suspense fallback={<Busy />}>
      {route.kind === "not-found" ? (
        <NotFoundScreen title={NOT_FOUND_TITLE} />
      ) : (
        screenFor(route.screen, route, SCREEN_TITLES[route.screen], trialLink)
      )}
    </Suspense>
  );
}
