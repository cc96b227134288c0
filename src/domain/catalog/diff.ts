// What changes for customers between two catalogues (`catalog diff`): prices up or down, plans
// added or removed, campaigns added or removed and campaign windows that opened, closed or moved.
// Pure; `atMs` decides whether a window is open now.
import type {
  CampaignEntry,
  Catalog,
  PlanEntry,
  PriceMigration,
  SeatStructure,
} from "./catalog-schema.ts";

export type PriceChange = {
  /** What is priced: a plan, essentials add-on, export, export upgrade, seat band or campaign price. */
  kind: "plan" | "essentials" | "export" | "exportUpgrade" | "seatBand" | "campaign";
  /** Code or id of the priced item: wv_single_12m, k12-2024-01, blackfriday2019. */
  item: string;
  /** Which of its prices: price, seatPrice, total, perSeat, or the campaign's product code. */
  field: string;
  /** Price set, for plan prices in a price test; null for default prices. */
  priceSet: string | null;
  /** Seat range, for seat bands. */
  seats: string | null;
  before: number;
  after: number;
  /** Change in percent of `before`, one decimal; null when `before` is 0. */
  percent: number | null;
};

export type PlanRef = { code: string; name: string; termDuration: number; price: number };
export type CampaignRef = {
  id: string;
  name: string;
  coupon: string;
  validFrom: number;
  validTo: number;
};
export type WindowChange = CampaignRef & {
  /** opened: closed before and open now; closed: the reverse; moved: the dates changed otherwise. */
  change: "opened" | "closed" | "moved";
  before: { validFrom: number; validTo: number };
};
export type BandsChange = { structure: string; before: string[]; after: string[] };
/**
 * A price migration (catalog/price-migrations.yaml) added, removed or changed: existing
 * subscribers keep their price unless one moves them, so a reviewer must see each.
 */
export type MigrationChange = PriceMigration & {
  change: "added" | "removed" | "changed";
  /** The entry as it was, for a changed one. */
  before: PriceMigration | null;
};

export type CatalogDiff = {
  pricesUp: PriceChange[];
  pricesDown: PriceChange[];
  plansAdded: PlanRef[];
  plansRemoved: PlanRef[];
  campaignsAdded: CampaignRef[];
  campaignsRemoved: CampaignRef[];
  campaignWindows: WindowChange[];
  /** Structures whose band edges changed (their prices are compared band by band otherwise). */
  seatBands: BandsChange[];
  seatStructuresAdded: string[];
  seatStructuresRemoved: string[];
  priceMigrations: MigrationChange[];
};

type Change = Omit<PriceChange, "percent">;

function percent(before: number, after: number): number | null {
  return before === 0 ? null : Math.round(((after - before) / before) * 1000) / 10;
}

function byKey<T>(items: readonly T[], key: (item: T) => string): Map<string, T> {
  return new Map(items.map((item) => [key(item), item]));
}

function planPrices(before: PlanEntry, after: PlanEntry): Change[] {
  const changes: Change[] = [];
  const base = { kind: "plan" as const, item: after.code, seats: null };
  const push = (field: string, priceSet: string | null, b: number, a: number) => {
    if (b !== a && b >= 0 && a >= 0)
      changes.push({ ...base, field, priceSet, before: b, after: a });
  };
  push("price", null, before.price, after.price);
  push("seatPrice", null, before.seatPrice, after.seatPrice);
  // essentialsPrice is not compared: it is the add-on's price, reported once as an essentials change.
  const sets = new Set([...Object.keys(before.priceTests), ...Object.keys(after.priceTests)]);
  for (const set of sets) {
    const b = before.priceTests[set] ?? { price: before.price, seatPrice: before.seatPrice };
    const a = after.priceTests[set] ?? { price: after.price, seatPrice: after.seatPrice };
    // A set that only follows the default price repeats the default change: report it once.
    if (b.price !== a.price && !(b.price === before.price && a.price === after.price)) {
      push("price", set, b.price, a.price);
    }
    if (
      b.seatPrice !== a.seatPrice &&
      !(b.seatPrice === before.seatPrice && a.seatPrice === after.seatPrice)
    ) {
      push("seatPrice", set, b.seatPrice, a.seatPrice);
    }
  }
  return changes;
}

const range = (band: { from: number; to: number }) => `${band.from}-${band.to}`;

function bandPrices(before: SeatStructure, after: SeatStructure): Change[] {
  const old = byKey(before.bands, range);
  return after.bands.flatMap((band) => {
    const previous = old.get(range(band));
    if (!previous) return [];
    return (["total", "perSeat"] as const).flatMap((field) => {
      const b = previous[field];
      const a = band[field];
      return b !== null && a !== null && b !== a
        ? [
            {
              kind: "seatBand" as const,
              item: after.id,
              field,
              priceSet: null,
              seats: range(band),
              before: b,
              after: a,
            },
          ]
        : [];
    });
  });
}

function simplePrices(
  kind: PriceChange["kind"],
  before: readonly { code: string; price: number }[],
  after: readonly { code: string; price: number }[],
): Change[] {
  const old = byKey(before, (item) => item.code);
  return after.flatMap((item) => {
    const previous = old.get(item.code);
    return previous && previous.price !== item.price
      ? [
          {
            kind,
            item: item.code,
            field: "price",
            priceSet: null,
            seats: null,
            before: previous.price,
            after: item.price,
          },
        ]
      : [];
  });
}

function campaignPrices(before: CampaignEntry, after: CampaignEntry): Change[] {
  return Object.entries(after.prices).flatMap(([code, price]) => {
    const previous = before.prices[code];
    return previous !== undefined && previous !== price
      ? [
          {
            kind: "campaign" as const,
            item: after.id,
            field: code,
            priceSet: null,
            seats: null,
            before: previous,
            after: price,
          },
        ]
      : [];
  });
}

const isOpen = (c: { validFrom: number; validTo: number }, atMs: number) =>
  c.validFrom <= atMs && atMs < c.validTo;
const planRef = (p: PlanEntry): PlanRef => ({
  code: p.code,
  name: p.name,
  termDuration: p.termDuration,
  price: p.price,
});
const campaignRef = (c: CampaignEntry): CampaignRef => ({
  id: c.id,
  name: c.name,
  coupon: c.coupon,
  validFrom: c.validFrom,
  validTo: c.validTo,
});

export function diffCatalogs(before: Catalog, after: Catalog, atMs: number): CatalogDiff {
  const plansBefore = byKey(before.plans, (p) => p.code);
  const plansAfter = byKey(after.plans, (p) => p.code);
  const campaignsBefore = byKey(before.campaigns, (c) => c.id);
  const campaignsAfter = byKey(after.campaigns, (c) => c.id);
  const structuresBefore = byKey(before.seatStructures, (s) => s.id);
  const structuresAfter = byKey(after.seatStructures, (s) => s.id);

  const changes: Change[] = [
    ...after.plans.flatMap((plan) => {
      const old = plansBefore.get(plan.code);
      return old ? planPrices(old, plan) : [];
    }),
    ...simplePrices("essentials", before.essentials.addOns, after.essentials.addOns),
    ...simplePrices("export", before.singleExports, after.singleExports),
    ...simplePrices("exportUpgrade", before.exportUpgrades, after.exportUpgrades),
    ...after.seatStructures.flatMap((s) => {
      const old = structuresBefore.get(s.id);
      return old ? bandPrices(old, s) : [];
    }),
    ...after.campaigns.flatMap((c) => {
      const old = campaignsBefore.get(c.id);
      return old ? campaignPrices(old, c) : [];
    }),
  ];
  const priced = changes.map((c) => ({ ...c, percent: percent(c.before, c.after) }));

  const campaignWindows: WindowChange[] = after.campaigns.flatMap((c) => {
    const old = campaignsBefore.get(c.id);
    if (!old || (old.validFrom === c.validFrom && old.validTo === c.validTo)) return [];
    const wasOpen = isOpen(old, atMs);
    const nowOpen = isOpen(c, atMs);
    const change = !wasOpen && nowOpen ? "opened" : wasOpen && !nowOpen ? "closed" : "moved";
    return [
      { ...campaignRef(c), change, before: { validFrom: old.validFrom, validTo: old.validTo } },
    ];
  });

  const seatBands: BandsChange[] = after.seatStructures.flatMap((s) => {
    const old = structuresBefore.get(s.id);
    if (!old) return [];
    const b = old.bands.map(range);
    const a = s.bands.map(range);
    return b.join() === a.join() ? [] : [{ structure: s.id, before: b, after: a }];
  });

  const migrationsBefore = byKey(before.priceMigrations ?? [], (m) => m.id);
  const migrationsAfter = byKey(after.priceMigrations ?? [], (m) => m.id);
  const priceMigrations: MigrationChange[] = [
    ...[...migrationsAfter.values()].flatMap((m): MigrationChange[] => {
      const old = migrationsBefore.get(m.id);
      if (!old) return [{ ...m, change: "added", before: null }];
      return JSON.stringify(old) === JSON.stringify(m)
        ? []
        : [{ ...m, change: "changed", before: old }];
    }),
    ...[...migrationsBefore.values()]
      .filter((m) => !migrationsAfter.has(m.id))
      .map((m): MigrationChange => ({ ...m, change: "removed", before: null })),
  ];

  return {
    pricesUp: priced.filter((c) => c.after > c.before),
    pricesDown: priced.filter((c) => c.after < c.before),
    plansAdded: after.plans.filter((p) => !plansBefore.has(p.code)).map(planRef),
    plansRemoved: before.plans.filter((p) => !plansAfter.has(p.code)).map(planRef),
    campaignsAdded: after.campaigns.filter((c) => !campaignsBefore.has(c.id)).map(campaignRef),
    campaignsRemoved: before.campaigns.filter((c) => !campaignsAfter.has(c.id)).map(campaignRef),
    campaignWindows,
    seatBands,
    seatStructuresAdded: after.seatStructures
      .filter((s) => !structuresBefore.has(s.id))
      .map((s) => s.id),
    seatStructuresRemoved: before.seatStructures
      .filter((s) => !structuresAfter.has(s.id))
      .map((s) => s.id),
    priceMigrations,
  };
}

export function isEmptyDiff(diff: CatalogDiff): boolean {
  return Object.values(diff).every((list) => list.length === 0);
}
