// Test fixture builders (STYLE.md point 13): each returns a valid, complete catalogue object that a
// test overrides only where it matters, as in makePlan({ seatPrice: 3999 }). The objects parse
// with the catalogue schemas (builders.test.ts checks it). Figures are the spec's section 9 ones,
// not the real catalogue's, so tests do not break when the pricing team edits catalog/.
import type {
  CampaignEntry,
  Catalog,
  EssentialsAddOn,
  PlanEntry,
  SeatBandEntry,
  SeatStructure,
} from "../catalog/catalog-schema.ts";
import { termMonthsFromCode } from "../pricing/terms.ts";

/** A plan entry: by default Power billed annually (wv_single_12m, 59.88). termDuration follows the code. */
export function makePlan(overrides: Partial<PlanEntry> = {}): PlanEntry {
  const code = overrides.code ?? "wv_single_12m";
  return {
    code,
    family: "power",
    name: "Power",
    subTitle: "For creators who publish every month",
    tier: "personal",
    category: "personal",
    vertical: "personal",
    description: [{ text: "30 minutes of publishing per month", icon: "publish" }],
    capacity: "20 GB · 30 min/month",
    multiUser: false,
    termDuration: termMonthsFromCode(code),
    recurring: true,
    showYearly: true,
    price: 5988,
    essentials: false,
    essentialsPrice: 0,
    essentialsAddOn: null,
    essentialsUpgrade: null,
    essentialsDowngrade: null,
    seatPrice: -1,
    includedSeats: -1,
    minSeats: 1,
    maxSeats: null,
    seatStructure: null,
    gbPerSeat: null,
    hoursPerSeat: null,
    includedGb: 20,
    includedHrs: 0.5,
    publishMinutesPerMonth: 30,
    maxPublishResolution: "720p",
    includedContentTier: "basic",
    premiumMusic: false,
    screenCapture: true,
    dualCapture: false,
    premiumTemplates: "all",
    trialProduct: null,
    trialDuration: -1,
    isTrial: false,
    validMonths: null,
    legacy: false,
    order: 0,
    monthlyVersion: null,
    annualVersion: null,
    priceTests: {},
    assumed: [],
    ...overrides,
  };
}

/** A seat band; give `total` for a package band or `perSeat` for a graduated one. */
export function makeSeatBand(overrides: Partial<SeatBandEntry> = {}): SeatBandEntry {
  return { from: 1, to: 30, total: null, perSeat: null, assumed: false, ...overrides };
}

/**
 * A seat structure: by default the schools structure (374 for 1-30 seats, then graduated) that
 * applies to wv_k12_12m with a 30-seat minimum. maximumSeats follows the last band.
 */
export function makeSeatStructure(overrides: Partial<SeatStructure> = {}): SeatStructure {
  const bands = overrides.bands ?? [
    makeSeatBand({ from: 1, to: 30, total: 37400 }),
    makeSeatBand({ from: 31, to: 100, perSeat: 1100, assumed: true }),
    makeSeatBand({ from: 101, to: 1000, perSeat: 1000, assumed: true }),
  ];
  return {
    id: "k12-2024-01",
    name: "Schools, January 2024",
    default: true,
    appliesTo: ["wv_k12_12m"],
    minimumSeats: 30,
    maximumSeats: bands.at(-1)?.to ?? 0,
    bands,
    ...overrides,
  };
}

/**
 * A campaign: by default a non-targeted, first-term-only Black Friday offer on Power annual
 * (29.94) in November 2026. `products` follows the keys of `prices` unless given.
 */
export function makeCampaign(overrides: Partial<CampaignEntry> = {}): CampaignEntry {
  const prices = overrides.prices ?? { wv_single_12m: 2994 };
  return {
    id: "black-friday-2026",
    name: "Black Friday",
    coupon: "blackfriday2019",
    targeted: false,
    recurring: false,
    validFrom: Date.UTC(2026, 10, 27),
    validTo: Date.UTC(2026, 11, 1),
    products: Object.keys(prices),
    prices,
    banners: [],
    assumed: [],
    ...overrides,
  };
}

function makeEssentialsAddOn(overrides: Partial<EssentialsAddOn> = {}): EssentialsAddOn {
  const code = overrides.code ?? "wv_essentials_12m";
  return {
    code,
    name: "Essentials",
    subTitle: "Premium stock media and music",
    description: [],
    termDuration: termMonthsFromCode(code),
    price: 11988,
    ...overrides,
  };
}

/**
 * A catalogue: by default one plan (makePlan()), the essentials add-ons (19.99 monthly, 119.88
 * yearly), single exports (HD 2.99, 4K 4.99) and export upgrades (0.5 h 6, 1 h 10, 2 h 18).
 */
export function makeCatalog(overrides: Partial<Catalog> = {}): Catalog {
  return {
    plans: [makePlan()],
    essentials: {
      name: "Essentials",
      subTitle: "Premium stock media and music",
      description: [],
      addOns: [
        makeEssentialsAddOn({ code: "wv_essentials_1m", price: 1999 }),
        makeEssentialsAddOn({ code: "wv_essentials_12m", price: 11988 }),
      ],
    },
    singleExports: [
      { code: "single_export_hd", name: "HD export", resolution: "1080p", price: 299 },
      { code: "single_export_4k", name: "4K export", resolution: "2160p", price: 499 },
    ],
    exportUpgrades: [
      { code: "export_upgrade_0_5h", hours: 0.5, price: 600 },
      { code: "export_upgrade_1h", hours: 1, price: 1000 },
      { code: "export_upgrade_2h", hours: 2, price: 1800 },
    ],
    maxExportMs: 1_800_000,
    seatStructures: [],
    campaigns: [],
    priceSets: [],
    taxRates: [],
    testimonials: {},
    faqs: {},
    schoolDistricts: [],
    blockedEmailDomains: [],
    ...overrides,
  };
}

type Pair = { monthly: number; annual: number };

/** A family's monthly and annual variants, linked through monthlyVersion / annualVersion. */
function makeFamily(
  stem: string,
  prices: Pair,
  shared: Partial<PlanEntry>,
  sample?: Pair,
): PlanEntry[] {
  const monthlyCode = `${stem}_1m`;
  const annualCode = `${stem}_12m`;
  const variant = (code: string, price: number, samplePrice: number | undefined) =>
    makePlan({
      ...shared,
      code,
      price,
      monthlyVersion: monthlyCode,
      annualVersion: annualCode,
      ...(samplePrice === undefined
        ? {}
        : { priceTests: { sample: { price: samplePrice, seatPrice: -1 } } }),
    });
  return [
    variant(monthlyCode, prices.monthly, sample?.monthly),
    variant(annualCode, prices.annual, sample?.annual),
  ];
}

/** Power or Unlimited with essentials: the plus variants, linked both ways to the plain ones. */
function withEssentials(plain: PlanEntry[], plusStem: string, plusPrices: Pair): PlanEntry[] {
  const plus = plain.map((p) => {
    const term = p.termDuration === 1 ? "1m" : "12m";
    return makePlan({
      ...p,
      code: `${plusStem}_${term}`,
      price: p.termDuration === 1 ? plusPrices.monthly : plusPrices.annual,
      essentials: true,
      essentialsPrice: p.termDuration === 1 ? 1999 : 11988,
      essentialsAddOn: `wv_essentials_${term}`,
      essentialsDowngrade: p.code,
      monthlyVersion: `${plusStem}_1m`,
      annualVersion: `${plusStem}_12m`,
    });
  });
  const linked = plain.map((p, i) => ({ ...p, essentialsUpgrade: plus[i]?.code ?? null }));
  return [...linked, ...plus];
}

/**
 * The spec's section 9 catalogue: Power, Unlimited (each with essentials variants), Professional,
 * Business (3 seats included), Flex, and the schools plans (wv_k12_12m banded: 374 for 30 seats;
 * wv_k12_6m per seat). The display prices are the default; the "sample" price set (group value
 * "sample") holds the sample catalogue's Professional and Business prices.
 */
export function makeSpecCatalog(overrides: Partial<Catalog> = {}): Catalog {
  const power = makeFamily(
    "wv_single",
    { monthly: 999, annual: 5988 },
    { family: "power", name: "Power" },
  );
  const unlimited = makeFamily(
    "wv_unloct17",
    { monthly: 1599, annual: 9588 },
    { family: "unlimited", name: "Unlimited", tier: "unlimited", maxPublishResolution: "2160p" },
  );
  const professional = makeFamily(
    "wv_bizindiv",
    { monthly: 3999, annual: 23988 },
    {
      family: "professional",
      name: "Professional",
      tier: "professional",
      maxPublishResolution: "2160p",
    },
    { monthly: 3599, annual: 21588 },
  );
  const business = makeFamily(
    "wv_bizoct17",
    { monthly: 7399, annual: 44388 },
    {
      family: "business",
      name: "Business",
      tier: "business",
      category: "business",
      vertical: "business",
      multiUser: true,
      includedSeats: 3,
      maxSeats: 999,
      premiumTemplates: "business-education",
      maxPublishResolution: "2160p",
      assumed: ["seatPrice"],
    },
  ).map((p) => {
    const seatPrice = p.termDuration === 1 ? 3999 : 23988;
    const sample = p.termDuration === 1 ? 5999 : 35988;
    return { ...p, seatPrice, priceTests: { sample: { price: sample, seatPrice } } };
  });
  const flex = makePlan({
    code: "wv_flex2",
    family: "flex",
    name: "Flex",
    price: 2999,
    recurring: false,
    showYearly: false,
    validMonths: 12,
  });
  const schools = {
    family: "schools",
    name: "Schools",
    tier: "education",
    category: "education",
    vertical: "education",
    multiUser: true,
    includedSeats: 30,
    minSeats: 30,
    // Spec 5: seat orders go up to 50,000 (the 12-month plan's bands end there too).
    maxSeats: 50000,
    seatPrice: 499,
    premiumTemplates: "business-education",
    maxPublishResolution: "2160p",
  } as const;
  const k12 = makePlan({
    ...schools,
    code: "wv_k12_12m",
    price: 37400,
    seatStructure: "k12-2024-01",
  });
  const k12Half = makePlan({ ...schools, code: "wv_k12_6m", price: 18700, assumed: ["price"] });
  const legacyStructure = makeSeatStructure({
    id: "k12-legacy",
    name: "Schools, before 2024",
    default: false,
    bands: [
      makeSeatBand({ from: 1, to: 30, total: 29900 }),
      makeSeatBand({ from: 31, to: 1000, perSeat: 900, assumed: true }),
    ],
  });
  return makeCatalog({
    plans: [
      ...withEssentials(power, "wv_single_plus", { monthly: 2998, annual: 17976 }),
      ...withEssentials(unlimited, "wv_unloct17_plus", { monthly: 3598, annual: 21576 }),
      ...professional,
      ...business,
      flex,
      k12,
      k12Half,
    ],
    seatStructures: [makeSeatStructure(), legacyStructure],
    priceSets: [
      { id: "sample", description: "The spec's sample catalogue", groupValues: ["sample"] },
    ],
    ...overrides,
  });
}
