// The static site as it is built at other times than now, for the browser tests that read a page
// "built before a campaign" or "built during it" (e2e/pages/campaigns.spec.ts, and the price
// cross-test e2e/pricing/price-cross.spec.ts, decision 0023). They used to run `astro build`
// inside a Playwright worker (three builds, each holding a worker for tens of seconds while the
// other had nothing to share); `npm test` now builds them once in its build stage, right after
// dist/, into dist-as-of/<name>/ (issue 17).
//
//   npx node scripts/pages-as-of.ts      builds every variant (after `npm run build`)
//
// The specs check each variant is there, was built as of the right time, and is not older than
// dist/ (a page changed and rebuilt since would otherwise be tested in its old form).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CampaignEntry as Campaign, Catalog } from "../src/domain/catalog/catalog-schema.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const DAY = 86_400_000;
export const AS_OF_ROOT = join(root, "dist-as-of");

function builtCatalog(): Catalog {
  return JSON.parse(readFileSync(join(root, "src/generated/catalog.json"), "utf8")) as Catalog;
}

/** The campaign whose window campaigns.spec.ts reads: public, with a plans banner. */
export function campaignUnderTest(catalog: Catalog = builtCatalog()): Campaign {
  const campaign = catalog.campaigns.find(
    (c) => !c.targeted && c.banners.some((b) => b.location === "plans"),
  );
  if (!campaign)
    throw new Error("The catalogue has no public campaign with a plans banner to test.");
  return campaign;
}

export type AsOf = { name: "early" | "during"; atMs: number; why: string };

/**
 * The variants: `early`, before every campaign edge of the catalogue, so it carries every
 * campaign and can be read at any time (the cross-test) and is "built before the window" of the
 * campaign under test; `during`, a day into that campaign's window.
 */
export function asOfBuilds(catalog: Catalog = builtCatalog()): AsOf[] {
  const campaign = campaignUnderTest(catalog);
  const firstEdge = Math.min(...catalog.campaigns.map((c) => c.validFrom));
  return [
    {
      name: "early",
      atMs: Math.min(firstEdge - DAY, campaign.validFrom - 7 * DAY),
      why: "before every campaign edge",
    },
    { name: "during", atMs: campaign.validFrom + DAY, why: `a day into ${campaign.id}` },
  ];
}

const builtAt = (dir: string) => {
  const html = readFileSync(join(dir, "plans/index.html"), "utf8");
  return Date.parse(/<meta name="catalog-built-at" content="([^"]+)"/.exec(html)?.[1] ?? "");
};

/**
 * The folder of a variant, after checking it is current: present, built as of its time, and
 * built after dist/ (so after any change to the pages that dist/ has).
 */
export function asOfDir(name: AsOf["name"]): { dir: string; atMs: number } {
  const variant = asOfBuilds().find((v) => v.name === name);
  if (!variant) throw new Error(`No site variant ${name}`);
  const dir = join(AS_OF_ROOT, name);
  const page = join(dir, "plans/index.html");
  const fix = "run `npx node scripts/pages-as-of.ts` (npm test does, after building dist/)";
  if (!existsSync(page)) throw new Error(`${dir} is missing: ${fix}`);
  if (builtAt(dir) !== variant.atMs)
    throw new Error(`${dir} was built as of another time than the catalogue's: ${fix}`);
  const dist = join(root, "dist/plans/index.html");
  if (existsSync(dist) && statSync(page).mtimeMs < statSync(dist).mtimeMs)
    throw new Error(`${dir} is older than dist/: ${fix}`);
  return { dir, atMs: variant.atMs };
}

function build(variant: AsOf): void {
  const dir = join(AS_OF_ROOT, variant.name);
  rmSync(dir, { recursive: true, force: true });
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    ["node_modules/astro/bin/astro.mjs", "build", "--outDir", dir],
    {
      cwd: root,
      env: { ...process.env, PAGES_NOW: String(variant.atMs), ASTRO_TELEMETRY_DISABLED: "1" },
      encoding: "utf8",
    },
  );
  if (run.status !== 0) {
    throw new Error(`astro build as of ${new Date(variant.atMs).toISOString()} failed:
${run.stdout}${run.stderr}`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `pages as of ${new Date(variant.atMs).toISOString()} (${variant.name}: ${variant.why}) in ${dir}, ${seconds} s`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const variant of asOfBuilds()) build(variant);
}
