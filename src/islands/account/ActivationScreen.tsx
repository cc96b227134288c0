// E-mail activation (spec 2.1 email-activation, 4, 5, 7): enter the code the server mailed,
// verify it (success true required), which activates the account; or ask for a new code. The
// state lives in stores/activation.ts and stores/user.ts; this renders it.
import { useStore } from "@nanostores/react";
import type { SubmitEvent } from "react";
import { hrefFor } from "../../domain/checkout/screens.ts";
import {
  $activation,
  generateCode,
  verifyAndActivate,
  verifyEmailCode,
} from "../../stores/activation.ts";
import { isBusy } from "../../stores/operation.ts";
import { $query } from "../../stores/router.ts";
import { $user, activateAccount } from "../../stores/user.ts";
import { Busy, Frame, Problem } from "../screens/Frame.tsx";

export function ActivationScreen({ title }: { title: string }) {
  const user = useStore($user);
  const query = useStore($query);
  const activation = useStore($activation);
  const verify = useStore(verifyEmailCode.$state);
  const generate = useStore(generateCode.$state);
  const activate = useStore(activateAccount.$state);
  const busy = isBusy(verify) || isBusy(activate);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = new FormData(event.currentTarget).get("code");
    if (typeof code === "string" && code.trim() !== "") void verifyAndActivate(code);
  };
  if (activate.status === "success" || (!user.activationRequired && user.emailVerified)) {
    return (
      <Frame title={title}>
        <p role="status">Your e-mail address is verified and your account is active.</p>
        {/* Back to the trial or purchase the step interrupted (its checked redirect), else plans. */}
        <a className="btn" href={query.redirect ?? hrefFor("plans")}>
          Continue
        </a>
      </Frame>
    );
  }
  const address = user.userEmail || "your e-mail address";
  return (
    <Frame title={title}>
      <form className="stack" onSubmit={onSubmit} noValidate>
        <p>
          We sent a 6-digit code to {address}. Enter it to verify your e-mail address and activate
          your account.
        </p>
        <label htmlFor="activation-code">Verification code</label>
        <input
          id="activation-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={20}
          required
          aria-invalid={activation.error}
          aria-describedby={activation.error ? "activation-error" : undefined}
        />
        {activation.error && (
          <div id="activation-error">
            <Problem message="This code is not valid or has expired. Ask for a new code and try again." />
          </div>
        )}
        {activate.status === "failure" && <Problem failure={activate.error} />}
        <button type="submit" className="btn" disabled={busy}>
          Verify
        </button>
        {busy && <Busy label="Checking the code…" />}
        <button
          type="button"
          className="link"
          disabled={isBusy(generate)}
          onClick={() => generateCode.run()}
        >
          Send me a new code
        </button>
        {isBusy(generate) && <Busy label="Sending a new code…" />}
        {activation.codeSent && <p role="status">We sent a new code to {address}.</p>}
      </form>
    </Frame>
  );
}
