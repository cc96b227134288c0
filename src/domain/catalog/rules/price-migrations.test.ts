import { describe, expect, it } from "vitest";
import {
  issuesOf,
  makeCatalogInput,
  makeFamily,
  makeStructure,
  makeVariant,
} from "../testing/builders.ts";

const migration = {
  id: "schools-pre-2024",
  description: "Schools on the older bands move to the current ones.",
  products: ["wv_k12_12m"],
  renewalsFrom: "2027-09-01T04:00:00Z",
};

describe("price migrations", () => {
  it("accepts a migration of renewing plans, narrowed to a structure that prices them", async () => {
    expect(
      await issuesOf({
        seatBands: {
          structures: [
            makeStructure(),
            makeStructure({ id: "k12-pre-2024", default: false, name: "Older bands" }),
          ],
        },
        priceMigrations: { migrations: [{ ...migration, seatStructure: "k12-pre-2024" }] },
      }),
    ).toEqual([]);
  });

  it("reports unknown and one-time plans, a structure that prices none of them, a move before the cohort", async () => {
    expect(
      await issuesOf({
        plans: [
          ...makeCatalogInput().plans,
          makeFamily({
            family: "flex",
            name: "Flex",
            variants: [makeVariant({ code: "wv_flex2", price: 29.99, recurring: false })],
          }),
        ],
        priceMigrations: {
          migrations: [
            {
              ...migration,
              products: ["wv_k12_12n", "wv_flex2"],
              seatStructure: "k12-2024-01",
              signedUpBefore: "2028-01-01T00:00:00Z",
            },
            { ...migration, id: "schools-2023", seatStructure: "k12-2023" },
          ],
        },
      }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/price-migrations.yaml migrations[0].products[0]: plan code wv_k12_12n is not defined in catalog/plans/: did you mean wv_k12_12m?",
        "catalog/price-migrations.yaml migrations[0].products[1]: plan wv_flex2 does not renew: expected a price migration to name plans that renew",
        "catalog/price-migrations.yaml migrations[0].seatStructure: seat structure k12-2024-01 prices none of wv_k12_12n, wv_flex2: expected a structure that applies to one of the migration's products",
        "catalog/price-migrations.yaml migrations[0].renewalsFrom: renewalsFrom 2027-09-01T04:00:00Z is before signedUpBefore 2028-01-01T00:00:00Z: expected the move to come after the cohort signed up",
        "catalog/price-migrations.yaml migrations[1].seatStructure: seat structure "k12-2023" is not defined in seat-bands.yaml",
      ]
    `);
  });

  it("reports a migration id used twice", async () => {
    expect(
      await issuesOf({ priceMigrations: { migrations: [migration, migration] } }),
    ).toMatchInlineSnapshot(`
      [
        "catalog/price-migrations.yaml migrations[1].id: price migration id schools-pre-2024 is already used: expected every price migration id to be unique",
      ]
    `);
  });

  it("is optional: a catalogue without the file has no migrations", async () => {
    expect(await issuesOf({})).toEqual([]);
  });
});
