// The activation store of spec 3.8: the e-mail code step. Verifying needs success true (spec 5);
// a failure, or generating a new code, sets or resets a plain error flag (spec 8). A verified code
// then activates the account, whose success clears activationRequired (spec 4), and the hub hears
// email_activation.
import { map } from "nanostores";
import { endpoints } from "../contract/endpoints.ts";
import { api } from "./api.ts";
import { postToHub } from "./hub.ts";
import { operation } from "./operation.ts";
import { $user, activateAccount, verifyTeacherEmail } from "./user.ts";

export const $activation = map({ error: false, codeSent: false, verified: false });

// The answer's schema is `success: true`, so an answer without it is a failure (spec 5).
export const verifyEmailCode = operation(
  "verifyEmailCode",
  (code: string) => api().call(endpoints.verifyEmailCode, { body: { code } }),
  {
    onStart() {
      $activation.setKey("error", false);
    },
    onSuccess() {
      $activation.setKey("verified", true);
      $user.setKey("emailVerified", true);
    },
    onFailure() {
      $activation.setKey("error", true);
    },
  },
);

export const generateCode = operation(
  "generateCode",
  () => api().call(endpoints.generateEmailCode, { body: {} }),
  {
    onStart() {
      $activation.setKey("error", false);
      $activation.setKey("codeSent", false);
    },
    onSuccess() {
      $activation.setKey("codeSent", true);
    },
    onFailure() {
      $activation.setKey("error", true);
    },
  },
);

/** The activation step: verify the code, then activate the account (spec 7's two calls). */
export async function verifyAndActivate(code: string): Promise<void> {
  const verified = await verifyEmailCode.run(code.trim());
  if (!verified.ok) return;
  const activated = await activateAccount.run();
  if (!activated.ok) return;
  postToHub("email_activation");
  // A school address checked before it was verified is checked again, so the education purchase
  // the person returns to sees the new answer (issue 22).
  if ($user.get().teacherEmailWasValidated) await verifyTeacherEmail.run();
}
