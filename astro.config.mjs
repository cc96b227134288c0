// @ts-check
import react from "@astrojs/react";
import { defineConfig } from "astro/config";

// Static output: every page is prerendered, the checkout under /cart hydrates React islands, and
// the API lives in its own server (src/server/). Pages must stay tiny, so stylesheets are inlined
// rather than fetched as render-blocking files.
export default defineConfig({
  output: "static",
  site: process.env.PUBLIC_BASE_URL ?? "http://localhost:4321",
  integrations: [react()],
  trailingSlash: "ignore",
  compressHTML: true,
  build: {
    inlineStylesheets: "always",
  },
  vite: {
    build: {
      rollupOptions: {
        output: {
          // The checkout island's first load is one chunk (gzip compresses one file better than
          // several); the screens it loads on demand (src/islands/screens/lazy-screens.ts) keep
          // their own chunks. Budget: e2e/cart/budgets.spec.ts.
          manualChunks(id) {
            if (id.includes("/node_modules/react") || id.includes("/node_modules/scheduler"))
              return;
            if (
              /\/src\/islands\/(checkout\/|screens\/(Plans|Checkout|Completed|Session)Screens?\.tsx)/.test(
                id,
              )
            )
              return;
            if (
              /\/src\/(stores\/(checkout|invoice|paypal-return|plans)|domain\/checkout\/purchase|domain\/pricing\/(plan-filters|premium-templates))\.ts/.test(
                id,
              )
            )
              return;
            if (
              id.includes("/src/") ||
              id.includes("/node_modules/nanostores") ||
              id.includes("/node_modules/@nanostores")
            ) {
              return "checkout-app";
            }
          },
        },
      },
    },
  },
});
