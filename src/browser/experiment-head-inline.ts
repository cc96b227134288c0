// The entry esbuild bundles into the static pages' head script (astro.config.mjs, plugin
// "experiment-head"). The page wraps the bundle in a function whose parameter XP is the page's
// experiments, embedded at build time (src/view-models/experiments-on-page.ts), so nothing of it
// leaks into the page's globals. Same-origin, so the beacon's JSON body needs no preflight.
import { type PageExperiment, runExperimentHead } from "./experiment-head.ts";

declare const XP: PageExperiment[];

runExperimentHead(XP, {
  document,
  secure: location.protocol === "https:",
  nowMs: Date.now(),
  newId: () => crypto.randomUUID(),
  sendBeacon: (url, body) =>
    navigator.sendBeacon(url, new Blob([body], { type: "application/json" })),
});
