// `npm run bench`: every speed and size budget of the project, printed as figures beside their
// goals. Each part is its own module so it can also run alone. Figures are also written to
// bench-results/latest.json for comparison between runs.
import { mkdirSync, writeFileSync } from "node:fs";
import { benchCatalog } from "./bench-catalog.ts";

type Figures = Record<string, number | string>;

// The browser parts come before the API server's: Lighthouse counts wall time, and the server's
// bench leaves PostgreSQL and the disk busy for a while after its last figure (autovacuum, the
// checkpoint of its inserts). Measured after it, the empty floor page alone showed 77 ms of
// blocking time and /cart's screens missed their goal; before it, 0 ms and met.
const parts: { name: string; run: () => Promise<Figures> }[] = [
  { name: "catalogue CLI", run: benchCatalog },
  {
    name: "checkout app (/cart JavaScript before the payment step, gzip -9)",
    run: async () => {
      const { CART_JS_BUDGET_BYTES, cartPageScripts } = await import("./cart-bundle.ts");
      const pages = cartPageScripts("dist");
      const figures: Figures = { "budget (bytes)": CART_JS_BUDGET_BYTES };
      for (const page of pages) figures[`${page.page} (bytes)`] = page.gzipBytes;
      const worst = Math.max(...pages.map((p) => p.gzipBytes));
      figures["largest page (bytes)"] = worst;
      if (worst >= CART_JS_BUDGET_BYTES) throw new Error(`over budget: ${worst} bytes`);
      return figures;
    },
  },
  {
    name: "checkout screens (Lighthouse mobile, signed in; JavaScript per screen, gzip -9)",
    run: async () => (await import("./bench-cart.ts")).benchCart(),
  },
  {
    name: "static pages (Lighthouse, bytes)",
    run: async () => (await import("./bench-pages.ts")).benchPages(),
  },
  {
    name: "API server",
    run: async () => (await import("./bench-server.ts")).benchServer(),
  },
  {
    name: "sign-in flood",
    run: async () => (await import("./bench-signin-flood.ts")).benchSigninFlood(),
  },
];

const only = process.argv.slice(2);
const results: Record<string, Figures> = {};
let failed = false;
for (const part of parts) {
  if (only.length > 0 && !only.some((o) => part.name.includes(o))) continue;
  console.log(`\n## ${part.name}`);
  try {
    const figures = await part.run();
    results[part.name] = figures;
    for (const [name, value] of Object.entries(figures)) {
      const shown =
        typeof value === "number"
          ? Number.isInteger(value)
            ? String(value)
            : value.toFixed(2)
          : value;
      console.log(`${name.padEnd(46)} ${shown}`);
    }
  } catch (error) {
    failed = true;
    console.log(`could not measure: ${error instanceof Error ? error.message : String(error)}`);
  }
}
mkdirSync("bench-results", { recursive: true });
writeFileSync("bench-results/latest.json", `${JSON.stringify(results, null, 2)}\n`);
if (failed) process.exitCode = 1;
// Every part closes what it opened (servers, browsers, esbuild's service), so the process ends
// here. If something still holds it open, say what and end anyway, as a failure.
setTimeout(() => {
  console.error(
    `bench: still running 10 s after the last figure, held by: ${process.getActiveResourcesInfo().join(", ")}`,
  );
  process.exit(1);
}, 10_000).unref();
