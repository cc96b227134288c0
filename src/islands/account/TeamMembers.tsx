// A team owner's members on the account page (issue 34, item 3), each with Remove behind a
// confirmation that says what happens and from when (now: the seat is free and the member loses the
// team's plan). State: stores/account-team.ts; the server: handlers/team-members.ts.
import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import {
  $removeBusy,
  $removedText,
  $removeFailure,
  $removing,
  $teamMembers,
  askToRemove,
  keepMember,
  loadTeamMembers,
  removeMember,
  type TeamMember,
} from "../../stores/account-team.ts";
import { Busy, Problem } from "../screens/Frame.tsx";

export function TeamMembers({ team }: { team: string | null }) {
  const state = useStore($teamMembers);
  const done = useStore($removedText);
  useEffect(() => {
    void loadTeamMembers();
  }, []);
  return (
    <section className="team-members" aria-labelledby="members-title">
      <h3 id="members-title">Members</h3>
      <div role="status">{done && <p className="notice success">{done}</p>}</div>
      {state === null && <Busy label="Loading the members…" />}
      {state && "failure" in state && <Problem failure={state.failure} />}
      {state && "members" in state && (
        <ul className="plain member-list">
          {state.members.map((member) => (
            <li key={member.id}>
              <Member member={member} team={team} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Member({ member, team }: { member: TeamMember; team: string | null }) {
  const removing = useStore($removing);
  const open = removing?.id === member.id;
  return (
    <>
      <div className="member">
        <span className="member__who">
          <span className="member__name">{member.name}</span>
          {member.name !== member.email && <span className="member__email">{member.email}</span>}
        </span>
        {member.owner ? (
          <span className="badge">Owner (you)</span>
        ) : (
          !open && (
            <button
              type="button"
              className="link danger"
              aria-label={`Remove ${member.name}`}
              onClick={() => askToRemove(member)}
            >
              Remove
            </button>
          )
        )}
      </div>
      {open && <ConfirmRemoval member={member} team={team} />}
    </>
  );
}

function ConfirmRemoval({ member, team }: { member: TeamMember; team: string | null }) {
  const busy = useStore($removeBusy);
  const failure = useStore($removeFailure);
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    // The confirmation takes focus, so keyboard and screen-reader users read it next.
    box.current?.focus();
  }, []);
  const workspace = team ? `the team workspace ${team}` : "your team workspace";
  return (
    <section className="confirm" aria-labelledby="remove-member-title" tabIndex={-1} ref={box}>
      <h4 id="remove-member-title">Remove {member.name} from the team?</h4>
      <p>
        {member.name} ({member.email}) leaves {workspace} now and loses its plan and shared projects
        at once. Their seat is free for someone else from now on; the seats you pay for stay as they
        are. Their own account stays, on the free plan unless they buy one.
      </p>
      <div className="actions">
        <button
          type="button"
          className="btn danger"
          disabled={busy}
          onClick={() => void removeMember()}
        >
          Remove {member.name} now
        </button>
        <button type="button" className="btn secondary" disabled={busy} onClick={keepMember}>
          Keep {member.name}
        </button>
      </div>
      {busy && <Busy label="Removing…" />}
      {failure && <Problem failure={failure} />}
    </section>
  );
}
