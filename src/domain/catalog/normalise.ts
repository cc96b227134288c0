// Turns the schema-checked source files into the normalised catalogue (catalog-schema.ts):
// dollars become integer cents, ISO dates become millisecond timestamps, plan families become one
// PlanEntry per variant with family fields copied in, absent values take their -1/null defaults,
// and the monthly and annual versions of a plan are linked within its family.
import type { CampaignEntry, Catalog, PlanEntry, SeatStructure } from "./catalog-schema.ts";
import type {
  AccountsFile,
  CampaignsFile,
  EssentialsFile,
  ExportsFile,
  MarketingFile,
  PlanFamilyFile,
  PriceMigrationsFile,
  PriceTestsFile,
  SeatBandsFile,
  TaxRatesFile,
} from "./source-schema.ts";

/** The files of a catalogue after their schemas have read them (defaults filled in). */
export type ParsedSources = {
  plans: { file: string; data: PlanFamilyFile }[];
  essentials: EssentialsFile;
  exports: ExportsFile;
  seatBands: SeatBandsFile;
  campaigns: CampaignsFile;
  priceTests: PriceTestsFile;
  taxRates: TaxRatesFile;
  marketing: MarketingFile;
  accounts: AccountsFile;
  /** Absent from catalogues without price migrations. */
  priceMigrations?: PriceMigrationsFile | undefined;
};

/** Where each plan entry came from: its family file and its index in `variants`. */
export type PlanOrigin = { file: string; variant: number };

/**
 * Dollars to integer cents, exactly: amounts have at most two decimals (the schema checks), and
 * rounding removes the binary error of `n * 100` (4.99 * 100 is 499.00000000000006).
 */
export const toCents = (dollars: number): number => Math.round(dollars * 100);
const toMs = (iso: string): number => Date.parse(iso);

type Variant = PlanFamilyFile["variants"][number];

function sibling(variants: readonly Variant[], of: Variant, term: 1 | 12): string | null {
  const sameKind = variants.filter((v) => v.term === term && v.essentials === of.essentials);
  const match = sameKind.find((v) => v.legacy === of.legacy) ?? sameKind[0];
  return match?.code ?? null;
}

function planEntry(
  family: PlanFamilyFile,
  variant: Variant,
  addOnPrice: (code: string) => number,
): PlanEntry {
  const seatPrice = variant.seatPrice === undefined ? -1 : toCents(variant.seatPrice);
  const price = toCents(variant.price);
  return {
    code: variant.code,
    family: family.family,
    name: family.name,
    subTitle: family.subTitle,
    tier: family.tier,
    category: family.category,
    vertical: family.vertical,
    description: family.description,
    capacity: family.capacity,
    multiUser: family.multiUser,
    termDuration: variant.term,
    recurring: variant.recurring,
    showYearly: variant.showYearly,
    price,
    essentials: variant.essentials,
    essentialsPrice: variant.essentialsAddOn ? addOnPrice(variant.essentialsAddOn) : 0,
    essentialsAddOn: variant.essentialsAddOn ?? null,
    essentialsUpgrade: variant.essentialsUpgrade ?? null,
    essentialsDowngrade: variant.essentialsDowngrade ?? null,
    seatPrice,
    includedSeats: family.includedSeats ?? -1,
    minSeats: family.minSeats ?? 1,
    maxSeats: family.maxSeats ?? null,
    seatStructure: variant.seatStructure ?? null,
    gbPerSeat: family.gbPerSeat ?? null,
    hoursPerSeat: family.hoursPerSeat ?? null,
    includedGb: family.includedGb,
    includedHrs: family.includedHrs,
    publishMinutesPerMonth: family.publishMinutesPerMonth,
    maxPublishResolution: family.maxPublishResolution,
    includedContentTier: family.includedContentTier,
    premiumMusic: family.premiumMusic,
    screenCapture: family.screenCapture,
    dualCapture: family.dualCapture,
    premiumTemplates: family.premiumTemplates,
    trialProduct: family.trialProduct ?? null,
    trialDuration: family.trialDuration ?? -1,
    isTrial: family.isTrial,
    validMonths: family.validMonths ?? null,
    legacy: variant.legacy,
    order: family.order,
    monthlyVersion: sibling(family.variants, variant, 1),
    annualVersion: sibling(family.variants, variant, 12),
    priceTests: Object.fromEntries(
      Object.entries(variant.priceTests).map(([set, override]) => [
        set,
        {
          price: override.price === undefined ? price : toCents(override.price),
          seatPrice: override.seatPrice === undefined ? seatPrice : toCents(override.seatPrice),
        },
      ]),
    ),
    assumed: variant.assumed,
  };
}

function seatStructure(structure: SeatBandsFile["structures"][number]): SeatStructure {
  return {
    id: structure.id,
    name: structure.name,
    default: structure.default,
    appliesTo: structure.appliesTo,
    minimumSeats: structure.minimumSeats,
    maximumSeats: Math.max(...structure.bands.map((band) => band.to)),
    bands: structure.bands.map((band) => ({
      from: band.from,
      to: band.to,
      total: band.total === undefined ? null : toCents(band.total),
      perSeat: band.perSeat === undefined ? null : toCents(band.perSeat),
      assumed: band.assumed,
    })),
  };
}

function campaign(source: CampaignsFile["campaigns"][number]): CampaignEntry {
  return {
    id: source.id,
    name: source.name,
    coupon: source.coupon,
    targeted: source.targeted,
    recurring: source.recurring,
    validFrom: toMs(source.validFrom),
    validTo: toMs(source.validTo),
    products: source.products.map((product) => product.code),
    prices: Object.fromEntries(
      source.products.map((product) => [product.code, toCents(product.price)]),
    ),
    banners: source.banners,
    assumed: source.assumed,
  };
}

export function normalise(sources: ParsedSources): { catalog: Catalog; planOrigins: PlanOrigin[] } {
  const addOnPrices = new Map(sources.essentials.addOns.map((a) => [a.code, toCents(a.price)]));
  const addOnPrice = (code: string) => addOnPrices.get(code) ?? 0;
  const plans: PlanEntry[] = [];
  const planOrigins: PlanOrigin[] = [];
  for (const { file, data } of sources.plans) {
    data.variants.forEach((variant, index) => {
      plans.push(planEntry(data, variant, addOnPrice));
      planOrigins.push({ file, variant: index });
    });
  }
  const { essentials, exports, marketing, accounts } = sources;
  const catalog: Catalog = {
    plans,
    essentials: {
      name: essentials.name,
      subTitle: essentials.subTitle,
      description: essentials.description,
      addOns: essentials.addOns.map((addOn) => ({
        code: addOn.code,
        name: essentials.name,
        subTitle: essentials.subTitle,
        description: essentials.description,
        termDuration: addOn.term,
        price: toCents(addOn.price),
      })),
    },
    singleExports: exports.singleExports.map((e) => ({ ...e, price: toCents(e.price) })),
    exportUpgrades: exports.exportUpgrades.map((e) => ({ ...e, price: toCents(e.price) })),
    maxExportMs: exports.maxExportMs,
    seatStructures: sources.seatBands.structures.map(seatStructure),
    campaigns: sources.campaigns.campaigns.map(campaign),
    priceSets: sources.priceTests.priceSets,
    taxRates: sources.taxRates.rates.map((rate) => ({
      country: rate.country,
      state: rate.state ?? null,
      ratePercent: rate.rate,
      assumed: rate.assumed,
    })),
    testimonials: marketing.testimonials,
    faqs: marketing.faqs,
    schoolDistricts: accounts.schoolDistricts,
    blockedEmailDomains: accounts.blockedEmailDomains,
    priceMigrations: (sources.priceMigrations?.migrations ?? []).map((m) => ({
      id: m.id,
      description: m.description,
      products: m.products,
      seatStructure: m.seatStructure ?? null,
      signedUpBefore: m.signedUpBefore === undefined ? null : toMs(m.signedUpBefore),
      renewalsFrom: toMs(m.renewalsFrom),
    })),
    experiments: sources.priceTests.experiments.map((x) => ({
      id: x.id,
      description: x.description,
      groups: x.groups,
      plans: x.plans,
      audiences: x.audiences,
      from: toMs(x.from),
      to: toMs(x.to),
    })),
  };
  return { catalog, planOrigins };
}
