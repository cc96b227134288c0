// The account flows' screens load on demand: the first screen of most visits (plans, checkout)
// does not need them, and the start-up bundle stays within the budget of issue 8
// (scripts/cart-bundle.ts). Each shows the loader in its place until its code has arrived.
import { lazy, Suspense } from "react";
import { Busy } from "../screens/Frame.tsx";

const Reset = lazy(() => import("./screens.tsx").then((m) => ({ default: m.ResetPasswordScreen })));
const Activation = lazy(() =>
  import("./screens.tsx").then((m) => ({ default: m.ActivationScreen })),
);
const CancelEssentials = lazy(() =>
  import("./screens.tsx").then((m) => ({ default: m.CancelEssentialsScreen })),
);
const CancelTrial = lazy(() =>
  import("./screens.tsx").then((m) => ({ default: m.CancelTrialScreen })),
);
const Forgot = lazy(() =>
  import("./screens.tsx").then((m) => ({ default: m.ForgotPasswordScreen })),
);
const Invite = lazy(() => import("./screens.tsx").then((m) => ({ default: m.InviteScreen })));
const Panel = lazy(() => import("./screens.tsx").then((m) => ({ default: m.AccountPanel })));

const loading = <Busy label="Loading…" />;

export function ResetPasswordScreen({ title }: { title: string }) {
  return (
    <Suspense fallback={loading}>
      <Reset title={title} />
    </Suspense>
  );
}

export function ForgotPasswordScreen({ title }: { title: string }) {
  return (
    <Suspense fallback={loading}>
      <Forgot title={title} />
    </Suspense>
  );
}

export function ActivationScreen({ title }: { title: string }) {
  return (
    <Suspense fallback={loading}>
      <Activation title={title} />
    </Suspense>
  );
}

export function CancelEssentialsScreen({ title }: { title: string }) {
  return (
    <Suspense fallback={loading}>
      <CancelEssentials title={title} />
    </Suspense>
  );
}

export function CancelTrialScreen({ title }: { title: string }) {
  return (
    <Suspense fallback={loading}>
      <CancelTrial title={title} />
    </Suspense>
  );
}

export function InviteScreen({ title, code }: { title: string; code: string | null }) {
  return (
    <Suspense fallback={loading}>
      <Invite title={title} code={code} />
    </Suspense>
  );
}

export function AccountPanel() {
  return (
    <Suspense fallback={loading}>
      <Panel />
    </Suspense>
  );
}
