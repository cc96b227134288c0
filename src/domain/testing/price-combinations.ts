// The combinations of the price cross-test (e2e/pricing/price-cross.spec.ts): which orders to
// price on every layer (static page, `catalog quote`, the server's summary, the sandbox charge,
// the invoice) so that every edge of the catalogue is crossed. Pure, from the catalogue alone, so
// a new plan, band or campaign joins the test without anyone editing it.
//
// Edges are kept whole; the interior of each band and window is sampled by one point (its
// middle), which is where a wrong band or a wrong window would show without an edge moving.
import type { CampaignEntry, Catalog, PlanEntry } from "../catalog/catalog-schema.ts";
import { seatStructureFor } from "../pricing/seats.ts";

export type PriceCombination = {
  /** Product code bought (its term is the billing mode). */
  plan: string;
  /** Seats asked for; null asks for the plan's default. */
  seats: number | null;
  /** Coupon typed, lower case as the catalogue writes it; null for none. */
  coupon: string | null;
  atMs: number;
  /** Why the combination is in the set ("seats 31 (band 31-100 from)", ...), for failure messages. */
  because: string[];
};

/** Plans a customer can buy on the web: what the server's upgrade call accepts. */
export function purchasablePlans(catalog: Pick<Catalog, "plans">): PlanEntry[] {
  return catalog.plans.filter((p) => !p.isTrial && !p.legacy && p.price > 0);
}

/** n − 1, n, n + 1, each with its label; seat counts below 1 are left out. */
function around(n: number, label: string): [number, string][] {
  return [
    [n - 1, `${label} - 1`],
    [n, label],
    [n + 1, `${label} + 1`],
  ];
}

/**
 * The seat counts to price a plan at, each with why: every band edge and either side of it, the
 * minimum, the included seats and the maximum either side, and the middle of each band. A
 * single-user plan is priced at 1 seat and at 2 (which it must refuse).
 */
export function seatEdges(
  catalog: Pick<Catalog, "seatStructures">,
  plan: PlanEntry,
): Map<number, string[]> {
  const edges: [number, string][] = [];
  const structure = seatStructureFor(catalog, plan);
  if (structure.ok && structure.value !== null) {
    const s = structure.value;
    edges.push(...around(s.minimumSeats, `minimum ${s.minimumSeats}`));
    for (const band of s.bands) {
      const name = `band ${band.from}-${band.to}`;
      edges.push(...around(band.from, `${name} from`), ...around(band.to, `${name} to`));
      edges.push([Math.floor((band.from + band.to) / 2), `${name} middle`]);
    }
  } else if (plan.multiUser || plan.minSeats > 1) {
    const included = Math.max(0, plan.includedSeats);
    edges.push(...around(Math.max(1, plan.minSeats), `minimum ${plan.minSeats}`));
    if (included > 0) edges.push(...around(included, `${included} included`));
    if (plan.maxSeats !== null) {
      edges.push(...around(plan.maxSeats, `maximum ${plan.maxSeats}`));
      edges.push([Math.floor((included + plan.maxSeats) / 2), "between included and maximum"]);
    } else {
      edges.push([Math.max(included, 1) * 10, "ten times the included seats"]);
    }
  } else {
    edges.push([1, "single user"], [2, "single user, one seat too many"]);
  }
  const seats = new Map<number, string[]>();
  for (const [n, why] of edges) {
    if (n < 1) continue;
    seats.set(n, [...(seats.get(n) ?? []), why]);
  }
  return new Map([...seats].sort(([a], [b]) => a - b));
}

/** Every campaign edge and either side of it (1 ms), and the middle of each window. */
export function campaignTimes(campaigns: readonly CampaignEntry[]): Map<number, string[]> {
  const times = new Map<number, string[]>();
  const add = (at: number, why: string) => times.set(at, [...(times.get(at) ?? []), why]);
  for (const c of campaigns) {
    for (const [edge, name] of [
      [c.validFrom, "validFrom"],
      [c.validTo, "validTo"],
    ] as const) {
      for (const [at, label] of around(edge, `${c.id} ${name}`)) add(at, label);
    }
    add(c.validFrom + Math.floor((c.validTo - c.validFrom) / 2), `${c.id} middle`);
  }
  return new Map([...times].sort(([a], [b]) => a - b));
}

function key(c: Pick<PriceCombination, "plan" | "seats" | "coupon" | "atMs">): string {
  return `${c.plan}|${c.seats ?? ""}|${c.coupon ?? ""}|${c.atMs}`;
}

/**
 * The combinations, deduplicated, in a stable order (by time, then plan, seats and coupon):
 * - every plan at every seat edge, at `nowMs`, without a coupon;
 * - every plan at its default seats at every campaign time and at `nowMs`, without a coupon;
 * - every coupon, at its campaigns' times and at `nowMs`, on each plan its campaigns price and on
 *   one plan they do not (which must refuse it);
 * - every seat edge of a multi-seat plan that a campaign prices, at that campaign's times, with
 *   its coupon when it is targeted.
 */
export function priceCombinations(
  catalog: Pick<Catalog, "plans" | "seatStructures" | "campaigns">,
  nowMs: number,
): PriceCombination[] {
  const plans = purchasablePlans(catalog);
  const found = new Map<string, PriceCombination>();
  const add = (c: Omit<PriceCombination, "because">, because: string) => {
    const k = key(c);
    const existing = found.get(k);
    if (existing) existing.because.push(because);
    else found.set(k, { ...c, because: [because] });
  };
  const allTimes = campaignTimes(catalog.campaigns);
  allTimes.set(nowMs, [...(allTimes.get(nowMs) ?? []), "now"]);

  for (const plan of plans) {
    for (const [seats, why] of seatEdges(catalog, plan)) {
      add(
        { plan: plan.code, seats, coupon: null, atMs: nowMs },
        `seats ${seats} (${why.join(", ")})`,
      );
    }
    for (const [atMs, why] of allTimes) {
      add({ plan: plan.code, seats: null, coupon: null, atMs }, `time ${why.join(", ")}`);
    }
  }

  const coupons = [...new Set(catalog.campaigns.map((c) => c.coupon.toLowerCase()))];
  for (const coupon of coupons) {
    const campaigns = catalog.campaigns.filter((c) => c.coupon.toLowerCase() === coupon);
    const times = campaignTimes(campaigns);
    times.set(nowMs, ["now"]);
    const priced = new Set(campaigns.flatMap((c) => c.products));
    const other = plans.find((p) => !priced.has(p.code));
    const targets = plans.filter((p) => priced.has(p.code) || p === other);
    for (const plan of targets) {
      const role = priced.has(plan.code) ? "priced" : "not priced";
      for (const [atMs, why] of times) {
        add(
          { plan: plan.code, seats: null, coupon, atMs },
          `coupon ${coupon} (${role}) at ${why.join(", ")}`,
        );
      }
    }
  }

  for (const campaign of catalog.campaigns) {
    for (const plan of plans.filter((p) => campaign.products.includes(p.code))) {
      const seats = seatEdges(catalog, plan);
      if (seats.size <= 2 && !plan.multiUser) continue;
      const coupon = campaign.targeted ? campaign.coupon.toLowerCase() : null;
      for (const [atMs, when] of campaignTimes([campaign])) {
        for (const [n, why] of seats) {
          add(
            { plan: plan.code, seats: n, coupon, atMs },
            `${campaign.id} at ${when.join(", ")} with seats ${n} (${why.join(", ")})`,
          );
        }
      }
    }
  }

  return [...found.values()].sort(
    (a, b) =>
      a.atMs - b.atMs ||
      a.plan.localeCompare(b.plan) ||
      (a.seats ?? 0) - (b.seats ?? 0) ||
      (a.coupon ?? "").localeCompare(b.coupon ?? ""),
  );
}
