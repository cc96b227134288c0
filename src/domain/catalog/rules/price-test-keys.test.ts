import { describe, expect, it } from "vitest";
import {
  issuesOf,
  lines,
  makeCatalogFiles,
  makeSchoolsFamily,
  makeVariant,
  withFamily,
} from "../testing/builders.ts";
import { validateCatalog } from "../validate.ts";

describe("priceTests keys name a price set", () => {
  it("reports an unknown price set, suggesting the closest", async () => {
    const family = makeSchoolsFamily({
      variants: [
        makeVariant({
          code: "wv_k12_12m",
          price: 374,
          seatStructure: "k12-2024-01",
          priceTests: { "sample-catalog": { price: 299 } },
        }),
      ],
    });
    expect(await issuesOf({ plans: withFamily(family) })).toMatchInlineSnapshot(`
      [
        "catalog/plans/schools.yaml variants[0].priceTests.sample-catalog: price set "sample-catalog" is not defined in price-tests.yaml: did you mean "sample-catalogue"?",
      ]
    `);
  });

  it("warns about a price set that no plan uses", () => {
    const result = validateCatalog(
      makeCatalogFiles({
        priceTests: {
          priceSets: [
            { id: "sample-catalogue", description: "Sample", groupValues: ["b"] },
            { id: "spring-test", description: "Spring test", groupValues: ["c"] },
          ],
        },
      }),
    );
    expect(result.ok).toBe(true);
    expect(lines(result.warnings)).toMatchInlineSnapshot(`
      [
        "catalog/price-tests.yaml priceSets[1].id: price set "spring-test" is not used by any plan's priceTests",
      ]
    `);
  });
});
