// Product features and editor preferences (spec section 4).

/** Features are a space-separated list. */
export function parseFeatures(features: string | null | undefined): string[] {
  return (features ?? "").split(/\s+/).filter((f) => f.length > 0);
}

/** The TrialEmailVerification feature with an unverified e-mail requires e-mail verification. */
export function requiresEmailVerification(features: string[], emailVerified: boolean): boolean {
  return !emailVerified && features.includes("TrialEmailVerification");
}

/**
 * HTML editor choice: an explicit true/false property is honoured; otherwise true, except for
 * old users (ids below `oldUserIdBelow`), who keep the previous editor.
 */
export function prefersHtmlEditor(
  property: string | boolean | null | undefined,
  userId: number,
  oldUserIdBelow: number,
): boolean {
  if (property === true || property === "true") return true;
  if (property === false || property === "false") return false;
  return userId >= oldUserIdBelow;
}
