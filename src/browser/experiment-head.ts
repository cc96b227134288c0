// The static plans pages' experiment groups, decided in the head before the first paint
// (docs/static-pages.md, decision 0090). The page carries every group's prices of a covered plan;
// this picks the visitor's group of each running experiment and names it on <html data-xp>, which
// the page's CSS reads to show that group's prices only. So the page never shows two prices for a
// plan and nothing moves after the first paint. Without JavaScript <html> names no group and the
// CSS shows the control's prices.
//
// The group is the server's rule (src/domain/experiments, design of issue 36): an entry of the
// `xp` cookie (written by the server: `expId:group` joined by `|`, `!` when the customer may not
// be newly enrolled) wins; else with `!` the control; else `groupFor` of the visitor id in cookie
// `vid`, made here when absent. Experiments the server has not settled get one exposure beacon.
// Bundled with esbuild into the page's inline script (src/browser/experiment-head-inline.ts).
import type { Experiment } from "../domain/catalog/catalog-schema.ts";
import { CONTROL } from "../domain/catalog/control.ts";
import { groupFor, isVisitorId } from "../domain/experiments/assignment.ts";

/** What a page carries of an experiment covering a plan it shows (embedded at build time). */
export type PageExperiment = Pick<Experiment, "id" | "groups" | "from" | "to">;

/** The attribute of <html> naming the chosen groups: `expId:group` tokens, space-separated. */
export const CHOSEN_ATTRIBUTE = "data-xp";
/**
 * Where the beacon goes: the server records the exposure and fixes the group. The contract's
 * path (pageEndpoints.experimentExposures, checked equal by the tests) written out: importing the
 * entry would put its whole object in every page's script.
 */
export const EXPOSURES_PATH = "/api/4/experiments/exposures";
/** Two years, as the server's own `vid` cookie. */
const VID_MAX_AGE = 63_072_000;

/** The value of cookie `name` (an id of safe characters) in a `document.cookie` string, or null. */
export function cookieValue(cookies: string, name: string): string | null {
  const raw = new RegExp(`(?:^|;) *${name}=([^;]*)`).exec(cookies)?.[1];
  try {
    return raw === undefined ? null : decodeURIComponent(raw.trim());
  } catch {
    return null;
  }
}

/** The `xp` cookie read: settled groups by experiment id, and whether `!` is there. */
export function parseXp(value: string | null): {
  groups: Record<string, string>;
  notEnrollable: boolean;
} {
  const groups: Record<string, string> = {};
  let notEnrollable = false;
  for (const entry of (value ?? "").split("|")) {
    if (entry === "!") notEnrollable = true;
    const colon = entry.lastIndexOf(":");
    if (colon > 0) groups[entry.slice(0, colon)] = entry.slice(colon + 1);
  }
  return { groups, notEnrollable };
}

export type Choice = { id: string; group: string; settled: boolean };

/**
 * The group of each experiment running at `nowMs`: the xp cookie's entry (settled), else the
 * control for a customer who may not be enrolled (settled: nothing to record), else groupFor.
 * A group the page has no prices for (the catalogue changed since the build) shows the control.
 */
export function chooseGroups(
  experiments: readonly PageExperiment[],
  visitorId: string,
  xp: ReturnType<typeof parseXp>,
  nowMs: number,
): Choice[] {
  return experiments
    .filter((x) => x.from <= nowMs && nowMs < x.to)
    .map((x) => {
      const known = xp.groups[x.id];
      const settled = known !== undefined || xp.notEnrollable;
      const group = known ?? (xp.notEnrollable ? CONTROL : groupFor(x, visitorId));
      return { id: x.id, group: x.groups.some((g) => g.set === group) ? group : CONTROL, settled };
    });
}

/** The browser objects the head script uses, passed in so that tests give fakes. */
export type HeadEnvironment = {
  document: {
    cookie: string;
    documentElement: { setAttribute(name: string, value: string): void };
  };
  secure: boolean;
  nowMs: number;
  newId: () => string;
  sendBeacon: (url: string, body: string) => unknown;
};

/** Reads or makes the visitor id, names the groups on <html>, and sends the exposure beacon. */
export function runExperimentHead(
  experiments: readonly PageExperiment[],
  env: HeadEnvironment,
): Choice[] {
  const doc = env.document;
  let visitorId = cookieValue(doc.cookie, "vid");
  if (!isVisitorId(visitorId)) {
    visitorId = env.newId();
    doc.cookie = `vid=${visitorId};path=/;max-age=${VID_MAX_AGE};samesite=lax${env.secure ? ";secure" : ""}`;
  }
  const choices = chooseGroups(
    experiments,
    visitorId,
    parseXp(cookieValue(doc.cookie, "xp")),
    env.nowMs,
  );
  doc.documentElement.setAttribute(
    CHOSEN_ATTRIBUTE,
    choices.map((c) => `${c.id}:${c.group}`).join(" "),
  );
  const unsettled = choices.filter((c) => !c.settled).map((c) => c.id);
  if (unsettled.length > 0) {
    env.sendBeacon(EXPOSURES_PATH, JSON.stringify({ experiments: unsettled }));
  }
  return choices;
}
