// Trials (issue 18, item 6): who is offered one, who may start one, and the address a trial is
// counted against (one trial per person). Mail providers deliver several spellings of one address to the same mailbox, so each spelling would
// otherwise get a trial of its own:
// - case: addresses are compared in lower case;
// - plus tags: `name+anything@domain` reaches `name@domain` (Gmail, Outlook, Fastmail, iCloud and
//   most others), so the tag is dropped for every domain;
// - Gmail ignores dots in the local part, and googlemail.com is the same mailbox as gmail.com.
// This is for counting trials only: the account keeps the address it signed up with.

const GMAIL_DOMAINS = new Set(["gmail.com", "googlemail.com"]);

/** The identity a trial is counted against, or null when the text is not an address. */
export function trialIdentity(email: string): string | null {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return null;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.$/, "");
  const plus = local.indexOf("+");
  if (plus >= 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = "gmail.com";
    local = local.replaceAll(".", "");
  }
  if (local === "") return null;
  return `${local}@${domain}`;
}

/** What the trial rules read of an account (server: the account; app: the user stores). */
export type TrialFacts = {
  /** The account had a trial, or another account of the same person did (trialIdentity). */
  hadTrial: boolean;
  orderState: string;
  isTrial: boolean;
  isExpiredTrial: boolean;
  managed: boolean;
};

/**
 * Whether a trial is offered at all: not to managed or paying accounts, not during a trial, and
 * never again after one (an expired trial is offered the plans, not another trial).
 */
export function trialOffered(f: TrialFacts): boolean {
  return (
    !f.managed && !f.isTrial && !f.isExpiredTrial && !f.hadTrial && f.orderState !== "automatic"
  );
}

/**
 * Why a trial may not start now, or null: one trial per person, and only for a verified address
 * (the person proves the mailbox is theirs before the trial, not after it).
 */
export function trialRefusal(
  f: TrialFacts & { emailVerified: boolean },
): "trial_not_available" | "email_not_verified" | null {
  if (!trialOffered(f)) return "trial_not_available";
  if (!f.emailVerified) return "email_not_verified";
  return null;
}
