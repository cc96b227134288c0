// After the build: the static pages and the server that serves them price from the same catalogue
// version (decision 0018), the one `catalog build` wrote beside the catalogue.
import { readFileSync } from "node:fs";
import { api as contract } from "../../src/contract/index.ts";
import { expect, test } from "../cart/api-helpers.ts";

const built = JSON.parse(
  readFileSync(new URL("../../src/generated/catalog-version.json", import.meta.url), "utf8"),
) as { version: string };

test("the pages and the server are on the same catalogue version", async ({ page, api }) => {
  const server = await api.call(contract.catalogVersion);
  expect(server.version).toBe(built.version);
  for (const path of ["/", "/plans", "/pricing", "/faq"]) {
    await page.goto(path);
    const meta = page.locator('meta[name="catalog-version"]');
    await expect(meta, path).toHaveAttribute("content", server.version);
    const builtAt = await page.locator('meta[name="catalog-built-at"]').getAttribute("content");
    expect(Number.isFinite(Date.parse(builtAt ?? "")), `${path} built at ${builtAt}`).toBe(true);
    // The last release (catalog/releases.json): the same one, or none, on both sides.
    const release = page.locator('meta[name="catalog-release"]');
    if (server.release) await expect(release).toHaveAttribute("content", server.release.version);
    else await expect(release).toHaveCount(0);
  }
});
