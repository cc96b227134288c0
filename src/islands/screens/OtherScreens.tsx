// Invitations, e-mail activation, reset password, the extension landing, home and not found.

import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect } from "react";
import { hrefFor } from "../../domain/checkout/routes.ts";
import { $activation, generateCode, verifyEmailCode } from "../../stores/activation.ts";
import { $query } from "../../stores/router.ts";
import { $user, inviteInfo } from "../../stores/user.ts";
import { Busy, Frame, Problem } from "./Frame.tsx";

export function InviteScreen({ title, code }: { title: string; code: string | null }) {
  const state = useStore(inviteInfo.$state);
  useEffect(() => {
    if (code) void inviteInfo.run(code);
  }, [code]);
  return (
    <Frame title={title}>
      {!code && <p>Open the invitation link from your e-mail to join your team.</p>}
      {state.status === "started" && <Busy label="Loading the invitation…" />}
      {state.status === "failure" && <Problem failure={state.error} />}
      {state.status === "success" && (
        <p>
          {state.value.inviterName} invited you to join <strong>{state.value.instanceName}</strong>.
        </p>
      )}
    </Frame>
  );
}

export function ActivationScreen({ title }: { title: string }) {
  const user = useStore($user);
  const activation = useStore($activation);
  const verify = useStore(verifyEmailCode.$state);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = new FormData(event.currentTarget).get("code");
    if (typeof code === "string") void verifyEmailCode.run(code);
  };
  return (
    <Frame title={title}>
      {activation.verified ? (
        <p role="status">Your e-mail address is verified.</p>
      ) : (
        <form className="stack" onSubmit={onSubmit}>
          <p>We sent a code to {user.userEmail || "your e-mail address"}.</p>
          <label htmlFor="activation-code">Code</label>
          <input
            id="activation-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
          />
          {activation.error && (
            <Problem message="This code is not valid or has expired. Ask for a new code and try again." />
          )}
          <button type="submit" className="btn" disabled={verify.status === "started"}>
            Verify
          </button>
          <button type="button" className="link" onClick={() => generateCode.run()}>
            Send me a new code
          </button>
        </form>
      )}
    </Frame>
  );
}

export function NewPasswordScreen({ title }: { title: string }) {
  const query = useStore($query);
  return (
    <Frame title={title}>
      <p className="subtitle">Create a new password for your account</p>
      {query.email && (
        <p>
          {query.email} <a href={hrefFor("login")}>Not you?</a>
        </p>
      )}
    </Frame>
  );
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
          <a href="/app">The editor</a>
        </li>
      </ul>
    </Frame>
  );
}
