// The shapes of the files the pricing team edits under catalog/. One schema per file kind.
// Every field carries a one-line description: it becomes editor hover help through the emitted
// JSON Schema (catalog/schema/*.json). Amounts are written as decimal dollars (9.99) here and
// become integer cents in the normalised catalogue (see normalise.ts).
import { z } from "zod";
import { TIERS } from "./tiers.ts";

const decimals = (n: number) => (String(n).split(".")[1] ?? "").length;

/** A price in dollars: non-negative, at most two decimals. */
export const Amount = z
  .number()
  .nonnegative({ message: "must not be negative" })
  .refine((n) => decimals(n) <= 2 && !String(n).includes("e"), {
    message: "must have at most two decimals",
  })
  .describe("Amount in US dollars, at most two decimals, for example 9.99");

const Code = z
  .string()
  .regex(/^[a-z0-9_]+$/, { message: "must be lower-case letters, digits and underscores" })
  .describe("Product code, for example wv_single_12m");

const IsoDate = z.iso
  .datetime({ offset: true, message: "must be an ISO date-time such as 2026-11-27T00:00:00Z" })
  .describe("ISO 8601 date-time with a zone, for example 2026-11-27T00:00:00Z");

export { TIERS };
export const Tier = z.enum(TIERS).describe("Tier of spec section 4");
export const CATEGORIES = ["personal", "business", "education"] as const;
export const Category = z.enum(CATEGORIES).describe("Plan category: which tab of the plans page");
export const RESOLUTIONS = ["720p", "1080p", "2160p"] as const;
export const Resolution = z.enum(RESOLUTIONS).describe("Maximum publish resolution (2160p is 4K)");
export const TermMonths = z
  .union([z.literal(1), z.literal(6), z.literal(12)])
  .describe("Term in months: 1, 6 or 12");
export const PREMIUM_TEMPLATE_LINES = ["all", "personal", "business-education"] as const;

const Tooltip = z
  .object({
    text: z.string().min(1).describe("Tooltip text shown on hover and focus"),
    dataFor: z.string().optional().describe("Id the tooltip is attached to (defaults to the item)"),
    newTooltip: z.boolean().default(false).describe("Show the 'new' marker on this tooltip"),
  })
  .strict();

export const DescriptionItem = z
  .object({
    text: z.string().min(1).describe("Bullet text shown on the plan card"),
    icon: z.string().min(1).describe("Icon name for the bullet"),
    tooltip: Tooltip.optional().describe("Optional tooltip explaining the bullet"),
  })
  .strict();

const PriceOverride = z
  .object({
    price: Amount.optional().describe("Price in this price set"),
    seatPrice: Amount.optional().describe("Extra-seat price in this price set"),
  })
  .strict();

export const PlanVariant = z
  .object({
    code: Code,
    term: TermMonths,
    price: Amount.describe("Price for the whole term in dollars (0 for free and trial products)"),
    recurring: z.boolean().default(true).describe("Renews every term; false for one-time products"),
    showYearly: z.boolean().default(true).describe("Show the annual switch on the plan card"),
    seatPrice: Amount.optional().describe("Price of one extra seat for the whole term"),
    seatStructure: z
      .string()
      .optional()
      .describe("Id of the seat-band structure that prices seats"),
    essentials: z.boolean().default(false).describe("This variant includes the essentials add-on"),
    essentialsAddOn: Code.optional().describe(
      "Code of the essentials add-on included (essentials: true)",
    ),
    essentialsUpgrade: Code.optional().describe("Code of the same plan with essentials"),
    essentialsDowngrade: Code.optional().describe("Code of the same plan without essentials"),
    legacy: z
      .boolean()
      .default(false)
      .describe("Still sold to existing customers, not shown on pages"),
    priceTests: z
      .record(z.string(), PriceOverride)
      .default({})
      .describe("Prices in other price sets, keyed by price-set id (price-tests.yaml)"),
    assumed: z
      .array(z.string())
      .default([])
      .describe("Fields whose figures the spec does not give: chosen by us, to be confirmed"),
  })
  .strict();

export const PlanFamilyFile = z
  .object({
    $schema: z.string().optional(),
    family: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .describe("Family id, for example power"),
    name: z.string().min(1).describe("Plan name shown to customers"),
    subTitle: z.string().describe("One-line subtitle under the plan name"),
    tier: Tier,
    category: Category,
    vertical: z
      .string()
      .min(1)
      .describe("Vertical reported with the product (personal, business, education)"),
    capacity: z.string().describe("Storage and hours text, for example '20 GB · 30 min/month'"),
    description: z.array(DescriptionItem).default([]).describe("Bullets on the plan card"),
    multiUser: z.boolean().default(false).describe("Shared by several seats"),
    includedSeats: z.number().int().positive().optional().describe("Seats included in the price"),
    minSeats: z.number().int().positive().optional().describe("Smallest number of seats sold"),
    maxSeats: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Largest number of seats one online order may have; larger teams ask for a quote"),
    gbPerSeat: z.number().nonnegative().optional().describe("Storage per seat in GB"),
    hoursPerSeat: z.number().nonnegative().optional().describe("Publish hours per seat"),
    includedGb: z.number().nonnegative().nullable().describe("Storage in GB; null for unlimited"),
    includedHrs: z
      .number()
      .nonnegative()
      .nullable()
      .describe("Publish hours per month; null for unlimited"),
    publishMinutesPerMonth: z
      .number()
      .nonnegative()
      .nullable()
      .describe("Publish minutes per month; null for unlimited"),
    maxPublishResolution: Resolution,
    includedContentTier: z.string().default("basic").describe("Stock content tier included"),
    premiumMusic: z.boolean().default(false).describe("Premium music library included"),
    screenCapture: z.boolean().default(true).describe("Screen recording included"),
    dualCapture: z.boolean().default(false).describe("Screen plus camera recording included"),
    premiumTemplates: z
      .enum(PREMIUM_TEMPLATE_LINES)
      .default("all")
      .describe("Premium-templates line: all, personal only, or personal + business + education"),
    trialProduct: Code.optional().describe("Code of the trial that leads to this plan"),
    trialDuration: z.number().int().positive().optional().describe("Trial length in days"),
    isTrial: z.boolean().default(false).describe("These variants are trial products (price 0)"),
    validMonths: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("One-time products: months of validity"),
    order: z.number().int().default(0).describe("Position on the plans page, lowest first"),
    variants: z.array(PlanVariant).min(1).describe("One entry per product code (term, essentials)"),
  })
  .strict();

export const EssentialsFile = z
  .object({
    $schema: z.string().optional(),
    name: z.string().min(1).describe("Add-on name shown to customers"),
    subTitle: z.string().describe("One-line subtitle"),
    description: z.array(DescriptionItem).default([]).describe("Bullets describing the add-on"),
    addOns: z
      .array(
        z
          .object({
            code: Code,
            term: TermMonths,
            price: Amount.describe("Add-on price for the whole term"),
          })
          .strict(),
      )
      .min(1)
      .describe("One add-on per term"),
  })
  .strict();

export const ExportsFile = z
  .object({
    $schema: z.string().optional(),
    singleExports: z
      .array(
        z
          .object({
            code: Code,
            name: z.string().min(1).describe("Name shown at checkout"),
            resolution: Resolution,
            price: Amount,
          })
          .strict(),
      )
      .describe("One-off exports bought without a plan"),
    exportUpgrades: z
      .array(
        z
          .object({
            code: Code,
            hours: z.number().positive().describe("Extra publish hours"),
            price: Amount,
          })
          .strict(),
      )
      .describe("Extra publish hours (Export Upgrades, hours:price pairs)"),
    maxExportMs: z.number().int().positive().describe("Longest single export in milliseconds"),
  })
  .strict();

export const SeatBand = z
  .object({
    from: z.number().int().positive().describe("First seat count of the band"),
    to: z.number().int().positive().describe("Last seat count of the band"),
    total: Amount.optional().describe("Order total for any seat count in this band (a package)"),
    perSeat: Amount.optional().describe("Price of each seat within this band (graduated)"),
    assumed: z.boolean().default(false).describe("The spec gives no figure: chosen by us"),
  })
  .strict();

export const SeatBandsFile = z
  .object({
    $schema: z.string().optional(),
    structures: z
      .array(
        z
          .object({
            id: z
              .string()
              .regex(/^[a-z0-9-]+$/)
              .describe("Structure id, for example k12-2024-01"),
            name: z.string().describe("What this structure is"),
            default: z.boolean().default(false).describe("Used unless another is asked for"),
            appliesTo: z.array(Code).min(1).describe("Plan codes priced by these bands"),
            minimumSeats: z.number().int().positive().describe("Fewest seats that can be ordered"),
            bands: z.array(SeatBand).min(1).describe("Contiguous bands from 1 seat upwards"),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

const HotSpot = z
  .object({
    x: z.number().nonnegative(),
    y: z.number().nonnegative(),
    width: z.number().positive(),
    height: z.number().positive(),
    targetUrl: z.string().min(1).describe("Where a click on this area goes"),
    label: z
      .string()
      .min(1)
      .describe(
        "The accessible name of this area's link: what it does, as a screen reader says it (the area is a link of its own over the banner image)",
      ),
  })
  .strict();

export const Banner = z
  .object({
    id: z.string().min(1),
    imgUrl: z.string().min(1).describe("Banner image URL"),
    alt: z.string().min(1).describe("Text alternative of the banner image"),
    location: z.enum(["plans", "hubDashboard"]).describe("Where the banner shows"),
    height: z.number().int().positive().describe("Height in CSS pixels"),
    segment: z.string().default("all").describe("Audience segment that sees it"),
    targetUrl: z.string().min(1).describe("Where a click on the banner goes"),
    key: z.string().min(1).describe("Tracking key"),
    hotSpots: z.array(HotSpot).default([]),
  })
  .strict();

export const CampaignsFile = z
  .object({
    $schema: z.string().optional(),
    campaigns: z.array(
      z
        .object({
          id: z.string().min(1).describe("Campaign id"),
          name: z.string().min(1).describe("Campaign name"),
          coupon: z
            .string()
            .regex(/^[a-z0-9]+$/)
            .describe("Coupon code customers type"),
          targeted: z
            .boolean()
            .default(false)
            .describe("Applies only when the customer's coupon matches"),
          recurring: z
            .boolean()
            .default(false)
            .describe("Discount renews every term (else first term only)"),
          validFrom: IsoDate.describe("Start of the window (inclusive)"),
          validTo: IsoDate.describe("End of the window (exclusive)"),
          products: z
            .array(
              z
                .object({ code: Code, price: Amount.describe("Campaign price for the term") })
                .strict(),
            )
            .min(1)
            .describe("Plans in the campaign with their campaign prices"),
          banners: z.array(Banner).default([]),
          assumed: z.array(z.string()).default([]).describe("Figures chosen by us"),
        })
        .strict(),
    ),
  })
  .strict();

export const PriceTestsFile = z
  .object({
    $schema: z.string().optional(),
    priceSets: z.array(
      z
        .object({
          id: z
            .string()
            .regex(/^[a-z0-9-]+$/)
            .describe("Price-set id used in plan priceTests"),
          description: z.string().describe("Where these prices come from"),
          groupValues: z
            .array(z.string().min(1))
            .min(1)
            .describe("priceTestingGroupValue values that select this set"),
        })
        .strict(),
    ),
    experiments: z
      .array(
        z
          .object({
            id: z
              .string()
              .regex(/^[a-z0-9-]+$/)
              .describe("Experiment id: recorded with every exposure and purchase, never reused"),
            description: z.string().describe("What the experiment asks"),
            groups: z
              .array(
                z
                  .object({
                    set: z
                      .string()
                      .regex(/^[a-z0-9-]+$/)
                      .describe("A price-set id, or control for the default prices"),
                    share: z
                      .number()
                      .int()
                      .min(1)
                      .max(100)
                      .describe("Percent of new visitors this group gets; the shares sum to 100"),
                  })
                  .strict(),
              )
              .min(2)
              .describe("The groups: control and one or more price sets"),
            plans: z
              .array(z.string().min(1))
              .min(1)
              .describe("Product codes the experiment prices"),
            audiences: z
              .array(z.enum(["new", "trial", "former"]))
              .min(1)
              .describe(
                "Who may be enrolled: new (never paid), trial (in a trial), former (a paid plan ended); subscribers never",
              ),
            from: IsoDate.describe("First moment of the window (inclusive)"),
            to: IsoDate.describe("End of the window (exclusive)"),
          })
          .strict(),
      )
      .default([])
      .describe("Price experiments: which price sets new visitors see, by share"),
  })
  .strict();

export const TaxRatesFile = z
  .object({
    $schema: z.string().optional(),
    rates: z.array(
      z
        .object({
          country: z
            .string()
            .regex(/^[A-Z]{2}$/)
            .describe("ISO 3166 country code"),
          state: z
            .string()
            .regex(/^[A-Z]{2}$/)
            .optional()
            .describe("US state code"),
          rate: z.number().min(0).max(30).describe("Combined rate in percent"),
          assumed: z.boolean().default(false).describe("Illustrative figure, not from the spec"),
        })
        .strict(),
    ),
  })
  .strict();

export const MarketingFile = z
  .object({
    $schema: z.string().optional(),
    testimonials: z
      .record(
        z.enum(["education", "personal", "unlimited", "professional", "business", "teacher"]),
        z.array(
          z
            .object({
              quote: z.string().min(1),
              role: z.string().min(1).describe("Who said it, by role, never by name"),
            })
            .strict(),
        ),
      )
      .describe("Testimonials per audience"),
    faqs: z
      .record(
        z.enum(["general", "education", "learningVideo"]),
        z.array(z.object({ question: z.string().min(1), answer: z.string().min(1) }).strict()),
      )
      .describe("FAQ lists"),
  })
  .strict();

export const AccountsFile = z
  .object({
    $schema: z.string().optional(),
    schoolDistricts: z
      .array(
        z
          .object({
            id: z.string().min(1),
            emailDomains: z.array(z.string().min(3)).min(1),
            studentUrl: z
              .string()
              .min(1)
              .describe("Where students are sent when the product is free"),
            staffUrl: z.string().min(1).describe("Where staff are sent when the product is free"),
            studentPattern: z.string().describe("Regular expression matching student addresses"),
          })
          .strict(),
      )
      .default([]),
    blockedEmailDomains: z.array(z.string().min(3)).default([]),
  })
  .strict();

export const PriceMigrationsFile = z
  .object({
    $schema: z.string().optional(),
    migrations: z
      .array(
        z
          .object({
            id: z
              .string()
              .regex(/^[a-z0-9-]+$/)
              .describe("Migration id, for example schools-pre-2024"),
            description: z.string().min(1).describe("Who moves, to what, and why"),
            products: z
              .array(Code)
              .min(1)
              .describe("Plan codes whose subscriptions move to the current catalogue price"),
            seatStructure: z
              .string()
              .optional()
              .describe("Only subscriptions priced by this seat structure (their recorded one)"),
            signedUpBefore: IsoDate.optional().describe(
              "Only subscriptions whose price was recorded before this time",
            ),
            renewalsFrom: IsoDate.describe(
              "Renewals on or after this time charge the current price; earlier ones keep the recorded price",
            ),
          })
          .strict(),
      )
      .default([])
      .describe(
        "Dated moves of existing subscribers to the current prices (they keep the price they signed up at otherwise)",
      ),
  })
  .strict();

/** Which schema reads which file: the key is the path under catalog/, `*` one file of a folder. */
export const FILE_KINDS = {
  "plans/*.yaml": PlanFamilyFile,
  "essentials.yaml": EssentialsFile,
  "exports.yaml": ExportsFile,
  "seat-bands.yaml": SeatBandsFile,
  "campaigns.yaml": CampaignsFile,
  "price-tests.yaml": PriceTestsFile,
  "tax-rates.yaml": TaxRatesFile,
  "marketing.yaml": MarketingFile,
  "accounts.yaml": AccountsFile,
  "price-migrations.yaml": PriceMigrationsFile,
} as const;
export type FileKind = keyof typeof FILE_KINDS;

export type PlanFamilyFile = z.output<typeof PlanFamilyFile>;
export type EssentialsFile = z.output<typeof EssentialsFile>;
export type ExportsFile = z.output<typeof ExportsFile>;
export type SeatBandsFile = z.output<typeof SeatBandsFile>;
export type CampaignsFile = z.output<typeof CampaignsFile>;
export type PriceTestsFile = z.output<typeof PriceTestsFile>;
export type TaxRatesFile = z.output<typeof TaxRatesFile>;
export type MarketingFile = z.output<typeof MarketingFile>;
export type AccountsFile = z.output<typeof AccountsFile>;
export type PriceMigrationsFile = z.output<typeof PriceMigrationsFile>;
