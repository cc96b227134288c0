// Invitations, e-mail activation, reset password and its request, the extension landing, home
// and not found.

import { hrefFor } from "../../domain/checkout/screens.ts";
import { AccountPanel, ForgotPasswordScreen, ResetPasswordScreen } from "../account/lazy.tsx";
import { DashboardLink } from "../chrome/HubLinks.tsx";
import { Frame } from "./Frame.tsx";

/** The invitation page: src/islands/account/InviteScreen.tsx, loaded on demand. */
/** E-mail activation: src/islands/account/ActivationScreen.tsx. */
export { ActivationScreen, InviteScreen } from "../account/lazy.tsx";

/** The reset-password page (spec 2.7): src/islands/account/ResetPasswordScreen.tsx. */
export function NewPasswordScreen({ title }: { title: string }) {
  return <ResetPasswordScreen title={title} />;
}

/** Asking for a reset link (issue 22): src/islands/account/ForgotPasswordScreen.tsx. */
export function ForgotScreen({ title }: { title: string }) {
  return <ForgotPasswordScreen title={title} />;
}

export function RceScreen({ title }: { title: string }) {
  return (
    <Frame title={title}>
      <p>You are signed in. Go back to the screen recorder to continue.</p>
      <a className="btn" href="/api/4/rce/tokens">
        Back to the screen recorder
      </a>
    </Frame>
  );
}

export function HomeScreen({ title }: { title: string }) {
  return (
    <Frame title={title}>
      <ul className="plain">
        <li>
          <a href={hrefFor("plans")}>Plans</a>
        </li>
        <li>
          <DashboardLink>The editor</DashboardLink>
        </li>
      </ul>
      {/* The account when signed in, or what happened when signed out by deleting it. */}
      <AccountPanel />
    </Frame>
  );
}

/** An address under /cart that is no screen (spec 2.1). */
export function NotFoundScreen({ title }: { title: string }) {
  return (
    <Frame title={title}>
      <p>There is no checkout page at this address.</p>
      <a className="btn" href={hrefFor("plans")}>
        See the plans
      </a>
    </Frame>
  );
}
