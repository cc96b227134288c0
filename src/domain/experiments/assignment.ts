// Which group of a price experiment a visitor is in. The same pure function runs in the static
// pages' inline script, the checkout and the server, so all three agree without asking each other:
// the group follows from the experiment's id, its shares and the visitor's stable id alone.
import type { Catalog, Experiment } from "../catalog/catalog-schema.ts";
import { CONTROL } from "../catalog/control.ts";

/** A visitor id as the browser makes it (crypto.randomUUID) or the server does: 16–64 safe chars. */
export const VISITOR_ID = /^[A-Za-z0-9_-]{16,64}$/;

export function isVisitorId(value: unknown): value is string {
  return typeof value === "string" && VISITOR_ID.test(value);
}

/**
 * A number in 0..9999 from the experiment and the visitor: FNV-1a over both ids, then murmur3's
 * finaliser so that ids differing in one character land far apart. Keyed by the experiment too,
 * so that one visitor's groups in two experiments are independent.
 */
export function bucketOf(experimentId: string, visitorId: string): number {
  const key = `${experimentId}:${visitorId}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) % 10_000;
}

/** The group (a price-set id, or "control") the shares give this visitor. */
export function groupFor(experiment: Pick<Experiment, "id" | "groups">, visitorId: string): string {
  const bucket = bucketOf(experiment.id, visitorId);
  let upTo = 0;
  for (const group of experiment.groups) {
    upTo += group.share * 100;
    if (bucket < upTo) return group.set;
  }
  // Shares summing to 100 (catalog validate) leave nothing over; the control is the safe answer.
  return CONTROL;
}

/** The experiments whose window holds `atMs`. */
export function runningExperiments(
  catalog: Pick<Catalog, "experiments">,
  atMs: number,
): Experiment[] {
  return (catalog.experiments ?? []).filter((x) => x.from <= atMs && atMs < x.to);
}

/** The running experiment that prices this product code, if any (validate allows at most one). */
export function experimentFor(
  catalog: Pick<Catalog, "experiments">,
  productCode: string,
  atMs: number,
): Experiment | undefined {
  return runningExperiments(catalog, atMs).find((x) => x.plans.includes(productCode));
}

/** The price set of a group: null for the control (the default prices). */
export function priceSetOfGroup(group: string): string | null {
  return group === CONTROL ? null : group;
}
