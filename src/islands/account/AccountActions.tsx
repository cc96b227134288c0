// One confirmation per cancellation (issue 10): a button opens it; it says what will happen and
// from when, with a confirm and a keep button; when done, it says so where it was, and the
// account state above it has been reloaded. State: stores/account-actions.ts.
import { useStore } from "@nanostores/react";
import { useEffect, useRef } from "react";
import { type AccountAction, notice } from "../../domain/account/cancellation.ts";
import {
  $accountFacts,
  $actionBusy,
  $actionError,
  $confirming,
  $lastDone,
  $lastDoneText,
  askToConfirm,
  confirmAction,
  dismissConfirmation,
} from "../../stores/account-actions.ts";
import { Busy, Problem } from "../screens/Frame.tsx";

export function ConfirmAction({ action }: { action: AccountAction }) {
  const facts = useStore($accountFacts);
  const confirming = useStore($confirming);
  const busy = useStore($actionBusy);
  const error = useStore($actionError);
  const done = useStore($lastDone);
  const box = useRef<HTMLElement>(null);
  const open = confirming === action;
  useEffect(() => {
    // The confirmation takes focus, so keyboard and screen-reader users read it next.
    if (open) box.current?.focus();
  }, [open]);
  const text = notice(action, facts);
  // Once done, ActionDone says so (the action may no longer apply to the account).
  if (done === action) return null;
  if (!open) {
    return (
      <button type="button" className="btn secondary" onClick={() => askToConfirm(action)}>
        {text.open}
      </button>
    );
  }
  const headingId = `confirm-${action}-title`;
  return (
    <section className="confirm" aria-labelledby={headingId} tabIndex={-1} ref={box}>
      <h2 id={headingId}>{text.open}?</h2>
      <p>{text.what}</p>
      <div className="actions">
        <button
          type="button"
          className="btn danger"
          disabled={busy !== null}
          onClick={() => confirmAction(action)}
        >
          {text.confirm}
        </button>
        <button
          type="button"
          className="btn secondary"
          disabled={busy !== null}
          onClick={dismissConfirmation}
        >
          {text.keep}
        </button>
      </div>
      {busy === action && <Busy label="Working on it…" />}
      {error?.action === action && <Problem failure={error.error} />}
    </section>
  );
}

/** What the last confirmed action did, said where the person is looking. */
export function ActionDone() {
  const text = useStore($lastDoneText);
  return <div role="status">{text && <p>{text}</p>}</div>;
}
