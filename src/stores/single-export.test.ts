// The single exports the URL's resolution allows (issue 22, item 10).
import { describe, expect, it } from "vitest";
import { singleExportChoice } from "./single-export.ts";

const codes = (c: ReturnType<typeof singleExportChoice>) => c.offered.map((e) => e.code);

describe("singleExportChoice", () => {
  it("selects the 4K export for 2160=true, and offers only it", () => {
    const choice = singleExportChoice(null, "2160");
    expect(choice.chosen).toBe("single_export_4k");
    expect(codes(choice)).toEqual(["single_export_4k"]);
    expect(singleExportChoice("single_export_hd", "2160").chosen).toBe("single_export_4k");
  });

  it("offers both for 720 and 1080, HD first, and keeps the product asked for", () => {
    for (const resolution of ["720", "1080", null] as const) {
      expect(codes(singleExportChoice(null, resolution))).toEqual([
        "single_export_hd",
        "single_export_4k",
      ]);
      expect(singleExportChoice(null, resolution).chosen).toBe("single_export_hd");
      expect(singleExportChoice("single_export_4k", resolution).chosen).toBe("single_export_4k");
    }
  });
});
