import { describe, expect, it } from "vitest";
import { premiumTemplatesLine } from "./premium-templates.ts";

describe("premiumTemplatesLine", () => {
  it("says 'All premium templates' by default", () => {
    expect(premiumTemplatesLine({ premiumTemplates: "all" })).toEqual({
      text: "All premium templates",
    });
  });

  it("lists every template family for business and education plans", () => {
    expect(premiumTemplatesLine({ premiumTemplates: "business-education" })).toEqual({
      text: "Includes Personal, Business and Education templates",
    });
  });

  it("notes what personal plans exclude", () => {
    expect(premiumTemplatesLine({ premiumTemplates: "personal" })).toEqual({
      text: "All personal templates",
      note: "Excludes Business & Education templates",
    });
  });
});
