// Price experiments on a static page (decision 0090): which experiments a page carries (those not
// ended at build time that price a plan it shows), the CSS that shows one group's prices of each,
// and the head script that picks the group (src/browser/experiment-head.ts, bundled at build
// time). The page is built once for every visitor, so it holds every group's figures; <html
// data-xp="expId:group ..."> set before the first paint says which one shows. Without it (no
// JavaScript, or the experiment is not running on the visitor's clock) the control's shows.
import type { PageExperiment } from "../browser/experiment-head.ts";
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import { CONTROL } from "../domain/catalog/control.ts";

/** The experiments a page showing `codes` carries: not ended at `nowMs`, pricing one of them. */
export function pageExperiments(
  catalog: Pick<Catalog, "experiments">,
  nowMs: number,
  codes: Iterable<string>,
): PageExperiment[] {
  const shown = new Set(codes);
  return (catalog.experiments ?? [])
    .filter((x) => x.to > nowMs && x.plans.some((code) => shown.has(code)))
    .map(({ id, groups, from, to }) => ({ id, groups, from, to }));
}

/** An element's group: the `data-xg` attribute of each group's figures. */
export const groupTag = (experimentId: string, group: string) => `${experimentId}:${group}`;

/** A CSS string of an id (catalogue ids are plain; JSON quoting escapes the rest). */
const quoted = (text: string) => JSON.stringify(text);

/**
 * The page's rules: a group's figures are shown only while <html data-xp> names that group; the
 * control's also while it names no group of the experiment.
 */
export function experimentCss(experiments: readonly PageExperiment[]): string {
  return experiments
    .flatMap((x) => {
      const others = x.groups.filter((g) => g.set !== CONTROL).map((g) => groupTag(x.id, g.set));
      const control = quoted(groupTag(x.id, CONTROL));
      const hideControl = others.map((tag) => `html[data-xp~=${quoted(tag)}] [data-xg=${control}]`);
      const hideOthers = others.map(
        (tag) => `html:not([data-xp~=${quoted(tag)}]) [data-xg=${quoted(tag)}]`,
      );
      return [...hideOthers, ...hideControl];
    })
    .map((selector) => `${selector}{display:none}`)
    .join("");
}

/** JSON safe inside a <script> element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

/** The head script: the bundled code with the page's experiments as its `XP`. */
export function experimentHeadScript(code: string, experiments: readonly PageExperiment[]): string {
  return `(XP=>{${code}})(${scriptJson(experiments)})`;
}
