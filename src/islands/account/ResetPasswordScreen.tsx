// The reset-password page (spec 2.7): title and subtitle, the link's e-mail with 'Not you?', the
// new and confirm fields with section 5's messages, and 'Change my password' (after an error
// 'RESET'), enabled only when the pair is valid. The state and the rules live in
// stores/reset-password.ts; this renders them.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect } from "react";
import { hrefFor } from "../../domain/checkout/screens.ts";
import {
  $resetCheck,
  $resetLink,
  $resetPassword,
  resetResetPassword,
  setResetField,
  submitNewPassword,
  visitResetField,
} from "../../stores/reset-password.ts";
import { Busy, Frame, Problem } from "../screens/Frame.tsx";

export function ResetPasswordScreen({ title }: { title: string }) {
  const state = useStore($resetPassword);
  const check = useStore($resetCheck);
  const link = useStore($resetLink);
  useEffect(() => resetResetPassword, []);
  const busy = state.phase === "human-check" || state.phase === "loading";
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submitNewPassword();
  };
  const passwordError = state.visited.password ? check.password : null;
  const confirmError = state.visited.confirm ? check.confirm : null;
  return (
    <Frame title={title}>
      <p className="subtitle">Create a new password for your account</p>
      {link.email && (
        <p>
          <span>{link.email}</span> <a href={hrefFor("login")}>Not you?</a>
        </p>
      )}
      {state.phase === "success" ? (
        <div role="status">
          <p>{state.message}</p>
          <a className="btn" href={hrefFor("login")}>
            Sign in
          </a>
        </div>
      ) : (
        <form className="stack" onSubmit={onSubmit} noValidate>
          <label htmlFor="new-password">New password</label>
          <input
            id="new-password"
            type="password"
            autoComplete="new-password"
            value={state.password}
            aria-invalid={passwordError !== null}
            aria-describedby={passwordError ? "new-password-error" : undefined}
            onChange={(e) => setResetField("password", e.currentTarget.value)}
            onBlur={() => visitResetField("password")}
          />
          {passwordError && (
            <p id="new-password-error" className="field-error">
              {passwordError}
            </p>
          )}
          <label htmlFor="confirm-password">Confirm password</label>
          <input
            id="confirm-password"
            type="password"
            autoComplete="new-password"
            value={state.confirm}
            aria-invalid={confirmError !== null || check.match === "Passwords do not match"}
            aria-describedby="confirm-password-message"
            onChange={(e) => setResetField("confirm", e.currentTarget.value)}
            onBlur={() => visitResetField("confirm")}
          />
          <div id="confirm-password-message" aria-live="polite">
            {confirmError && <p className="field-error">{confirmError}</p>}
            {check.match && (
              <p className={check.canSubmit ? "field-ok" : "field-error"}>{check.match}</p>
            )}
          </div>
          <button type="submit" className="btn" disabled={!check.canSubmit || busy}>
            {state.failedOnce ? "RESET" : "Change my password"}
          </button>
          {state.phase === "human-check" && <Busy label="Checking this browser…" />}
          {state.phase === "loading" && <Busy label="Changing your password…" />}
          {state.phase === "error" && state.message && <Problem message={state.message} />}
        </form>
      )}
    </Frame>
  );
}
