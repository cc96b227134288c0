// Edit details in the account panel (PUT /api/4/user): a button opens the form; each field has a
// visible label and the browser's autocomplete; a refusal is announced (role=alert) and keeps what
// was typed; success is said where the person is looking. The spec shows no per-field checks
// outside the reset-password page (5), so the server's answer is the one check. A changed e-mail
// address asks for the current password (issue 18, item 12), and the account keeps its old
// address until the code sent to the new one is entered. State: stores/edit-details.ts.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect, useRef, useState } from "react";
import { hrefFor } from "../../domain/checkout/screens.ts";
import { $editDetails, resetEditDetails, saveDetails } from "../../stores/edit-details.ts";
import { $user } from "../../stores/user.ts";
import { Busy, Problem } from "../screens/Frame.tsx";

function text(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === "string" ? value : "";
}

export function EditDetails() {
  const user = useStore($user);
  const state = useStore($editDetails);
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState(user.userEmail);
  const emailChanges = email.trim().toLowerCase() !== user.userEmail.toLowerCase();
  const first = useRef<HTMLInputElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (open) first.current?.focus();
    else if (returnFocus.current) {
      // Back to the button that opened the form, so the keyboard keeps its place.
      returnFocus.current = false;
      opener.current?.focus();
    }
  }, [open]);
  useEffect(() => resetEditDetails, []);
  const saved = state.phase === "saved";
  // Spec 6: credential editing depends on canEditCredentials (single sign-on accounts).
  const managed = !user.canEditCredentials;
  const close = () => {
    returnFocus.current = true;
    setOpen(false);
  };
  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    void saveDetails({
      firstName: text(form, "firstName"),
      lastName: text(form, "lastName"),
      username: text(form, "username"),
      email: text(form, "email"),
      currentPassword: text(form, "currentPassword"),
    }).then(() => {
      if ($editDetails.get().phase === "saved") close();
    });
  };
  return (
    <section aria-labelledby="details-title" className="stack">
      <h2 id="details-title">Your details</h2>
      <div role="status">
        {saved && !open && (
          <p>
            Your details are saved.
            {state.pendingEmail && (
              <>
                {" "}
                We sent a code to {state.pendingEmail} to verify the new address:{" "}
                <a href={hrefFor("email-activation", undefined, { via: "hash" })}>enter the code</a>
                . Until then your e-mail address stays {user.userEmail}.
              </>
            )}
          </p>
        )}
      </div>
      {!open ? (
        <p>
          {user.firstName} {user.lastName} · {user.userName}{" "}
          <button
            type="button"
            className="btn secondary"
            ref={opener}
            onClick={() => {
              resetEditDetails();
              setEmail(user.userEmail);
              setOpen(true);
            }}
          >
            Edit details
          </button>
        </p>
      ) : (
        <form className="stack" onSubmit={onSubmit} noValidate aria-describedby="details-help">
          <p id="details-help">
            {managed
              ? "Your organisation's single sign-on manages your e-mail address and username; you can change your name here."
              : "Changing your e-mail address needs your current password, and sends a code to the new address to verify it."}
          </p>
          <label htmlFor="details-first">First name</label>
          <input
            id="details-first"
            name="firstName"
            ref={first}
            autoComplete="given-name"
            defaultValue={user.firstName}
            maxLength={100}
            required
          />
          <label htmlFor="details-last">Last name</label>
          <input
            id="details-last"
            name="lastName"
            autoComplete="family-name"
            defaultValue={user.lastName}
            maxLength={100}
          />
          <label htmlFor="details-username">Username</label>
          <input
            id="details-username"
            name="username"
            autoComplete="username"
            defaultValue={user.userName}
            maxLength={100}
            readOnly={managed}
            required
          />
          <label htmlFor="details-email">E-mail</label>
          <input
            id="details-email"
            name="email"
            type="email"
            inputMode="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            maxLength={254}
            readOnly={managed}
            required
          />
          {emailChanges && !managed && (
            <>
              <label htmlFor="details-password">Current password</label>
              <input
                id="details-password"
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                maxLength={200}
                required
                aria-describedby="details-password-help"
              />
              <p id="details-password-help">
                To change your e-mail address, enter your current password. Your address changes
                once you enter the code we send to the new one.
              </p>
            </>
          )}
          {state.phase === "failed" &&
            (state.error ? (
              <Problem failure={state.error} />
            ) : (
              <Problem message="Your details were not saved. Please try again." />
            ))}
          <div className="actions">
            <button type="submit" className="btn" disabled={state.phase === "saving"}>
              Save details
            </button>
            <button
              type="button"
              className="btn secondary"
              disabled={state.phase === "saving"}
              onClick={close}
            >
              Cancel
            </button>
          </div>
          {state.phase === "saving" && <Busy label="Saving your details…" />}
        </form>
      )}
    </section>
  );
}
