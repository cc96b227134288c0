// What a new account is for, said on the sign-up form when a visitor came from a trial or a
// purchase (issue 34, item 5): "Create your account to start your Business trial". Pure wording;
// the plan's name comes from the plan options (the catalogue), never from its code.

/** The sentence above the sign-up form, or null when the visitor came for no plan in particular. */
export function signUpPurpose(p: string | null, planName: string | null): string | null {
  if (p === "trial") {
    return planName
      ? `Create your account to start your ${planName} trial`
      : "Create your account to start your free trial";
  }
  if (p === "buy" && planName) return `Create your account to buy ${planName}`;
  return null;
}

/** A trial plan's name without the word the sentence adds: "Business trial" reads "Business". */
export function planNameForPurpose(name: string): string {
  return name.replace(/\s+trial$/i, "");
}
