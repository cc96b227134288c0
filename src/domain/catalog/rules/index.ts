// Every cross-entity rule, run in this order after normalisation. Rules are independent: each
// reads its slice of the catalogue and reports all it finds.
import type { Catalog } from "../catalog-schema.ts";
import { annualNotAboveMonthly } from "./annual-prices.ts";
import { bannerIdsUnique } from "./banner-ids.ts";
import { campaignProducts } from "./campaign-products.ts";
import { campaignWindows } from "./campaign-windows.ts";
import { couponsDoNotOverlap } from "./coupon-overlap.ts";
import { oneDefaultSeatStructure } from "./default-seat-structure.ts";
import { essentialsAddOnsUsed, essentialsLinks } from "./essentials-links.ts";
import { essentialsPrices } from "./essentials-prices.ts";
import { experimentGroups, experimentSetsPricePlans } from "./experiment-groups.ts";
import {
  experimentPlansExist,
  experimentsDoNotOverlap,
  experimentWindows,
} from "./experiment-plans.ts";
import { priceMigrationReferences } from "./price-migrations.ts";
import { priceSetsUsed, priceTestKeys } from "./price-test-keys.ts";
import type { RuleIssue } from "./rule.ts";
import { seatBandPrices } from "./seat-band-prices.ts";
import { seatBandsContiguous } from "./seat-bands-contiguous.ts";
import { seatMinimumWithinBands } from "./seat-minimum.ts";
import { seatStructureReferences } from "./seat-structure-references.ts";
import { trialProducts } from "./trial-products.ts";
import { codesUnique, idsUnique } from "./unique-codes.ts";

type Rule = (catalog: Catalog) => RuleIssue[];

export const RULES: readonly Rule[] = [
  codesUnique,
  idsUnique,
  seatBandsContiguous,
  seatBandPrices,
  seatMinimumWithinBands,
  oneDefaultSeatStructure,
  seatStructureReferences,
  trialProducts,
  essentialsLinks,
  essentialsPrices,
  annualNotAboveMonthly,
  priceTestKeys,
  campaignProducts,
  campaignWindows,
  couponsDoNotOverlap,
  bannerIdsUnique,
  priceMigrationReferences,
  experimentGroups,
  experimentSetsPricePlans,
  experimentPlansExist,
  experimentWindows,
  experimentsDoNotOverlap,
];

/** Rules whose findings do not stop the build. */
export const WARNING_RULES: readonly Rule[] = [priceSetsUsed, essentialsAddOnsUsed];
