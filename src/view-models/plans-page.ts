// The plans screen of /plans, /plans/{tab} and /pricing: tabs per audience, the monthly/annual
// switch, plan cards, campaign banners, testimonials and extras. A plain function of the catalogue
// and the build time, unit-tested without Astro (STYLE.md point 6).

import type { PageExperiment } from "../browser/experiment-head.ts";
import type { Catalog, PlanEntry } from "../domain/catalog/catalog-schema.ts";
import { formatUsd } from "../domain/pricing/index.ts";
import { type BannerModel, plansBanners } from "./campaign-windows.ts";
import { checkoutHref, type Link } from "./checkout-links.ts";
import { pageExperiments } from "./experiments-on-page.ts";
import {
  type CardContext,
  isFreePlan,
  type PageVariant,
  type PlanCard,
  planCard,
} from "./plan-card.ts";

export const TAB_IDS = ["personal", "business", "education"] as const;
export type TabId = (typeof TAB_IDS)[number];

const TABS: Record<TabId, { label: string; heading: string; audiences: string[] }> = {
  personal: {
    label: "Personal",
    heading: "Plans for individuals",
    audiences: ["personal", "unlimited", "professional"],
  },
  business: { label: "Business", heading: "Plans for teams", audiences: ["business"] },
  education: {
    label: "Education",
    heading: "Plans for schools and teachers",
    audiences: ["education", "teacher"],
  },
};

export type Testimonial = { quote: string; role: string };

export type PlansTab = {
  id: TabId;
  label: string;
  heading: string;
  /** Whether the monthly/annual switch changes anything on this tab. */
  hasBillingSwitch: boolean;
  cards: PlanCard[];
  testimonials: Testimonial[];
};

export type ExtrasModel = {
  heading: string;
  singleExports: { heading: string; items: { name: string; price: string; cta: Link }[] };
  exportUpgrades: { heading: string; text: string; items: string[] };
};

export type PlansPageModel = {
  variant: PageVariant;
  heading: string;
  intro: string;
  openTab: TabId;
  tabs: PlansTab[];
  billing: {
    legend: string;
    options: {
      id: "annual" | "monthly";
      label: string;
      /** The default prices' hint ("save up to 52%"), shown without JavaScript. */
      hint: string | null;
      /** Each experiment group's hint where a group's prices change it (decision 0090). */
      groupHints: { tag: string; hint: string | null }[];
    }[];
  };
  banners: BannerModel[];
  extras: ExtrasModel;
  /** The price experiments of plans on the page (experiments-on-page.ts), for its head. */
  experiments: PageExperiment[];
};

export type PlansPageOptions = {
  variant: PageVariant;
  /** The tab open when the page loads (each tab has its own prerendered URL). */
  tab?: TabId;
  /** A price-set id or priceTestingGroupValue; the static pages use the default prices. */
  priceGroup?: string;
};

/** Plans sold on a tab, in catalogue order. The free plan only on the sign-up (pricing) page. */
export function tabPlans(
  catalog: Pick<Catalog, "plans">,
  tab: TabId,
  variant: PageVariant,
): PlanEntry[] {
  return catalog.plans
    .filter((p) => p.category === tab && !p.legacy && !p.isTrial && !p.essentials)
    .filter((p) => variant === "pricing" || !isFreePlan(p))
    .sort((a, b) => a.order - b.order);
}

function tabFamilies(catalog: Catalog, tab: TabId, variant: PageVariant): string[] {
  return [...new Set(tabPlans(catalog, tab, variant).map((p) => p.family))];
}

function hoursLabel(hours: number): string {
  return `${hours} ${hours === 1 ? "hour" : "hours"}`;
}

function extrasModel(catalog: Catalog): ExtrasModel {
  return {
    heading: "Extras",
    singleExports: {
      heading: "Just one video? Buy a single export, no plan needed",
      items: catalog.singleExports.map((item) => ({
        name: item.name,
        price: formatUsd(item.price),
        cta: {
          href: checkoutHref({
            p: "buy",
            product: item.code,
            tier: "personal",
            route: "checkout_single_export",
          }),
          label: `Buy ${item.name}`,
        },
      })),
    },
    exportUpgrades: {
      heading: "More publishing time",
      text: "Add publishing hours to your plan from your account:",
      items: catalog.exportUpgrades.map((u) => `${hoursLabel(u.hours)} for ${formatUsd(u.price)}`),
    },
  };
}

const groupTagsOf = (card: PlanCard) => card.options.flatMap((o) => o.groups.map((g) => g.tag));

/**
 * "save up to N%": the best annual saving on the page, with the figures of the experiment group
 * `tag` where an option has them (the other experiments' at their defaults).
 */
function savingHint(tabs: readonly PlansTab[], tag?: string): string | null {
  const savings = tabs.flatMap((tab) =>
    tab.cards.flatMap((card) =>
      card.options.map((o) => (o.groups.find((g) => g.tag === tag) ?? o).savingsPercent ?? 0),
    ),
  );
  const best = Math.max(0, ...savings);
  return best > 0 ? `save up to ${best}%` : null;
}

/**
 * The hint of each group of the one experiment whose groups change it; none when no group does.
 * Two experiments that both change it would need every combination of their groups: refused.
 */
function experimentHints(
  tabs: readonly PlansTab[],
  hint: string | null,
): { tag: string; hint: string | null }[] {
  const tags = [...new Set(tabs.flatMap((t) => t.cards.flatMap(groupTagsOf)))];
  const byExperiment = new Map<string, { tag: string; hint: string | null }[]>();
  for (const tag of tags) {
    const id = tag.slice(0, tag.lastIndexOf(":"));
    byExperiment.set(id, [...(byExperiment.get(id) ?? []), { tag, hint: savingHint(tabs, tag) }]);
  }
  const changing = [...byExperiment].filter(([, hints]) => hints.some((h) => h.hint !== hint));
  if (changing.length > 1) {
    throw new Error(
      `The plans page's "save up to" hint shows one price experiment's groups, but ${changing.map(([id]) => id).join(" and ")} both change it.`,
    );
  }
  return changing[0]?.[1] ?? [];
}

export function plansPageModel(
  catalog: Catalog,
  nowMs: number,
  options: PlansPageOptions,
): PlansPageModel {
  const ctx: CardContext = { nowMs, variant: options.variant, priceGroup: options.priceGroup };
  const tabs = TAB_IDS.map((id): PlansTab => {
    const cards = tabFamilies(catalog, id, options.variant)
      .map((family) => planCard(catalog, family, ctx))
      .filter((card): card is PlanCard => card !== null);
    return {
      id,
      label: TABS[id].label,
      heading: TABS[id].heading,
      hasBillingSwitch: cards.some((card) => card.options.some((o) => o.mode !== "always")),
      cards,
      testimonials: TABS[id].audiences.flatMap((audience) => catalog.testimonials[audience] ?? []),
    };
  });
  const hint = savingHint(tabs);
  const groupHints = experimentHints(tabs, hint);
  return {
    variant: options.variant,
    heading: options.variant === "pricing" ? "Pricing" : "Plans",
    intro:
      options.variant === "pricing"
        ? "Start free, try a paid plan, or buy the plan that fits how you make video."
        : "Pick the plan that fits how you make video. Prices are in US dollars.",
    openTab: options.tab ?? "personal",
    tabs,
    billing: {
      legend: "Billing",
      options: [
        {
          id: "annual",
          label: "Yearly",
          hint,
          groupHints,
        },
        { id: "monthly", label: "Monthly", hint: null, groupHints: [] },
      ],
    },
    banners: plansBanners(catalog, nowMs),
    extras: extrasModel(catalog),
    experiments: pageExperiments(
      catalog,
      nowMs,
      tabs.flatMap((tab) => tab.cards.flatMap((card) => card.codes)),
    ),
  };
}
