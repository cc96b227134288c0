// The generated files are regenerated here and compared with the committed ones (STYLE.md point
// 5): editing catalog/*.yaml without running `npm run catalog:build` fails CI.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { catalog } from "../../src/generated/catalog.ts";
import { buildOutputs } from "./build-outputs.ts";
import { diskFs } from "./catalog-fs.ts";
import { loadCatalog } from "./load-catalog.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));

describe("generated files", () => {
  const loaded = loadCatalog(diskFs, `${root}catalog`);

  it("the shipped catalogue is valid", () => {
    expect(
      loaded.ok ? [] : loaded.issues.map((i) => `${i.file}:${i.line} ${i.path}: ${i.message}`),
    ).toEqual([]);
  });

  it.each(
    loaded.ok
      ? buildOutputs(loaded.catalog, {
          generatedDir: "src/generated",
          schemaDir: "catalog/schema",
          catalogSchemaModule: "../domain/catalog/catalog-schema.ts",
        }).map((file) => [file.path, file.content] as const)
      : [],
  )("%s is up to date (run npm run catalog:build)", (path, content) => {
    let committed: string | undefined;
    try {
      committed = readFileSync(`${root}${path}`, "utf8");
    } catch {
      committed = undefined;
    }
    expect(committed, `${path} is missing: run npm run catalog:build`).toBeDefined();
    expect(committed === content, `${path} is out of date: run npm run catalog:build`).toBe(true);
  });

  it("catalog.ts exposes the JSON through the bundler's JSON import", () => {
    expect(loaded.ok && catalog).toEqual(loaded.ok && JSON.parse(JSON.stringify(loaded.catalog)));
  });
});
