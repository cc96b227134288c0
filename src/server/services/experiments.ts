// Price experiments on the server (issue 36, decision 0089): which visitor a request is, the
// customer's group in each running experiment, the cookies that tell the static pages, and the
// events recorded once per experiment, visitor and kind (db/experiment-events.ts).
//
// A customer's group: the exposure row when there is one (it wins, even for a later subscriber),
// else, when enrolment allows (domain/experiments/enrolment.ts), the group the shares give, which
// the first pricing of a covered plan records. Nothing here reads the database when no
// experiment runs.
import { randomUUID } from "node:crypto";
import { FREE_PRODUCT, isTrialCode } from "../../domain/account/tier.ts";
import type { Catalog } from "../../domain/catalog/catalog-schema.ts";
import { isVisitorId, runningExperiments } from "../../domain/experiments/assignment.ts";
import {
  choiceOf,
  type EnrolmentFacts,
  type Standing,
  standings,
  VISITOR,
  xpCookieValue,
} from "../../domain/experiments/enrolment.ts";
import { choiceOfGroup, type PriceChoice } from "../../domain/experiments/price-choice.ts";
import type { Ctx } from "../context.ts";
import type { Queryable } from "../db/db.ts";
import { type ExperimentEventKind, ExperimentEvents } from "../db/experiment-events.ts";
import { Orders } from "../db/orders.ts";
import type { Subscription } from "../db/subscriptions.ts";
import { Visitors } from "../db/visitors.ts";

/** The browser's visitor id (not HttpOnly: the static pages' script reads it). */
export const VISITOR_COOKIE = "vid";
/** The visitor's settled groups, for the static pages (enrolment.ts xpCookieValue). */
export const GROUPS_COOKIE = "xp";
const TWO_YEARS_SECONDS = 2 * 365 * 86_400;

/** An account's standing in the running experiments. */
export type AccountExperiments = {
  /** The id the groups follow; null for an account that has none stored yet. */
  visitorId: string | null;
  facts: EnrolmentFacts;
  standings: Standing[];
};

export const NO_EXPERIMENTS: AccountExperiments = {
  visitorId: null,
  facts: VISITOR,
  standings: [],
};

/**
 * What the events read of an account (services/account.ts's Account has it): its standing in the
 * experiments, its id, price-testing group and price choice, and the time it was read at.
 */
type Enrolled = {
  experiments: AccountExperiments;
  user: { id: number; priceTestingGroupValue: string | null };
  priceChoice: PriceChoice;
  now: number;
};

/** The paying-subscriber part of the facts, from what loadAccount has read. */
export function subscriberFacts(input: {
  sub: Subscription;
  orderState: string;
  isTrial: boolean;
  isExpiredTrial: boolean;
  teamCovered: boolean;
  now: number;
}): Omit<EnrolmentFacts, "everPaid"> {
  const { sub } = input;
  const ownPaid =
    sub.productCode !== FREE_PRODUCT &&
    !isTrialCode(sub.productCode) &&
    !sub.expiredFlag &&
    (sub.orderEnd ?? 0) > input.now;
  return {
    payingSubscriber: input.teamCovered || (ownPaid && !input.isTrial),
    inTrial: input.isTrial && !input.isExpiredTrial,
  };
}

/**
 * The account's standing in each running experiment: its visitor id (given for a visitor who is
 * not signed in, else the stored one), its recorded groups and, for the rest, enrolment.
 */
export async function experimentsOf(
  q: Queryable,
  catalog: Pick<Catalog, "experiments">,
  input: {
    userId: number;
    /** A visitor's id from the cookie; undefined reads the account's. */
    visitorId?: string | null | undefined;
    facts: Omit<EnrolmentFacts, "everPaid">;
    now: number;
  },
): Promise<AccountExperiments> {
  if (runningExperiments(catalog, input.now).length === 0) return NO_EXPERIMENTS;
  const visitorId =
    input.visitorId === undefined ? await Visitors.idOf(q, input.userId) : input.visitorId;
  const [recorded, everPaid] = await Promise.all([
    visitorId === null ? {} : ExperimentEvents.groupsOf(q, visitorId),
    input.userId > 0 && !input.facts.payingSubscriber ? Orders.hasPaid(q, input.userId) : false,
  ]);
  const facts = { ...input.facts, everPaid };
  return {
    visitorId,
    facts,
    standings: standings(catalog, { visitorId, facts, recorded, atMs: input.now }),
  };
}

/** The price choice of an account's standings and its price-testing group. */
export function priceChoiceOf(
  experiments: AccountExperiments,
  groupValue: string | null,
): PriceChoice {
  return choiceOf(experiments.standings, groupValue);
}

/** The cookie's visitor id, when it is one. */
export function cookieVisitorId(ctx: Ctx): string | null {
  const value = ctx.cookies[VISITOR_COOKIE];
  return isVisitorId(value) ? value : null;
}

/**
 * The visitor id of this request: the account's (the cookie's, or a new one, stored on an account
 * that has none: the first writer wins), else the cookie's, else a new one. The cookie is set
 * to it when it says otherwise, so another device adopts the account's id.
 */
export async function requestVisitorId(ctx: Ctx, userId: number | null): Promise<string> {
  const fromCookie = cookieVisitorId(ctx);
  let visitorId: string;
  if (userId !== null && userId > 0) {
    const stored = await Visitors.idOf(ctx.app.db, userId);
    visitorId = stored ?? (await Visitors.adopt(ctx.app.db, userId, fromCookie ?? randomUUID()));
  } else {
    visitorId = fromCookie ?? randomUUID();
  }
  if (visitorId !== fromCookie) setVisitorCookie(ctx, visitorId);
  return visitorId;
}

function cookie(ctx: Ctx, name: string, value: string): string {
  const parts = [`${name}=${value}`, "Path=/", "SameSite=Lax", `Max-Age=${TWO_YEARS_SECONDS}`];
  if (ctx.secure) parts.push("Secure");
  return parts.join("; ");
}

const written = new WeakMap<Ctx, Set<string>>();

/** Sets a cookie once per answer (a handler may load the account twice). */
function setOnce(ctx: Ctx, name: string, value: string): void {
  const names = written.get(ctx) ?? new Set<string>();
  written.set(ctx, names);
  if (names.has(name)) return;
  names.add(name);
  ctx.addHeader("Set-Cookie", cookie(ctx, name, value));
}

function setVisitorCookie(ctx: Ctx, visitorId: string): void {
  setOnce(ctx, VISITOR_COOKIE, visitorId);
}

/** Writes the `xp` cookie (and `vid`, when the cookie is not the account's) for this account. */
export function writeExperimentCookies(ctx: Ctx, experiments: AccountExperiments): void {
  if (experiments.standings.length === 0) return;
  if (experiments.visitorId !== null && experiments.visitorId !== cookieVisitorId(ctx)) {
    setVisitorCookie(ctx, experiments.visitorId);
  }
  // Only the safe characters of ids and ":|!": the value needs no encoding.
  setOnce(ctx, GROUPS_COOKIE, xpCookieValue(experiments.standings, experiments.facts));
}

/** The running experiments that price one of these product codes, as the account stands in them. */
function covering(account: Enrolled, productCodes: readonly string[]): Standing[] {
  return account.experiments.standings.filter((s) =>
    s.experiment.plans.some((code) => productCodes.includes(code)),
  );
}

/**
 * Records the exposure of each running experiment pricing these products in which the account is
 * enrolled but not recorded, and answers the account with the recorded groups (the first writer
 * wins on any server, so the answer may differ from the shares' group after a catalogue change).
 */
export async function expose<A extends Enrolled>(
  q: Queryable,
  account: A,
  productCodes: readonly string[],
): Promise<A> {
  const { visitorId } = account.experiments;
  if (visitorId === null) return account;
  const pending = covering(account, productCodes).filter((s) => s.group !== null && !s.recorded);
  if (pending.length === 0) return account;
  const settled = new Map<string, string>();
  for (const s of pending) {
    if (s.group === null) continue;
    const group = await ExperimentEvents.expose(q, {
      experimentId: s.experiment.id,
      visitorId,
      group: s.group,
      at: account.now,
      userId: account.user.id > 0 ? account.user.id : null,
    });
    settled.set(s.experiment.id, group);
  }
  const next = account.experiments.standings.map((s): Standing => {
    const group = settled.get(s.experiment.id);
    return group === undefined ? s : { experiment: s.experiment, group, recorded: true };
  });
  const experiments = { ...account.experiments, standings: next };
  return {
    ...account,
    experiments,
    priceChoice: priceChoiceOf(experiments, account.user.priceTestingGroupValue),
  };
}

/**
 * Records a checkout or purchase of a product for an enrolled account, with its exposure (a
 * purchase priced in a group fixes it, whatever path priced it). Each once per experiment and
 * visitor; answers how many events were new.
 */
export async function recordEnrolledEvent(
  q: Queryable,
  account: Enrolled,
  input: { kind: "checkout" | "purchase"; productCode: string; orderId: string | null; at: number },
): Promise<number> {
  const { visitorId } = account.experiments;
  if (visitorId === null) return 0;
  let recorded = 0;
  for (const s of covering(account, [input.productCode])) {
    if (s.group === null) continue;
    const userId = account.user.id > 0 ? account.user.id : null;
    const group = await ExperimentEvents.expose(q, {
      experimentId: s.experiment.id,
      visitorId,
      group: s.group,
      at: input.at,
      userId,
    });
    const event = { experimentId: s.experiment.id, visitorId, group, userId };
    if (
      await ExperimentEvents.record(q, {
        ...event,
        kind: input.kind,
        at: input.at,
        orderId: input.orderId,
      })
    ) {
      recorded += 1;
    }
  }
  return recorded;
}

/**
 * Records the first paid renewal, or a cancellation before it, of the subscription the account
 * bought in an experiment: each experiment (running or not) in which the account's visitor has a
 * purchase, with the purchase's group. A cancellation after the first renewal is not one.
 */
export async function recordAfterSale(
  q: Queryable,
  catalog: Pick<Catalog, "experiments">,
  input: {
    userId: number;
    kind: Extract<ExperimentEventKind, "renewal" | "cancellation">;
    orderId: string | null;
    at: number;
  },
): Promise<number> {
  const experiments = catalog.experiments ?? [];
  if (experiments.length === 0) return 0;
  const visitorId = await Visitors.idOf(q, input.userId);
  if (visitorId === null) return 0;
  const events = await ExperimentEvents.ofVisitor(q, visitorId);
  let recorded = 0;
  for (const experiment of experiments) {
    const mine = events.filter((e) => e.experimentId === experiment.id);
    const purchase = mine.find((e) => e.kind === "purchase");
    if (purchase === undefined) continue;
    if (input.kind === "cancellation" && mine.some((e) => e.kind === "renewal")) continue;
    const added = await ExperimentEvents.record(q, {
      experimentId: experiment.id,
      visitorId,
      kind: input.kind,
      group: purchase.group,
      at: input.at,
      userId: input.userId,
      orderId: input.orderId,
    });
    if (added) recorded += 1;
  }
  return recorded;
}

/**
 * The price choice of a stored account outside a request (the renewal worker, PayPal's
 * webhooks): its recorded groups in the running experiments and its price-testing group. Nobody
 * is enrolled here: these are subscribers.
 */
export async function storedPriceChoice(
  q: Queryable,
  catalog: Pick<Catalog, "experiments">,
  user: { id: number; priceTestingGroupValue: string | null },
  now: number,
): Promise<PriceChoice> {
  const running = runningExperiments(catalog, now);
  if (running.length === 0) return choiceOfGroup(user.priceTestingGroupValue);
  const visitorId = await Visitors.idOf(q, user.id);
  const recorded = visitorId === null ? {} : await ExperimentEvents.groupsOf(q, visitorId);
  const groups: Record<string, string> = {};
  for (const x of running) {
    const group = recorded[x.id];
    if (group !== undefined) groups[x.id] = group;
  }
  return { groupValue: user.priceTestingGroupValue, groups };
}
