// The normalised catalogue: what `catalog build` emits (src/generated/catalog.json) and what the
// pages, the checkout, the server and `catalog quote` read. Amounts are integer cents; dates are
// millisecond timestamps (spec 3.9). Plan fields follow spec 3.4.
import { z } from "zod";
import {
  Category,
  DescriptionItem,
  PREMIUM_TEMPLATE_LINES,
  Resolution,
  TermMonths,
  Tier,
} from "./source-schema.ts";

const Cents = z.number().int().nonnegative().describe("Amount in integer cents");

export const PlanEntry = z.object({
  code: z.string(),
  family: z.string().describe("Family id (the file under catalog/plans/)"),
  name: z.string(),
  subTitle: z.string(),
  tier: Tier,
  category: Category,
  vertical: z.string(),
  description: z.array(DescriptionItem),
  capacity: z.string(),
  multiUser: z.boolean(),
  termDuration: TermMonths,
  recurring: z.boolean(),
  showYearly: z.boolean(),
  price: Cents.describe("Price of the whole term in the default price set"),
  essentials: z.boolean(),
  essentialsPrice: Cents.describe("Price of the included essentials add-on, 0 when none"),
  essentialsAddOn: z.string().nullable(),
  essentialsUpgrade: z.string().nullable().describe("Code of the same plan with essentials"),
  essentialsDowngrade: z.string().nullable().describe("Code of the same plan without essentials"),
  seatPrice: z.number().int().describe("Extra seat for the whole term in cents; -1 when none"),
  includedSeats: z.number().int().describe("Seats included; -1 when none"),
  minSeats: z.number().int().nonnegative(),
  maxSeats: z
    .number()
    .int()
    .nullable()
    .describe("Largest seat count sold online (banded plans: the last band); null when unbounded"),
  seatStructure: z.string().nullable().describe("Seat-band structure id when seats are banded"),
  gbPerSeat: z.number().nullable(),
  hoursPerSeat: z.number().nullable(),
  includedGb: z.number().nullable(),
  includedHrs: z.number().nullable(),
  publishMinutesPerMonth: z.number().nullable(),
  maxPublishResolution: Resolution,
  includedContentTier: z.string(),
  premiumMusic: z.boolean(),
  screenCapture: z.boolean(),
  dualCapture: z.boolean(),
  premiumTemplates: z.enum(PREMIUM_TEMPLATE_LINES),
  trialProduct: z.string().nullable(),
  trialDuration: z.number().int().describe("Trial length in days; -1 when unset"),
  isTrial: z.boolean(),
  validMonths: z.number().int().nullable().describe("One-time products: months of validity"),
  legacy: z.boolean(),
  order: z.number().int(),
  monthlyVersion: z.string().nullable().describe("Code of the 1-month variant of the same family"),
  annualVersion: z.string().nullable().describe("Code of the 12-month variant of the same family"),
  priceTests: z.record(z.string(), z.object({ price: Cents, seatPrice: z.number().int() })),
  assumed: z.array(z.string()),
});
export type PlanEntry = z.output<typeof PlanEntry>;

export const EssentialsAddOn = z.object({
  code: z.string(),
  name: z.string(),
  subTitle: z.string(),
  description: z.array(DescriptionItem),
  termDuration: TermMonths,
  price: Cents,
});
export type EssentialsAddOn = z.output<typeof EssentialsAddOn>;

export const SingleExport = z.object({
  code: z.string(),
  name: z.string(),
  resolution: Resolution,
  price: Cents,
});
export type SingleExport = z.output<typeof SingleExport>;

const ExportUpgrade = z.object({ code: z.string(), hours: z.number(), price: Cents });
export type ExportUpgrade = z.output<typeof ExportUpgrade>;

export const SeatBandEntry = z.object({
  from: z.number().int(),
  to: z.number().int(),
  total: Cents.nullable(),
  perSeat: Cents.nullable(),
  assumed: z.boolean(),
});
export type SeatBandEntry = z.output<typeof SeatBandEntry>;

export const SeatStructure = z.object({
  id: z.string(),
  name: z.string(),
  default: z.boolean(),
  appliesTo: z.array(z.string()),
  minimumSeats: z.number().int(),
  maximumSeats: z.number().int().describe("The last band's upper bound"),
  bands: z.array(SeatBandEntry),
});
export type SeatStructure = z.output<typeof SeatStructure>;

export const BannerEntry = z.object({
  id: z.string(),
  imgUrl: z.string(),
  alt: z.string(),
  location: z.enum(["plans", "hubDashboard"]),
  height: z.number(),
  segment: z.string(),
  targetUrl: z.string(),
  key: z.string(),
  hotSpots: z.array(
    z.object({
      x: z.number(),
      y: z.number(),
      width: z.number(),
      height: z.number(),
      targetUrl: z.string(),
      label: z.string(),
    }),
  ),
});
export type BannerEntry = z.output<typeof BannerEntry>;

export const CampaignEntry = z.object({
  id: z.string(),
  name: z.string(),
  coupon: z.string(),
  targeted: z.boolean(),
  recurring: z.boolean(),
  validFrom: z.number().int().describe("Millisecond timestamp, inclusive"),
  validTo: z.number().int().describe("Millisecond timestamp, exclusive"),
  products: z.array(z.string()),
  prices: z.record(z.string(), Cents).describe("Campaign price per product code"),
  banners: z.array(BannerEntry),
  assumed: z.array(z.string()),
});
export type CampaignEntry = z.output<typeof CampaignEntry>;

const PriceSet = z.object({
  id: z.string(),
  description: z.string(),
  groupValues: z.array(z.string()),
});
export type PriceSet = z.output<typeof PriceSet>;

export { CONTROL } from "./control.ts";

export const ExperimentGroup = z.object({
  /** A price-set id, or "control" for the default prices. */
  set: z.string(),
  /** Percent of the enrolled visitors, a whole number; the groups' shares sum to 100. */
  share: z.number().int(),
});
export type ExperimentGroup = z.output<typeof ExperimentGroup>;

export const Experiment = z.object({
  id: z.string(),
  description: z.string(),
  groups: z.array(ExperimentGroup),
  /** Product codes it prices. */
  plans: z.array(z.string()),
  /** Who may be enrolled: never paid, in a trial, a paid plan ended. Subscribers never. */
  audiences: z.array(z.enum(["new", "trial", "former"])),
  /** The window in ms, from inclusive, to exclusive. */
  from: z.number().int(),
  to: z.number().int(),
});
export type Experiment = z.output<typeof Experiment>;
export type Audience = Experiment["audiences"][number];

const TaxRate = z.object({
  country: z.string(),
  state: z.string().nullable(),
  ratePercent: z.number().describe("Combined rate in percent"),
  assumed: z.boolean(),
});
export type TaxRate = z.output<typeof TaxRate>;

export const Testimonial = z.object({ quote: z.string(), role: z.string() });
const Faq = z.object({ question: z.string(), answer: z.string() });

const SchoolDistrict = z.object({
  id: z.string(),
  emailDomains: z.array(z.string()),
  studentUrl: z.string(),
  staffUrl: z.string(),
  studentPattern: z.string(),
});

export const PriceMigration = z.object({
  id: z.string(),
  description: z.string(),
  products: z.array(z.string()),
  /** Only subscriptions whose recorded seat structure has this id; null for any. */
  seatStructure: z.string().nullable(),
  /** Only subscriptions whose price was recorded before this time (ms); null for any. */
  signedUpBefore: z.number().int().nullable(),
  /** Renewals starting at or after this time (ms) charge the current catalogue price. */
  renewalsFrom: z.number().int(),
});
export type PriceMigration = z.output<typeof PriceMigration>;

export const Catalog = z.object({
  plans: z.array(PlanEntry),
  essentials: z.object({
    name: z.string(),
    subTitle: z.string(),
    description: z.array(DescriptionItem),
    addOns: z.array(EssentialsAddOn),
  }),
  singleExports: z.array(SingleExport),
  exportUpgrades: z.array(ExportUpgrade),
  maxExportMs: z.number().int(),
  seatStructures: z.array(SeatStructure),
  campaigns: z.array(CampaignEntry),
  priceSets: z.array(PriceSet),
  taxRates: z.array(TaxRate),
  testimonials: z.record(z.string(), z.array(Testimonial)),
  faqs: z.record(z.string(), z.array(Faq)),
  schoolDistricts: z.array(SchoolDistrict),
  blockedEmailDomains: z.array(z.string()),
  /**
   * Dated moves of existing subscribers to the current prices (catalog/price-migrations.yaml).
   * Optional so that a catalogue built before them still reads: absent means none.
   */
  priceMigrations: z.array(PriceMigration).optional(),
  /** Price experiments (the `experiments` of catalog/price-tests.yaml); absent means none. */
  experiments: z.array(Experiment).optional(),
});
export type Catalog = z.output<typeof Catalog>;
