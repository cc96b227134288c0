import { describe, expect, it, vi } from "vitest";
import { catalogTexts } from "../testing/catalog-fixture.ts";
import { memoryFs } from "./catalog-fs.ts";
import { loadCatalog } from "./load-catalog.ts";

// A fast reader that misreads exports.yaml, standing in for any way js-yaml and `yaml` could
// come to disagree: the first line asked for must notice, and the catalogue is read again.
vi.mock("./fast-yaml.ts", async (original) => {
  const actual = await original<typeof import("./fast-yaml.ts")>();
  return {
    ...actual,
    parseFast: (text: string) => {
      const fast = actual.parseFast(text);
      if (!fast || !text.includes("maxExportMs")) return fast;
      return { data: { ...(fast.data as object), maxExportMs: -1 } };
    },
  };
});

describe("loadCatalog", () => {
  it("reads the catalogue again with `yaml` alone when js-yaml read a file differently", () => {
    const loaded = loadCatalog(memoryFs(catalogTexts()), "catalog");
    expect(loaded.ok ? [] : loaded.issues).toEqual([]);
  });
});
