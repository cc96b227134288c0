// @ts-check

import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import react from "@astrojs/react";
import { defineConfig } from "astro/config";
import { bundleExperimentHead } from "./scripts/experiment-head.ts";

// Static output: every page is prerendered, the checkout under /cart hydrates React islands, and
// the API lives in its own server (src/server/). Pages must stay tiny, so stylesheets are inlined
// rather than fetched as render-blocking files.

const ISLAND_ENTRY = "/src/islands/CheckoutApp.tsx";

/**
 * Whether a module is part of the checkout's first load: the island's entry, or imported
 * statically by a module that is. Screens and steps imported with import() are not.
 * @param {string} id
 * @param {(id: string) => { importers: readonly string[] } | null} info
 * @param {Map<string, boolean>} memo
 */
function inFirstLoad(id, info, memo, seen = new Set()) {
  if (id.endsWith(ISLAND_ENTRY)) return true;
  const known = memo.get(id);
  if (known !== undefined) return known;
  if (seen.has(id)) return false;
  seen.add(id);
  const result = (info(id)?.importers ?? []).some((parent) =>
    inFirstLoad(parent, info, memo, seen),
  );
  memo.set(id, result);
  return result;
}

const firstLoad = new Map();

/**
 * The payment providers' React bindings import React and prop-types as default exports of
 * CommonJS modules; that alone adds the bundler's interop helper to the runtime every /cart page
 * loads. They get ES-module facades instead (src/islands/checkout/sdk-facades/, decision 0019).
 * @type {import("vite").Plugin}
 */
const sdkFacades = {
  name: "payment-sdk-facades",
  enforce: "pre",
  resolveId(source, importer) {
    if (
      !importer ||
      !/node_modules\/(@stripe\/react-stripe-js|@paypal\/react-paypal-js)\//.test(importer)
    )
      return null;
    if (source !== "react" && source !== "prop-types") return null;
    return fileURLToPath(
      new URL(`./src/islands/checkout/sdk-facades/${source}.ts`, import.meta.url),
    );
  },
};

/**
 * The static pages' head script of price experiments, bundled with esbuild from
 * src/browser/experiment-head-inline.ts at build time (decision 0090): `virtual:experiment-head`
 * is its minified code, which BaseLayout.astro inlines in the head of a page showing a plan
 * under an experiment. It imports the one group assignment (src/domain/experiments).
 * @type {import("vite").Plugin}
 */
const experimentHead = {
  name: "experiment-head",
  resolveId(source) {
    return source === "virtual:experiment-head" ? "\0virtual:experiment-head" : null;
  },
  async load(id) {
    if (id !== "\0virtual:experiment-head") return null;
    const { code, inputs } = await bundleExperimentHead();
    for (const input of inputs) this.addWatchFile(resolve(input));
    return `export default ${JSON.stringify(code)};`;
  },
};

/**
 * The bench's floor page (an empty React island, scripts/bench-floor/), in the bench's own build
 * only (`BENCH_FLOOR=1`, scripts/bench-cart.ts): measured in the same build as /cart, never
 * shipped in the production site.
 * @type {import("astro").AstroIntegration}
 */
const benchFloor = {
  name: "bench-floor",
  hooks: {
    "astro:config:setup": ({ injectRoute }) => {
      if (process.env.BENCH_FLOOR !== "1") return;
      injectRoute({ pattern: "/bench/floor", entrypoint: "./scripts/bench-floor/floor.astro" });
    },
  },
};

export default defineConfig({
  output: "static",
  site: process.env.PUBLIC_BASE_URL ?? "http://localhost:4321",
  integrations: [react(), benchFloor],
  trailingSlash: "ignore",
  compressHTML: true,
  build: {
    inlineStylesheets: "always",
  },
  vite: {
    plugins: [sdkFacades, experimentHead],
    build: {
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              // React itself (react, react/jsx-runtime) goes with no island: the floor page of
              // the bench (scripts/bench-floor/) then loads React and Astro's renderer only, not
              // the checkout's shell, and is a true floor (decision 0061).
              { name: "react-core", test: /\/node_modules\/react\//, priority: 2 },
              // The checkout's first load (the app's shell) is one chunk of our code: gzip packs
              // one file better than the several a default split makes. React DOM stays in
              // Astro's renderer chunk; screens and steps loaded with import() keep theirs.
              // Budget: scripts/cart-bundle.ts and e2e/cart/budgets.spec.ts.
              {
                name(id, context) {
                  if (/\/node_modules\/(react|react-dom|scheduler)\//.test(id)) return null;
                  if (!id.includes("/src/") && !id.includes("/node_modules/")) return null;
                  const info = (/** @type {string} */ module) => context.getModuleInfo(module);
                  return inFirstLoad(id, info, firstLoad) ? "checkout-app" : null;
                },
                priority: 1,
              },
            ],
          },
        },
      },
    },
  },
});
