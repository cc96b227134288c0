import { describe, expect, it } from "vitest";
import type { Experiment } from "../domain/catalog/catalog-schema.ts";
import { makeSpecCatalog } from "../domain/testing/builders.ts";
import { experimentCss, experimentHeadScript, pageExperiments } from "./experiments-on-page.ts";
import { cardExperiment, type PlanCard, planCard } from "./plan-card.ts";
import { plansPageModel } from "./plans-page.ts";

const from = Date.UTC(2027, 0, 11, 5);
const to = Date.UTC(2027, 3, 12, 4);
const experiment: Experiment = {
  id: "professional-price-2027",
  description: "",
  groups: [
    { set: "control", share: 50 },
    { set: "sample", share: 50 },
  ],
  plans: ["wv_bizindiv_1m", "wv_bizindiv_12m"],
  audiences: ["new", "former"],
  from,
  to,
};
const catalog = { ...makeSpecCatalog(), experiments: [experiment] };
const before = Date.UTC(2026, 11, 7);

function card(family: string, nowMs: number): PlanCard {
  const built = planCard(catalog, family, { nowMs, variant: "plans" });
  if (built === null) throw new Error(`no card for ${family}`);
  return built;
}

describe("price experiments on the static plans pages", () => {
  it("carries each group's figures of a covered option, the control's as the no-JavaScript ones", () => {
    const [annual, monthly] = card("professional", before).options;
    expect(monthly?.price.amount).toBe("$39.99");
    expect(monthly?.groups.map((g) => [g.tag, g.price.amount])).toEqual([
      ["professional-price-2027:control", "$39.99"],
      ["professional-price-2027:sample", "$35.99"],
    ]);
    expect(annual?.groups.map((g) => [g.tag, g.price.amount, g.price.detail, g.savings])).toEqual([
      ["professional-price-2027:control", "$19.99", "billed $239.88 yearly", "Save 50%"],
      ["professional-price-2027:sample", "$17.99", "billed $215.88 yearly", "Save 50%"],
    ]);
  });

  it("leaves uncovered cards alone, and the experiment out once it has ended", () => {
    expect(card("power", before).options.every((o) => o.groups.length === 0)).toBe(true);
    expect(card("professional", to).options.every((o) => o.groups.length === 0)).toBe(true);
  });

  it("carries the experiments of the plans a page shows, not ended at build time", () => {
    const page = pageExperiments(catalog, before, ["wv_bizindiv_12m"]);
    expect(page).toEqual([{ id: experiment.id, groups: experiment.groups, from, to }]);
    expect(pageExperiments(catalog, before, ["wv_power_12m"])).toEqual([]);
    expect(pageExperiments(catalog, to, ["wv_bizindiv_12m"])).toEqual([]);
  });

  it("refuses two experiments on one card, which would need every combination of groups", () => {
    const other = { ...experiment, id: "monthly-only", plans: ["wv_bizindiv_1m"] };
    const both = { experiments: [{ ...experiment, plans: ["wv_bizindiv_12m"] }, other] };
    expect(() =>
      cardExperiment(both, "professional", ["wv_bizindiv_1m", "wv_bizindiv_12m"], before),
    ).toThrow(/professional-price-2027 and monthly-only both price the professional card/);
  });

  it("refuses an experiment on a banded plan, whose seat calculator shows one price set", () => {
    const schools = { ...catalog, experiments: [{ ...experiment, plans: ["wv_k12_12m"] }] };
    expect(() => planCard(schools, "schools", { nowMs: before, variant: "plans" })).toThrow(
      /cannot show professional-price-2027's groups on wv_k12_12m/,
    );
  });

  it("gives the billing switch's hint per group only where a group's saving changes it", () => {
    const yearly = (model: ReturnType<typeof plansPageModel>) => model.billing.options[0];
    expect(yearly(plansPageModel(catalog, before, { variant: "plans" }))?.groupHints).toEqual([]);
    // A sample annual price that saves more than any plan of the page does.
    const cheap = {
      ...catalog,
      plans: catalog.plans.map((p) =>
        p.code === "wv_bizindiv_12m"
          ? { ...p, priceTests: { sample: { price: 12_000, seatPrice: -1 } } }
          : p,
      ),
    };
    const annual = yearly(plansPageModel(cheap, before, { variant: "plans" }));
    expect(annual?.hint).toBe(yearly(plansPageModel(catalog, before, { variant: "plans" }))?.hint);
    expect(annual?.groupHints).toEqual([
      { tag: "professional-price-2027:control", hint: annual?.hint },
      { tag: "professional-price-2027:sample", hint: "save up to 72%" },
    ]);
  });

  it("shows the control unless <html data-xp> names another group, and wraps the script", () => {
    const [page] = pageExperiments(catalog, before, ["wv_bizindiv_12m"]);
    if (!page) throw new Error("no experiment");
    expect(experimentCss([page])).toBe(
      'html:not([data-xp~="professional-price-2027:sample"]) [data-xg="professional-price-2027:sample"]{display:none}' +
        'html[data-xp~="professional-price-2027:sample"] [data-xg="professional-price-2027:control"]{display:none}',
    );
    const script = experimentHeadScript("run(XP)", [{ ...page, id: "</script>" }]);
    expect(script.startsWith("(XP=>{run(XP)})([")).toBe(true);
    expect(script).not.toContain("</script>");
  });
});
