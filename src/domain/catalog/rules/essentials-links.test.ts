import { describe, expect, it } from "vitest";
import {
  issuesOf,
  lines,
  makeCatalogFiles,
  makeCatalogInput,
  makeFamily,
  makeVariant,
} from "../testing/builders.ts";
import { validateCatalog } from "../validate.ts";

const power = makeFamily();
const [monthly, annual, plusMonthly, plusAnnual] = power.variants;
const withVariants = (...variants: (typeof power.variants)[number][]) => ({
  plans: makeCatalogInput().plans.map((f) => (f.family === "power" ? makeFamily({ variants }) : f)),
});

describe("essentials links", () => {
  it("accepts the Power family as built", async () => {
    expect(await issuesOf()).toEqual([]);
  });

  it("reports essentials: true without an add-on, and an add-on without essentials", async () => {
    expect(
      await issuesOf(
        withVariants(
          makeVariant({ ...monthly, essentialsUpgrade: undefined }),
          makeVariant({
            ...annual,
            essentialsUpgrade: undefined,
            essentialsAddOn: "essentials_12m",
          }),
          makeVariant({
            ...plusMonthly,
            essentialsAddOn: undefined,
            essentialsDowngrade: undefined,
          }),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[1].essentialsAddOn: essentialsAddOn is essentials_12m but essentials is false: expected essentials: true, or no essentialsAddOn",
        "catalog/plans/power.yaml variants[2].essentials: essentials is true but essentialsAddOn is missing: expected the code of the add-on included",
      ]
    `);
  });

  it("reports an unknown add-on and an add-on of another term", async () => {
    expect(
      await issuesOf(
        withVariants(
          makeVariant({ ...monthly }),
          makeVariant({ ...annual }),
          makeVariant({ ...plusMonthly, essentialsAddOn: "essentials_12m" }),
          makeVariant({ ...plusAnnual, essentialsAddOn: "essential_12m" }),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[2].essentialsAddOn: essentials add-on essentials_12m is a 12-month add-on but this plan has a 1-month term: expected the add-on of the same term",
        "catalog/plans/power.yaml variants[3].essentialsAddOn: essentials add-on essential_12m is not defined in essentials.yaml: did you mean essentials_12m?",
        "catalog/plans/power.yaml variants[2].price: price is 29.98 but wv_single_1m (9.99) plus add-on essentials_12m (119.88) is 129.87: expected 129.87",
      ]
    `);
  });

  it("reports links that do not point back, or point at the wrong kind of plan", async () => {
    expect(
      await issuesOf(
        withVariants(
          makeVariant({ ...monthly, essentialsUpgrade: "wv_single_plus_12m" }),
          makeVariant({ ...annual, essentialsUpgrade: "wv_single_1m" }),
          makeVariant({ ...plusMonthly }),
          makeVariant({ ...plusAnnual, essentialsDowngrade: "wv_single_plus_1m" }),
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[0].essentialsUpgrade: essentialsUpgrade is wv_single_plus_12m, whose essentialsDowngrade is wv_single_plus_1m: expected wv_single_1m",
        "catalog/plans/power.yaml variants[1].essentialsUpgrade: essentialsUpgrade wv_single_1m has essentials: false: expected a plan with essentials",
        "catalog/plans/power.yaml variants[2].essentialsDowngrade: essentialsDowngrade is wv_single_1m, whose essentialsUpgrade is wv_single_plus_12m: expected wv_single_plus_1m",
        "catalog/plans/power.yaml variants[3].essentialsDowngrade: essentialsDowngrade wv_single_plus_1m has essentials: true: expected a plan without essentials",
      ]
    `);
  });

  it("reports a link to a code that does not exist", async () => {
    expect(
      await issuesOf(
        withVariants(
          makeVariant({ ...monthly, essentialsUpgrade: "wv_single_pluss_1m" }),
          makeVariant({ ...annual }),
          plusAnnual,
        ),
      ),
    ).toMatchInlineSnapshot(`
      [
        "catalog/plans/power.yaml variants[0].essentialsUpgrade: essentialsUpgrade wv_single_pluss_1m is not defined in catalog/plans/: did you mean wv_single_plus_12m?",
      ]
    `);
  });

  it("warns about an add-on no plan includes", () => {
    const files = makeCatalogFiles({
      essentials: {
        name: "Essentials",
        subTitle: "Premium stock and music",
        addOns: [
          { code: "essentials_1m", term: 1, price: 19.99 },
          { code: "essentials_12m", term: 12, price: 119.88 },
          { code: "essentials_6m", term: 6, price: 69.99 },
        ],
      },
    });
    const result = validateCatalog(files);
    expect(result.ok).toBe(true);
    expect(lines(result.warnings)).toMatchInlineSnapshot(`
      [
        "catalog/essentials.yaml addOns[2].code: essentials add-on essentials_6m is not included in any plan",
      ]
    `);
  });
});
