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
});
