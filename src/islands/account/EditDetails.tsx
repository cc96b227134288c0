// Edit details in the account panel (PUT /api/4/user): a button opens the form; each field has a
// visible label and the browser's autocomplete; a refusal is announced (role=alert) and keeps what
// was typed; success is said where the person is looking. The spec shows no per-field checks
// outside the reset-password page (5), so the server's answer is the one check. State:
// stores/edit-details.ts.
import { useStore } from "@nanostores/react";
import { type SubmitEvent, useEffect, useRef, useState } from "react";
import { hrefFor } from "../../domain/checkout/routes.ts";
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
            {state.emailChanged && (
              <>
                {" "}
                We sent a code to {user.userEmail} to verify the new address:{" "}
                <a href={hrefFor("email-activation", undefined, { via: "hash" })}>enter the code</a>
                .
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
              : "Changing your e-mail address sends a code to the new address to verify it."}
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
            defaultValue={user.userEmail}
            maxLength={254}
            readOnly={managed}
            required
          />
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
