// What the built /cart sends a browser: under the JavaScript budget before the payment step, and
// none of the catalogue's secrets (targeted coupon codes only reach the people they target).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { CART_JS_BUDGET_BYTES, cartPageScripts } from "../../scripts/cart-bundle.ts";
import { catalog } from "../pages/fixtures.ts";

const dist = fileURLToPath(new URL("../../dist/", import.meta.url));

test("every /cart page loads under 90 KB of compressed JavaScript before the payment step", () => {
  const pages = cartPageScripts(dist);
  expect(pages.length).toBeGreaterThanOrEqual(16);
  for (const page of pages) {
    expect(page.files.length, page.page).toBeGreaterThan(0);
    expect(page.gzipBytes, `${page.page}: ${page.files.join(", ")}`).toBeLessThan(
      CART_JS_BUDGET_BYTES,
    );
  }
});

test("no payment provider's code is in what a /cart page loads before the payment step", () => {
  // Stripe.js's loader and the providers' React bindings load only on the payment step, and only
  // for the provider the server names (src/islands/checkout/provider-sdks.ts).
  const markers = ["js.stripe.com", "paypal.com/sdk/js", "react-stripe-js", "PayPalScriptProvider"];
  const stripeLoader = allFiles(join(dist, "_astro")).filter((file) =>
    readFileSync(file, "utf8").includes("js.stripe.com"),
  );
  // The markers are real: the build has the providers' chunks, outside the first load.
  expect(stripeLoader.length).toBeGreaterThan(0);
  for (const page of cartPageScripts(dist)) {
    for (const url of page.files) {
      const text = readFileSync(join(dist, url), "utf8");
      for (const marker of markers) {
        expect(text.includes(marker), `${marker} in ${url} (${page.page})`).toBe(false);
      }
    }
  }
});

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

test("no targeted coupon code of the catalogue is in anything /cart sends", () => {
  const targeted = catalog.campaigns.filter((c) => c.targeted).map((c) => c.coupon);
  expect(targeted.length).toBeGreaterThan(0);
  const shipped = [
    ...allFiles(join(dist, "cart")),
    ...cartPageScripts(dist).flatMap((p) => p.files.map((url) => join(dist, url))),
  ];
  for (const file of new Set(shipped)) {
    const text = readFileSync(file, "utf8").toLowerCase();
    for (const coupon of targeted) {
      expect(text.includes(coupon.toLowerCase()), `${coupon} in ${file}`).toBe(false);
    }
  }
});
