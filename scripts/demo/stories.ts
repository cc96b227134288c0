// Every visitor's story, drawn before the season plays: when they arrive and what they do on
// which day. Pure: the seed and the visitor's number decide it all (random.ts), the group comes
// from the visitor id as the static page's script computes it (src/domain/experiments), so the
// same seed always tells the same stories, whatever order the requests then finish in.
import { CONTROL } from "../../src/domain/catalog/catalog-schema.ts";
import { groupFor } from "../../src/domain/experiments/assignment.ts";
import { type Random, randomStream } from "./random.ts";
import {
  ANNUAL_CANCEL,
  type Calendar,
  COUPONS,
  dayMs,
  EXPORTS,
  MONTHLY_AFTERWARDS,
  OTHER_INTENTS,
  POWER_UPGRADE,
  PROFESSIONAL_RATE,
  PURCHASE,
  TRIAL_KINDS,
  UNLIMITED_DOWNGRADE,
} from "./season.ts";

/** Where a buyer pays from: the billing address the checkout asks for. */
export type Country = "US" | "DE";

export type Action =
  /** Looks at the prices: the visitor id cookie and the exposure beacon. */
  | { kind: "arrive" }
  | { kind: "signUp"; country: Country }
  /** Verifies the address with the mailed code and starts a trial of this vertical. */
  | { kind: "startTrial"; vertical: string }
  /** Buys a plan or a one-off product with the paying card (and the coupon, if any). */
  | { kind: "buy"; product: string; coupon: string | null }
  /** Changes to another plan (a purchase over the running subscription). */
  | { kind: "changePlan"; product: string }
  | { kind: "cancel" }
  /** Saves a card that every later charge declines. */
  | { kind: "failingCard" }
  /** Comes back on another device: a new browser, signed in with the password. */
  | { kind: "otherDevice" };

export type Step = { day: number; action: Action };

export type Story = {
  number: number;
  visitorId: string;
  email: string;
  /** The experiment group when the visitor arrives inside its window, else null. */
  group: string | null;
  steps: Step[];
};

/** The plans a visitor buys besides Professional, by family. */
const MONTHLY = { power: "wv_single_1m", unlimited: "wv_unloct17_1m" } as const;
const ANNUAL = { power: "wv_single_12m", unlimited: "wv_unloct17_12m" } as const;
const PROFESSIONAL = { monthly: "wv_bizindiv_1m", annual: "wv_bizindiv_12m" } as const;

export function emailOf(seed: number, number: number): string {
  return `visitor-${seed}-${number}@demo.example`;
}

/** The stories of `visitors` visitors of the season. */
export function tellStories(seed: number, visitors: number, calendar: Calendar): Story[] {
  return Array.from({ length: visitors }, (_, number) => tellStory(seed, number, calendar));
}

function tellStory(seed: number, number: number, calendar: Calendar): Story {
  const random = randomStream(seed, "visitor", number);
  const visitorId = random.uuid();
  const arrival = random.int(0, calendar.arrivalDays - 1);
  const at = dayMs(calendar, arrival);
  const { experiment } = calendar;
  const inWindow = experiment.from <= at && at < experiment.to;
  const group = inWindow ? groupFor(experiment, visitorId) : null;
  const professionalRate = PROFESSIONAL_RATE[group ?? CONTROL] ?? 0;
  const intent = random.weighted<keyof typeof OTHER_INTENTS | "professional" | "leave">([
    ["professional", professionalRate],
    ...(Object.entries(OTHER_INTENTS) as [keyof typeof OTHER_INTENTS, number][]),
    ["leave", 1 - professionalRate - Object.values(OTHER_INTENTS).reduce((a, b) => a + b, 0)],
  ]);
  const steps: Step[] = [{ day: arrival, action: { kind: "arrive" } }];
  const story: Story = { number, visitorId, email: emailOf(seed, number), group, steps };
  if (intent === "leave") return story;
  const country: Country = random.chance(PURCHASE.fromGermany) ? "DE" : "US";
  steps.push({ day: arrival, action: { kind: "signUp", country } });
  switch (intent) {
    case "freeAccount":
      return story;
    case "export":
      steps.push({
        day: arrival,
        action: buy(random, calendar, arrival, random.weighted(EXPORTS)),
      });
      return story;
    case "trialOnly":
      steps.push({
        day: arrival,
        action: { kind: "startTrial", vertical: random.weighted(TRIAL_KINDS) },
      });
      return story;
    case "professional":
      buyPlan(random, calendar, steps, arrival, "professional");
      return story;
    case "otherPlan":
      buyPlan(random, calendar, steps, arrival, random.chance(0.5) ? "power" : "unlimited");
      return story;
  }
}

/** A purchase on `day`, with the coupon of a campaign pricing the product then, perhaps. */
function buy(random: Random, calendar: Calendar, day: number, product: string): Action {
  const at = dayMs(calendar, day);
  const campaign = calendar.campaigns.find(
    (c) => c.products.includes(product) && c.validFrom <= at && at < c.validTo,
  );
  const share = campaign?.coupon ? (COUPONS[campaign.coupon] ?? 0) : 0;
  const coupon = campaign?.coupon && random.chance(share) ? campaign.coupon : null;
  return { kind: "buy", product, coupon };
}

/** A plan purchase, perhaps after a trial, and what the subscriber does afterwards. */
function buyPlan(
  random: Random,
  calendar: Calendar,
  steps: Step[],
  arrival: number,
  family: "professional" | "power" | "unlimited",
): void {
  const trialFirst =
    family === "professional"
      ? random.chance(PURCHASE.professionalTrialFirst)
      : family === "unlimited" && random.chance(PURCHASE.unlimitedTrialFirst);
  let day = arrival;
  if (trialFirst) {
    steps.push({ day, action: { kind: "startTrial", vertical: family } });
    // Bought in the trial's last days (a trial is 14 days).
    day += random.int(8, 13);
    if (random.chance(PURCHASE.otherDevice)) steps.push({ day, action: { kind: "otherDevice" } });
  }
  const annual = random.chance(PURCHASE.annual);
  const product =
    family === "professional"
      ? annual
        ? PROFESSIONAL.annual
        : PROFESSIONAL.monthly
      : annual
        ? ANNUAL[family]
        : MONTHLY[family];
  steps.push({ day, action: buy(random, calendar, day, product) });
  if (annual) {
    if (random.chance(ANNUAL_CANCEL)) {
      steps.push({ day: day + random.int(10, 60), action: { kind: "cancel" } });
    }
    return;
  }
  const move =
    family === "power" && random.chance(POWER_UPGRADE)
      ? MONTHLY.unlimited
      : family === "unlimited" && random.chance(UNLIMITED_DOWNGRADE)
        ? MONTHLY.power
        : null;
  if (move) {
    const later = day + random.int(5, 25);
    if (random.chance(PURCHASE.otherDevice))
      steps.push({ day: later, action: { kind: "otherDevice" } });
    steps.push({ day: later, action: { kind: "changePlan", product: move } });
    return;
  }
  const afterwards = random.weighted<keyof typeof MONTHLY_AFTERWARDS | "stay">([
    ...(Object.entries(MONTHLY_AFTERWARDS) as [keyof typeof MONTHLY_AFTERWARDS, number][]),
    ["stay", 1 - Object.values(MONTHLY_AFTERWARDS).reduce((a, b) => a + b, 0)],
  ]);
  if (afterwards === "cancelEarly") {
    steps.push({ day: day + random.int(3, 20), action: { kind: "cancel" } });
  } else if (afterwards === "cancelLater") {
    steps.push({ day: day + random.int(35, 70), action: { kind: "cancel" } });
  } else if (afterwards === "failingCard") {
    steps.push({ day: day + random.int(5, 20), action: { kind: "failingCard" } });
  }
}

/** Visitors with something to do on `day`, each with that day's actions in order. */
export function actionsOn(
  stories: readonly Story[],
  day: number,
): { story: Story; actions: Action[] }[] {
  const due: { story: Story; actions: Action[] }[] = [];
  for (const story of stories) {
    const actions = story.steps.filter((s) => s.day === day).map((s) => s.action);
    if (actions.length > 0) due.push({ story, actions });
  }
  return due;
}
