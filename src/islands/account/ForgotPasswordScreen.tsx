// Asking for a reset link (issue 22, item 2): the e-mail (the signed-in person's, or the one the
// sign-in form held, filled in), the invisible human check and the request; the answer says the
// same for every address. The state lives in stores/forgot-password.ts.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect } from "react";
import { hrefFor } from "../../domain/checkout/screens.ts";
import {
  $forgotPassword,
  FORGOT_MESSAGES,
  requestResetLink,
  resetForgotPassword,
} from "../../stores/forgot-password.ts";
import { $query } from "../../stores/router.ts";
import { $user } from "../../stores/user.ts";
import { Busy, Frame, Problem } from "../screens/Frame.tsx";

export function ForgotPasswordScreen({ title }: { title: string }) {
  const state = useStore($forgotPassword);
  const user = useStore($user);
  const query = useStore($query);
  useEffect(() => resetForgotPassword, []);
  const busy = state.phase === "human-check" || state.phase === "loading";
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get("email");
    void requestResetLink(typeof value === "string" ? value : "");
  };
  if (state.phase === "sent") {
    return (
      <Frame title={title}>
        <div role="status">
          <p>{FORGOT_MESSAGES.sent(state.email)}</p>
        </div>
        <p>
          <a href={hrefFor("login")}>Back to sign in</a>
        </p>
      </Frame>
    );
  }
  const invalid = state.phase === "error" && state.problem !== null && !state.failure;
  return (
    <Frame title={title}>
      <p className="subtitle">
        Enter the e-mail address of your account and we will send you a link to choose a new
        password.
      </p>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <label htmlFor="forgot-email">E-mail</label>
        <input
          id="forgot-email"
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          required
          defaultValue={user.isAuth ? user.userEmail : (query.email ?? "")}
          aria-invalid={invalid || undefined}
          aria-describedby={state.phase === "error" ? "forgot-problem" : undefined}
        />
        {state.phase === "error" && (
          <div id="forgot-problem">
            {state.failure ? (
              <Problem failure={state.failure} />
            ) : (
              <Problem message={state.problem ?? FORGOT_MESSAGES.problem} />
            )}
          </div>
        )}
        {busy && <Busy label="Sending the link…" />}
        <button type="submit" className="btn" disabled={busy}>
          Send me a reset link
        </button>
      </form>
      {!user.isAuth && (
        <p>
          Remembered it? <a href={hrefFor("login")}>Sign in</a>
        </p>
      )}
    </Frame>
  );
}
