// Which screen a route shows. Every screen of spec 2.1 and 2.2 has its heading (SCREEN_TITLES)
// and its state wired to the stores; the purchase and account flows fill them in.
import { Suspense } from "react";
import type { Route, ScreenId } from "../../domain/checkout/routes.ts";
import { NOT_FOUND_TITLE, SCREEN_TITLES } from "../../domain/checkout/routes.ts";
import {
  CancelEssentialsScreen,
  CancelTrialScreen,
  EssentialsScreen,
  ExplainScreen,
  SeatsScreen,
} from "./AccountScreens.tsx";
import { Busy } from "./Frame.tsx";
import {
  AccountReadyScreen,
  CheckoutScreen,
  PaymentCompletedScreen,
  PlansScreen,
  SignInScreen,
  SignUpScreen,
} from "./lazy-screens.ts";
import {
  SegmentationRedirectScreen,
  SegmentationScreen,
  TemplateRedirectScreen,
} from "./OnboardingScreens.tsx";
import {
  ActivationScreen,
  HomeScreen,
  InviteScreen,
  NewPasswordScreen,
  NotFoundScreen,
  RceScreen,
} from "./OtherScreens.tsx";

function screenFor(screen: ScreenId, route: Extract<Route, { kind: "screen" }>, title: string) {
  switch (screen) {
    case "plans":
      return <PlansScreen title={title} />;
    case "checkout":
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
      return (
        <AccountReadyScreen title={title} text="Your education trial runs for 30 days. Enjoy!" />
      );
    case "biztrial-account-completed":
      return <AccountReadyScreen title={title} text="Your business trial runs for 14 days." />;
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
      return (
        <ExplainScreen
          title={title}
          text="Upgrades are disabled for this account, for example because it is billed through a mobile app store. Manage the subscription where it was bought."
        />
      );
    case "invalid-email":
      return (
        <ExplainScreen
          title={title}
          text="Education plans need a school e-mail address. Sign in with your school address, or contact support."
        />
      );
    case "expired-account":
      return (
        <ExplainScreen
          title={title}
          text="Your account has expired. Choose a plan to keep your projects."
        />
      );
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
    case "rce":
      return <RceScreen title={title} />;
    case "home":
      return <HomeScreen title={title} />;
  }
}

export function ScreenView({ route }: { route: Route }) {
  if (route.kind === "not-found") return <NotFoundScreen title={NOT_FOUND_TITLE} />;
  const screen = screenFor(route.screen, route, SCREEN_TITLES[route.screen]);
  return <Suspense fallback={<Busy label="Loading…" />}>{screen}</Suspense>;
}
