import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CampaignEntry, Catalog, PlanEntry, SeatStructure } from "../catalog/catalog-schema.ts";
import { RULES } from "../catalog/rules/index.ts";
import { arbPricingScenario, arbSeatStructure } from "./arbitraries.ts";
import {
  makeCampaign,
  makeCatalog,
  makePlan,
  makeSeatStructure,
  makeSpecCatalog,
} from "./builders.ts";

const ruleIssues = (catalog: Catalog) => RULES.flatMap((rule) => rule(catalog));

describe("builders", () => {
  it("build objects that parse with the catalogue schemas", () => {
    expect(PlanEntry.parse(makePlan())).toEqual(makePlan());
    expect(SeatStructure.parse(makeSeatStructure())).toEqual(makeSeatStructure());
    expect(CampaignEntry.parse(makeCampaign())).toEqual(makeCampaign());
    expect(Catalog.parse(makeCatalog())).toEqual(makeCatalog());
    expect(Catalog.parse(makeSpecCatalog())).toEqual(makeSpecCatalog());
  });

  it("build catalogues that pass the validator's cross-entity rules", () => {
    expect(ruleIssues(makeCatalog({ campaigns: [makeCampaign()] }))).toEqual([]);
    expect(ruleIssues(makeSpecCatalog())).toEqual([]);
  });

  it("apply overrides and keep the term in step with the code", () => {
    expect(makePlan({ code: "wv_single_1m", price: 999 })).toMatchObject({
      termDuration: 1,
      price: 999,
    });
    expect(makeCampaign({ prices: { wv_single_1m: 499 } }).products).toEqual(["wv_single_1m"]);
    expect(makeSeatStructure().maximumSeats).toBe(1000);
  });

  it("generate random seat structures and scenarios that the rules accept", () => {
    fc.assert(
      fc.property(arbSeatStructure(["wv_single_12m"]), (structure) => {
        const catalog = makeCatalog({
          plans: [makePlan({ multiUser: true })],
          seatStructures: [structure],
        });
        return (
          ruleIssues(catalog).filter((issue) => issue.at.entity === "seatStructures").length === 0
        );
      }),
      { numRuns: 1_000 },
    );
    fc.assert(
      fc.property(arbPricingScenario, (s) => Catalog.safeParse(s.catalog).success),
      { numRuns: 1_000 },
    );
  });
});
