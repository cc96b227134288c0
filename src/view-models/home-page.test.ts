import { describe, expect, it } from "vitest";
import { makeSpecCatalog } from "../domain/testing/builders.ts";
import { homePageModel } from "./home-page.ts";

describe("homePageModel", () => {
  it("leads each audience to its tab's own URL, naming the plans sold there", () => {
    const model = homePageModel(makeSpecCatalog());
    expect(model.audiences.map((a) => [a.link.href, a.text])).toEqual([
      ["/plans", "Personal plans: Power, Unlimited, Professional and Flex."],
      ["/plans/business", "Team licences with shared brand kits and admin tools: Business."],
      ["/plans/education", "Licences for teachers, schools and districts: Schools."],
    ]);
    expect(model.meta.path).toBe("/");
  });
});
