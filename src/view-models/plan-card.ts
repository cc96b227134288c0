// One plan card of the plans and pricing pages: every string and figure it shows, precomputed
// (the wording of prices is in price-views.ts).
// Figures come from the pricing module (quote, savingsPercent, ...); this file only picks and
// words them (STYLE.md point 6).
import type { Catalog, Experiment, PlanEntry } from "../domain/catalog/catalog-schema.ts";
import { priceSetOfGroup } from "../domain/experiments/assignment.ts";
import {
  formatCount,
  formatUsd,
  premiumTemplatesLine,
  type Quote,
  quote,
  savingsPercent,
  termLabel,
} from "../domain/pricing/index.ts";
import { checkoutHref, type Link } from "./checkout-links.ts";
import {
  type CampaignPrice,
  campaignPrices,
  type PriceMode,
  type PriceView,
  perTerm,
  plainDecimal,
  regularPrice,
  seatNotes,
} from "./price-views.ts";
import { type SeatCalculatorModel, seatCalculatorModel } from "./seat-calculator.ts";

/** plans: buy calls to action. pricing: the logged-out variant, with trials and the free plan. */
export type PageVariant = "plans" | "pricing";

export type CardContext = {
  /** Build time: campaigns that ended before it are left out. */
  nowMs: number;
  variant: PageVariant;
  /** A price-set id or priceTestingGroupValue; default prices when absent. */
  priceGroup?: string | undefined;
  /** An experiment's group to price its plans in (its set wins over priceGroup for them). */
  experiment?: { id: string; plans: readonly string[]; group: string } | undefined;
};

export type EssentialsOffer = { text: string; note: string; cta: Link };

/** What an option shows that depends on the prices: one per experiment group. */
export type OptionFigures = {
  price: PriceView;
  /** Whole percent the annual option saves against the monthly one. */
  savingsPercent: number | null;
  savings: string | null;
  campaigns: CampaignPrice[];
  /** Windows in which a campaign replaces the regular price (windowsAttr; "" when none). */
  regularHiddenDuring: string;
  regularHiddenAtBuild: boolean;
  notes: string[];
  essentials: EssentialsOffer | null;
};

/** An experiment group's figures of an option; `tag` is "experimentId:group" (decision 0090). */
export type GroupFigures = OptionFigures & { tag: string };

export type PriceOption = OptionFigures & {
  mode: PriceMode;
  code: string;
  /** Heading of a secondary option ("Or pay every 6 months"); null for the main ones. */
  heading: string | null;
  /**
   * Each group's figures when an experiment not ended at build time prices this option
   * differently per group (the control's first); empty otherwise. The top-level figures are the
   * default prices', shown without JavaScript.
   */
  groups: GroupFigures[];
  /** Null when the seat calculator's form is the way to buy this option. */
  cta: Link | null;
  /**
   * For schema.org Offer: the term price at build time as a plain decimal, and where to buy it.
   * During a campaign (pages are rebuilt at each campaign edge: `catalog schedule`), the
   * campaign's price, the day it ends and the regular price it replaces.
   */
  offer: {
    name: string;
    price: string;
    url: string;
    campaign: { validUntil: string; regularPrice: string } | null;
  };
};

export type Bullet = { text: string; tooltip: { id: string; label: string; text: string } | null };

export type PlanCard = {
  id: string;
  /** Every product code the card prices (its variants and their essentials versions). */
  codes: string[];
  title: string;
  subtitle: string;
  allowances: string;
  seatsIncluded: string | null;
  bullets: Bullet[];
  templates: { text: string; note: string | null };
  options: PriceOption[];
  calculator: SeatCalculatorModel | null;
};

/** The price group that prices `code`: the experiment group's set for a plan it covers. */
function priceGroupOf(ctx: CardContext, code: string): string | undefined {
  const x = ctx.experiment;
  if (x?.plans.includes(code)) return priceSetOfGroup(x.group) ?? undefined;
  return ctx.priceGroup;
}

function quoteOf(catalog: Catalog, code: string, ctx: CardContext): Quote {
  const priceGroup = priceGroupOf(ctx, code);
  const result = quote(catalog, { plan: code, atMs: ctx.nowMs, priceGroup });
  if (!result.ok)
    throw new Error(`Cannot price ${code} for the plans page: ${result.error.message}`);
  // The page shows regular prices; campaigns are shown separately, each in its window.
  return result.quote;
}

/** The free plan (wv_free): nothing to pay, so it is signed up for, not bought. */
export function isFreePlan(plan: Pick<PlanEntry, "recurring" | "price" | "isTrial">): boolean {
  return !plan.recurring && plan.price === 0 && !plan.isTrial;
}

type CallToAction = { kind: "buy" | "trial" | "signup"; link: Link };

function callToAction(plan: PlanEntry, ctx: CardContext): CallToAction {
  const { code, tier } = plan;
  if (isFreePlan(plan)) {
    return {
      kind: "signup",
      link: {
        href: checkoutHref({ p: "buy", product: code, tier, route: "signup" }),
        label: "Sign up free",
      },
    };
  }
  if (ctx.variant === "pricing" && plan.trialProduct !== null && plan.trialDuration > 0) {
    const label = `Try ${plan.name} free for ${plan.trialDuration} days`;
    return {
      kind: "trial",
      link: { href: checkoutHref({ p: "trial", product: code, tier }), label },
    };
  }
  return {
    kind: "buy",
    link: { href: checkoutHref({ p: "buy", product: code, tier }), label: `Buy ${plan.name}` },
  };
}

/** The option's link; a banded plan is bought through the seat calculator's form instead. */
function optionLink(plan: PlanEntry, q: Quote, ctx: CardContext, secondary: boolean): Link | null {
  const { kind, link } = callToAction(plan, ctx);
  if (q.seatBand !== null && kind === "buy") return null;
  if (!secondary) return link;
  const span = plan.termDuration === 1 ? "a month" : termLabel(plan.termDuration);
  return { ...link, label: `${link.label} for ${span}` };
}

function essentialsOffer(
  catalog: Catalog,
  plan: PlanEntry,
  ctx: CardContext,
): EssentialsOffer | null {
  const withEssentials = catalog.plans.find((p) => p.code === plan.essentialsUpgrade);
  if (withEssentials === undefined || withEssentials.legacy) return null;
  const q = quoteOf(catalog, withEssentials.code, ctx);
  return {
    text: `With Essentials: ${formatUsd(q.price)}${perTerm(withEssentials)}`,
    note: `Essentials ${formatUsd(withEssentials.essentialsPrice)}${perTerm(withEssentials)}`,
    cta: {
      href: checkoutHref({ p: "buy", product: withEssentials.code, tier: withEssentials.tier }),
      label: `Buy ${plan.name} with Essentials`,
    },
  };
}

function offerName(plan: PlanEntry, mode: PriceMode): string {
  if (!plan.recurring) return "One-time";
  if (mode === "monthly" || plan.termDuration === 1) return "Monthly";
  return plan.termDuration === 12 ? "Annual" : `Every ${termLabel(plan.termDuration)}`;
}

function buildTimeOffer(
  plan: PlanEntry,
  mode: PriceMode,
  q: Quote,
  campaigns: readonly CampaignPrice[],
): PriceOption["offer"] {
  const running = campaigns.find((c) => c.visibleAtBuild);
  return {
    name: offerName(plan, mode),
    price: running ? running.offerPrice : plainDecimal(q.price),
    url: checkoutHref({ p: "buy", product: plan.code, tier: plan.tier }),
    campaign: running
      ? {
          // schema.org's priceValidUntil is the last date (UTC) the price holds; validTo is the
          // first instant it no longer does.
          validUntil: new Date(running.validToMs - 1).toISOString().slice(0, 10),
          regularPrice: plainDecimal(q.price),
        }
      : null,
  };
}

type OptionRole = { mode: PriceMode; savings: number | null; secondary: boolean };

function priceOption(
  catalog: Catalog,
  plan: PlanEntry,
  q: Quote,
  ctx: CardContext,
  role: OptionRole,
) {
  const { mode, savings, secondary } = role;
  const price = regularPrice(plan, q, mode);
  const campaigns = campaignPrices(catalog, plan, price, {
    nowMs: ctx.nowMs,
    priceGroup: priceGroupOf(ctx, plan.code),
  });
  const term = termLabel(plan.termDuration);
  return {
    mode,
    code: plan.code,
    heading: secondary ? `Or pay every ${term}` : null,
    groups: [],
    price,
    savingsPercent: savings,
    savings: savings === null ? null : `Save ${savings}%`,
    campaigns,
    regularHiddenDuring: campaigns.map((c) => c.window).join(" "),
    regularHiddenAtBuild: campaigns.some((c) => c.visibleAtBuild),
    notes: seatNotes(plan, q),
    essentials: essentialsOffer(catalog, plan, ctx),
    cta: optionLink(plan, q, ctx, secondary),
    offer: buildTimeOffer(plan, mode, q, campaigns),
  } satisfies PriceOption;
}

/** The variants a card offers: current, not a trial, not the essentials version. */
function cardVariants(catalog: Catalog, family: string): PlanEntry[] {
  return catalog.plans
    .filter((p) => p.family === family && !p.legacy && !p.isTrial && !p.essentials)
    .sort((a, b) => a.termDuration - b.termDuration);
}

function priceOptions(catalog: Catalog, variants: PlanEntry[], ctx: CardContext): PriceOption[] {
  const priced = variants.map((plan) => ({ plan, q: quoteOf(catalog, plan.code, ctx) }));
  const monthly = priced.find(({ plan }) => plan.recurring && plan.termDuration === 1);
  const annual = priced.find(({ plan }) => plan.recurring && plan.termDuration === 12);
  if (monthly && annual) {
    const saving = savingsPercent(
      { price: monthly.q.price, termDuration: 1 },
      { price: annual.q.price, termDuration: 12 },
    );
    const rest = priced.filter((p) => p !== monthly && p !== annual);
    return [
      priceOption(catalog, annual.plan, annual.q, ctx, {
        mode: "annual",
        savings: saving,
        secondary: false,
      }),
      priceOption(catalog, monthly.plan, monthly.q, ctx, {
        mode: "monthly",
        savings: null,
        secondary: false,
      }),
      ...rest.map(({ plan, q }) =>
        priceOption(catalog, plan, q, ctx, { mode: "always", savings: null, secondary: true }),
      ),
    ];
  }
  // Banded (schools) first: it is the main offer of its card.
  const ordered = [...priced].sort(
    (a, b) => Number(b.q.seatBand !== null) - Number(a.q.seatBand !== null),
  );
  return ordered.map(({ plan, q }, i) =>
    priceOption(catalog, plan, q, ctx, { mode: "always", savings: null, secondary: i > 0 }),
  );
}

/** The product codes a card prices: its variants and their essentials versions. */
function cardCodes(variants: readonly PlanEntry[]): string[] {
  return variants.flatMap((p) => (p.essentialsUpgrade ? [p.code, p.essentialsUpgrade] : [p.code]));
}

/**
 * The experiment that prices this card's plans from the build time on, if any. The page shows
 * each group's figures of one experiment per card (the annual saving compares two of its plans);
 * two would need every combination of their groups, so the build refuses them.
 */
export function cardExperiment(
  catalog: Pick<Catalog, "experiments">,
  family: string,
  codes: readonly string[],
  nowMs: number,
): Experiment | undefined {
  const covering = (catalog.experiments ?? []).filter(
    (x) => x.to > nowMs && codes.some((code) => x.plans.includes(code)),
  );
  if (covering.length > 1) {
    throw new Error(
      `The plans page shows one price experiment per plan card, but ${covering.map((x) => x.id).join(" and ")} both price the ${family} card (${codes.join(", ")}).`,
    );
  }
  return covering[0];
}

const figuresOf = (option: PriceOption): OptionFigures => ({
  price: option.price,
  savingsPercent: option.savingsPercent,
  savings: option.savings,
  campaigns: option.campaigns,
  regularHiddenDuring: option.regularHiddenDuring,
  regularHiddenAtBuild: option.regularHiddenAtBuild,
  notes: option.notes,
  essentials: option.essentials,
});

/** The options with each experiment group's figures where the groups' figures differ. */
function withGroups(
  catalog: Catalog,
  variants: PlanEntry[],
  ctx: CardContext,
  options: PriceOption[],
  experiment: Experiment | undefined,
): PriceOption[] {
  if (experiment === undefined) return options;
  const perGroup = experiment.groups.map((g) => ({
    tag: `${experiment.id}:${g.set}`,
    options: priceOptions(catalog, variants, {
      ...ctx,
      experiment: { id: experiment.id, plans: experiment.plans, group: g.set },
    }),
  }));
  return options.map((option, i) => {
    const groups = perGroup.map(({ tag, options: those }): GroupFigures => {
      const theirs = those[i];
      if (theirs?.code !== option.code) throw new Error(`${option.code}: groups differ in options`);
      return { tag, ...figuresOf(theirs) };
    });
    const one = JSON.stringify(figuresOf(option));
    const alike = groups.every(({ tag: _, ...figures }) => JSON.stringify(figures) === one);
    return alike ? option : { ...option, groups };
  });
}

export function planCard(catalog: Catalog, family: string, ctx: CardContext): PlanCard | null {
  const variants = cardVariants(catalog, family);
  const main = variants[0];
  if (main === undefined) return null;
  const experiment = cardExperiment(catalog, family, cardCodes(variants), ctx.nowMs);
  const bandedCode = variants.find((p) => p.seatStructure !== null)?.code;
  if (bandedCode !== undefined && experiment?.plans.includes(bandedCode)) {
    // The seat calculator's live total reads one set of bands (seat-calculator.ts).
    throw new Error(
      `The plans page cannot show ${experiment.id}'s groups on ${bandedCode}: its seat calculator shows one price set.`,
    );
  }
  const options = withGroups(
    catalog,
    variants,
    ctx,
    priceOptions(catalog, variants, ctx),
    experiment,
  );
  const banded = variants.find((p) => p.seatStructure !== null);
  const templates = premiumTemplatesLine(main);
  return {
    id: family,
    codes: cardCodes(variants),
    title: main.name,
    subtitle: main.subTitle,
    allowances: main.capacity,
    seatsIncluded:
      main.multiUser && main.includedSeats > 0 && banded === undefined
        ? `${formatCount(main.includedSeats)} seats included`
        : null,
    bullets: main.description.map((item, i) => ({
      text: item.text,
      tooltip: item.tooltip
        ? { id: `tip-${family}-${i}`, label: `About: ${item.text}`, text: item.tooltip.text }
        : null,
    })),
    templates: { text: templates.text, note: templates.note ?? null },
    options,
    calculator: banded ? seatCalculatorModel(catalog, banded, banded.tier) : null,
  };
}
