// Who may be newly enrolled in a price experiment, and the groups a customer is priced in. A
// paying subscriber is never newly enrolled (existing subscribers are never moved); the others
// fall into one audience: `new` (never paid; every visitor not signed in), `trial` (in a trial
// now) or `former` (paid once, free now). A group already recorded for the visitor (the exposure
// row) wins over everything: a customer who bought in a group keeps it as a subscriber.
import type { Audience, Catalog, Experiment } from "../catalog/catalog-schema.ts";
import { groupFor, runningExperiments } from "./assignment.ts";
import type { PriceChoice } from "./price-choice.ts";

/** What enrolment needs to know of a customer; a visitor not signed in is `VISITOR`. */
export type EnrolmentFacts = {
  /** Has a paid plan running now (not a trial, not cancelled to free). */
  payingSubscriber: boolean;
  /** In a trial now. */
  inTrial: boolean;
  /** Has ever paid for an order of their own. */
  everPaid: boolean;
};

export const VISITOR: EnrolmentFacts = { payingSubscriber: false, inTrial: false, everPaid: false };

/** The customer's audience, or null for a paying subscriber (enrolled in nothing new). */
export function audienceOf(facts: EnrolmentFacts): Audience | null {
  if (facts.payingSubscriber) return null;
  if (facts.inTrial) return "trial";
  return facts.everPaid ? "former" : "new";
}

/** Whether this customer may be newly enrolled in this experiment. */
export function mayEnrol(
  experiment: Pick<Experiment, "audiences">,
  facts: EnrolmentFacts,
): boolean {
  const audience = audienceOf(facts);
  return audience !== null && experiment.audiences.includes(audience);
}

/** One running experiment as a customer stands in it. */
export type Standing =
  /** The group recorded at the first exposure: it wins. */
  | { experiment: Experiment; group: string; recorded: true }
  /** Not recorded yet and eligible: the group the shares give; recording it is the server's. */
  | { experiment: Experiment; group: string; recorded: false }
  /** Not recorded and not eligible: the default prices, nothing recorded. */
  | { experiment: Experiment; group: null; recorded: false };

/** The customer's standing in each experiment running at `atMs`. */
export function standings(
  catalog: Pick<Catalog, "experiments">,
  input: {
    visitorId: string | null;
    facts: EnrolmentFacts;
    /** Groups recorded for the visitor (exposure rows), by experiment id. */
    recorded: Readonly<Record<string, string>>;
    atMs: number;
  },
): Standing[] {
  return runningExperiments(catalog, input.atMs).map((experiment): Standing => {
    const recorded = input.recorded[experiment.id];
    if (recorded !== undefined) return { experiment, group: recorded, recorded: true };
    if (input.visitorId !== null && mayEnrol(experiment, input.facts)) {
      return { experiment, group: groupFor(experiment, input.visitorId), recorded: false };
    }
    return { experiment, group: null, recorded: false };
  });
}

/** The price choice these standings give, with the account's legacy price-testing group. */
export function choiceOf(standing: readonly Standing[], groupValue: string | null): PriceChoice {
  const groups: Record<string, string> = {};
  for (const s of standing) if (s.group !== null) groups[s.experiment.id] = s.group;
  return { groupValue, groups };
}

/** The `xp` cookie's entry: `expId:group` for each known group, and `!` when not enrollable. */
export function xpCookieValue(standing: readonly Standing[], facts: EnrolmentFacts): string {
  const entries = standing.flatMap((s) =>
    s.group === null ? [] : [`${s.experiment.id}:${s.group}`],
  );
  if (audienceOf(facts) === null || standing.some((s) => s.group === null)) entries.push("!");
  return entries.join("|");
}
