// The invitation page (/cart/invite, /cart/invite/ and /cart/invite/<code>; never redirects):
// whose team it is, what joining does (and, before the person confirms, that it cancels their own
// subscription when it does), the join, and a refusal in words a person can act on. State:
// stores/invites.ts; words: domain/account/invites.ts.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect, useId, useRef, useState } from "react";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { inviteInfo, useInviteCode } from "../../stores/account-operations.ts";
import {
  $inviteCancellation,
  $inviteJoin,
  acceptInvite,
  showInvite,
} from "../../stores/invites.ts";
import { navigate } from "../../stores/router.ts";
import { $user } from "../../stores/user.ts";
import { DashboardLink } from "../chrome/HubLinks.tsx";
import { Busy, Frame, Problem } from "../screens/Frame.tsx";

// The same alphabet as the invitation links (domain/checkout/screens.ts).
const INVITE_CODE = /^[A-Za-z0-9_-]{1,128}$/;

/** /cart/invite without a code: where to find one, and a field to paste it into. */
function AskForCode() {
  const [error, setError] = useState(false);
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get("code");
    const code = typeof value === "string" ? value.trim() : "";
    if (!INVITE_CODE.test(code)) {
      setError(true);
      return;
    }
    navigate(`/cart/invite/${code}`);
  };
  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <p>Open the invitation link from your e-mail to join your team, or enter its code here.</p>
      <label htmlFor="invite-code">Invitation code</label>
      <input
        id="invite-code"
        name="code"
        autoComplete="off"
        maxLength={128}
        aria-invalid={error}
        aria-describedby={error ? "invite-code-error" : undefined}
        onChange={() => setError(false)}
      />
      {error && (
        <p id="invite-code-error" className="field-error" role="alert">
          An invitation code has only letters, digits, - and _. Copy it from the invitation link.
        </p>
      )}
      <button type="submit" className="btn">
        Show the invitation
      </button>
    </form>
  );
}

function Joined({ team }: { team: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div role="status" tabIndex={-1} ref={box} className="stack">
      <p>You joined {team}. Its plan now covers your account.</p>
      <p>
        <DashboardLink className="btn">Open the editor</DashboardLink>{" "}
        <a href={hrefFor("home")}>See your account</a>
      </p>
    </div>
  );
}

function JoinForm({ code, team }: { code: string; team: string }) {
  const user = useStore($user);
  const join = useStore($inviteJoin);
  const call = useStore(useInviteCode.$state);
  const cancellation = useStore($inviteCancellation);
  const noticeId = useId();
  if (join.phase === "joined") return <Joined team={join.team} />;
  if (!user.isAuth) {
    const back = `/cart/invite/${code}`;
    return (
      <div className="stack">
        <p>Sign in to join {team}. New here? Create an account first; you come back here after.</p>
        <p>
          <a className="btn" href={hrefFor("login", { redirect: back })}>
            Sign in to join
          </a>{" "}
          <a href={hrefFor("sign-up", { redirect: back })}>Create an account</a>
        </p>
      </div>
    );
  }
  if (user.enterpriseMemberInstance === team && join.phase !== "refused") {
    return <p>You are already a member of {team}.</p>;
  }
  const busy = join.phase === "joining";
  return (
    <div className="stack">
      <p id={`${noticeId}-what`}>
        You join {team} as {user.userEmail} now, and work under its plan. You can leave the team
        later from your account page.
      </p>
      {cancellation && (
        <p id={`${noticeId}-cancel`} className="notice">
          <strong>{cancellation}</strong>
        </p>
      )}
      <button
        type="button"
        className="btn"
        disabled={busy}
        aria-describedby={`${noticeId}-what${cancellation ? ` ${noticeId}-cancel` : ""}`}
        onClick={() => void acceptInvite(code)}
      >
        {cancellation ? `Cancel my subscription and join ${team}` : `Join ${team}`}
      </button>
      {busy && <Busy label="Joining the team…" />}
      {join.phase === "refused" && <Problem message={join.text} />}
      {call.status === "failure" && <Problem failure={call.error} />}
    </div>
  );
}

export function InviteScreen({ title, code }: { title: string; code: string | null }) {
  const info = useStore(inviteInfo.$state);
  useEffect(() => {
    if (code) showInvite(code);
  }, [code]);
  if (!code) {
    return (
      <Frame title={title}>
        <AskForCode />
      </Frame>
    );
  }
  return (
    <Frame title={title}>
      {(info.status === "started" || info.status === "idle") && (
        <Busy label="Loading the invitation…" />
      )}
      {info.status === "failure" && <Problem failure={info.error} />}
      {info.status === "success" && (
        <>
          <p>
            {info.value.inviterName} invited you to join the team workspace{" "}
            <strong>{info.value.instanceName}</strong>.
          </p>
          {info.value.accepted ? (
            <p>This invitation has already been used. Ask the team's owner for a new invitation.</p>
          ) : (
            <JoinForm code={code} team={info.value.instanceName} />
          )}
        </>
      )}
    </Frame>
  );
}
