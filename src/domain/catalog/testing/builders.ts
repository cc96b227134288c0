// Test fixtures: a small valid catalogue in source form (as the YAML files read), with overrides.
// `makeCatalogFiles()` is valid; a test changes the one thing it is about:
//   makeCatalogFiles({ campaigns: [makeCampaignInput({ validTo: "2020-01-01T00:00:00Z" })] })
import type { z } from "zod";
import type { Issue } from "../issue.ts";
import type { SourceFile } from "../source-file.ts";
import type {
  AccountsFile,
  CampaignsFile,
  EssentialsFile,
  ExportsFile,
  FileKind,
  MarketingFile,
  PlanFamilyFile,
  PlanVariant,
  PriceMigrationsFile,
  PriceTestsFile,
  SeatBand,
  SeatBandsFile,
  TaxRatesFile,
} from "../source-schema.ts";

export type FamilyInput = z.input<typeof PlanFamilyFile>;
export type VariantInput = z.input<typeof PlanVariant>;
export type StructureInput = z.input<typeof SeatBandsFile>["structures"][number];
export type BandInput = z.input<typeof SeatBand>;
export type CampaignInput = z.input<typeof CampaignsFile>["campaigns"][number];
export type ExperimentInput = NonNullable<z.input<typeof PriceTestsFile>["experiments"]>[number];

export function makeVariant(overrides: Partial<VariantInput> = {}): VariantInput {
  return { code: "wv_single_12m", term: 12, price: 59.88, ...overrides };
}

/** The Power family: monthly and annual, each with and without essentials. */
export function makeFamily(overrides: Partial<FamilyInput> = {}): FamilyInput {
  return {
    family: "power",
    name: "Power",
    subTitle: "For creators who publish often",
    tier: "personal",
    category: "personal",
    vertical: "personal",
    capacity: "20 GB · 30 min/month",
    includedGb: 20,
    includedHrs: 0.5,
    publishMinutesPerMonth: 30,
    maxPublishResolution: "720p",
    variants: [
      makeVariant({
        code: "wv_single_1m",
        term: 1,
        price: 9.99,
        essentialsUpgrade: "wv_single_plus_1m",
      }),
      makeVariant({
        code: "wv_single_12m",
        term: 12,
        price: 59.88,
        essentialsUpgrade: "wv_single_plus_12m",
      }),
      makeVariant({
        code: "wv_single_plus_1m",
        term: 1,
        price: 29.98,
        essentials: true,
        essentialsAddOn: "essentials_1m",
        essentialsDowngrade: "wv_single_1m",
      }),
      makeVariant({
        code: "wv_single_plus_12m",
        term: 12,
        price: 179.76,
        essentials: true,
        essentialsAddOn: "essentials_12m",
        essentialsDowngrade: "wv_single_12m",
      }),
    ],
    ...overrides,
  };
}

/** Schools: seats priced by the bands of makeStructure(). */
export function makeSchoolsFamily(overrides: Partial<FamilyInput> = {}): FamilyInput {
  return makeFamily({
    family: "schools",
    name: "Schools",
    tier: "education",
    category: "education",
    vertical: "education",
    multiUser: true,
    minSeats: 30,
    includedSeats: 30,
    gbPerSeat: 5,
    hoursPerSeat: 1,
    includedGb: 150,
    includedHrs: 30,
    trialProduct: "wv_edu_trial",
    variants: [
      makeVariant({
        code: "wv_k12_12m",
        term: 12,
        price: 374,
        seatPrice: 4.99,
        seatStructure: "k12-2024-01",
        priceTests: { "sample-catalogue": { price: 299 } },
      }),
    ],
    ...overrides,
  });
}

export function makeTrialFamily(overrides: Partial<FamilyInput> = {}): FamilyInput {
  return makeFamily({
    family: "education-trial",
    name: "Education trial",
    tier: "education",
    category: "education",
    vertical: "education",
    isTrial: true,
    trialDuration: 30,
    variants: [makeVariant({ code: "wv_edu_trial", term: 1, price: 0, showYearly: false })],
    ...overrides,
  });
}

export function makeBand(overrides: Partial<BandInput> = {}): BandInput {
  return { from: 1, to: 30, total: 374, ...overrides };
}

export function makeStructure(overrides: Partial<StructureInput> = {}): StructureInput {
  return {
    id: "k12-2024-01",
    name: "Schools, January 2024",
    default: true,
    appliesTo: ["wv_k12_12m"],
    minimumSeats: 30,
    bands: [makeBand(), makeBand({ from: 31, to: 100, total: undefined, perSeat: 4.99 })],
    ...overrides,
  };
}

/** A campaign as catalog/campaigns.yaml writes it (dates as text); `makeCampaign` in src/domain/testing builds the parsed entry. */
export function makeCampaignInput(overrides: Partial<CampaignInput> = {}): CampaignInput {
  return {
    id: "black-friday-2026",
    name: "Black Friday 2026",
    coupon: "blackfriday2026",
    validFrom: "2026-11-27T00:00:00Z",
    validTo: "2026-12-01T00:00:00Z",
    products: [{ code: "wv_single_12m", price: 47.9 }],
    banners: [
      {
        id: "black-friday-plans",
        imgUrl: "/banners/black-friday.png",
        alt: "Black Friday: 20% off Power",
        location: "plans",
        height: 120,
        targetUrl: "/cart#/plans",
        key: "black_friday_2026",
      },
    ],
    ...overrides,
  };
}

/** A price experiment as price-tests.yaml writes it: Schools at the sample-catalogue set, half and half. */
export function makeExperimentInput(overrides: Partial<ExperimentInput> = {}): ExperimentInput {
  return {
    id: "schools-price-2027",
    description: "Do schools buy more at the sample-catalogue price?",
    groups: [
      { set: "control", share: 50 },
      { set: "sample-catalogue", share: 50 },
    ],
    plans: ["wv_k12_12m"],
    audiences: ["new"],
    from: "2027-01-11T05:00:00Z",
    to: "2027-04-12T04:00:00Z",
    ...overrides,
  };
}

/** The price-tests.yaml of makeCatalogInput with these experiments. */
export function withExperiments(...experiments: ExperimentInput[]): Partial<CatalogInput> {
  const { priceTests } = makeCatalogInput();
  return { priceTests: { ...priceTests, experiments } };
}

export type CatalogInput = {
  plans: FamilyInput[];
  essentials: z.input<typeof EssentialsFile>;
  exports: z.input<typeof ExportsFile>;
  seatBands: z.input<typeof SeatBandsFile>;
  campaigns: z.input<typeof CampaignsFile>;
  priceTests: z.input<typeof PriceTestsFile>;
  taxRates: z.input<typeof TaxRatesFile>;
  marketing: z.input<typeof MarketingFile>;
  accounts: z.input<typeof AccountsFile>;
  /** Optional in a catalogue; left out unless a test gives it. */
  priceMigrations?: z.input<typeof PriceMigrationsFile>;
};

export function makeCatalogInput(overrides: Partial<CatalogInput> = {}): CatalogInput {
  const testimonial = [{ quote: "It just works.", role: "Teacher" }];
  return {
    plans: [makeFamily(), makeSchoolsFamily(), makeTrialFamily()],
    essentials: {
      name: "Essentials",
      subTitle: "Premium stock and music",
      addOns: [
        { code: "essentials_1m", term: 1, price: 19.99 },
        { code: "essentials_12m", term: 12, price: 119.88 },
      ],
    },
    exports: {
      singleExports: [
        { code: "single_export_hd", name: "HD export", resolution: "1080p", price: 2.99 },
        { code: "single_export_4k", name: "4K export", resolution: "2160p", price: 4.99 },
      ],
      exportUpgrades: [{ code: "export_upgrade_30m", hours: 0.5, price: 6 }],
      maxExportMs: 1_800_000,
    },
    seatBands: { structures: [makeStructure()] },
    campaigns: { campaigns: [makeCampaignInput()] },
    priceTests: {
      priceSets: [
        { id: "sample-catalogue", description: "Sample catalogue prices", groupValues: ["b"] },
      ],
    },
    taxRates: { rates: [{ country: "US", state: "NY", rate: 8.875 }] },
    marketing: {
      testimonials: {
        education: testimonial,
        personal: testimonial,
        unlimited: testimonial,
        professional: testimonial,
        business: testimonial,
        teacher: testimonial,
      },
      faqs: { general: [], education: [], learningVideo: [] },
    },
    accounts: {},
    ...overrides,
  };
}

const FILE_OF: Record<Exclude<keyof CatalogInput, "plans">, FileKind> = {
  essentials: "essentials.yaml",
  exports: "exports.yaml",
  seatBands: "seat-bands.yaml",
  campaigns: "campaigns.yaml",
  priceTests: "price-tests.yaml",
  taxRates: "tax-rates.yaml",
  marketing: "marketing.yaml",
  accounts: "accounts.yaml",
  priceMigrations: "price-migrations.yaml",
};

/** The catalogue's path under catalog/ for each part of a CatalogInput. */
export function filesOf(input: Partial<CatalogInput>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const family of input.plans ?? []) out[`plans/${String(family.family)}.yaml`] = family;
  for (const [key, kind] of Object.entries(FILE_OF)) {
    const data = input[key as keyof typeof FILE_OF];
    if (data !== undefined) out[kind] = data;
  }
  return out;
}

/** A valid catalogue as parsed source files; lines are unknown (no YAML text behind them). */
export function makeCatalogFiles(
  overrides: Partial<CatalogInput> = {},
  root = "catalog",
): SourceFile[] {
  return Object.entries(filesOf(makeCatalogInput(overrides))).map(([path, data]) => ({
    path: `${root}/${path}`,
    kind: (path.startsWith("plans/") ? "plans/*.yaml" : path) as FileKind,
    data,
    lineOf: () => undefined,
  }));
}

/** Issues as the CLI prints them, one line each, for compact inline snapshots. */
export function lines(issues: readonly Issue[]): string[] {
  return issues.map(
    (i) => `${i.file}${i.line ? `:${i.line}` : ""}${i.path ? ` ${i.path}` : ""}: ${i.message}`,
  );
}

/** Validates a catalogue built from makeCatalogInput(overrides); its issues as printed lines. */
export async function issuesOf(overrides: Partial<CatalogInput> = {}): Promise<string[]> {
  const { validateCatalog } = await import("../validate.ts");
  const result = validateCatalog(makeCatalogFiles(overrides));
  return result.ok ? [] : lines(result.issues);
}

/** The one family whose variants are replaced (others as in makeCatalogInput). */
export function withFamily(family: FamilyInput): FamilyInput[] {
  return makeCatalogInput().plans.map((f) => (f.family === family.family ? family : f));
}
