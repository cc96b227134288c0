// Bundles the static pages' head script (src/browser/experiment-head-inline.ts) with esbuild,
// minified, at build time: the Astro build reads it as the module "virtual:experiment-head"
// (astro.config.mjs), the unit tests from here. One implementation of the group assignment
// (src/domain/experiments/assignment.ts) runs on the page, in the checkout and on the server.
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const HEAD_ENTRY = fileURLToPath(
  new URL("../src/browser/experiment-head-inline.ts", import.meta.url),
);

/**
 * Bytes of the script's own code (about 1.5 KB: the assignment, the cookies, the beacon). The
 * page adds its experiments, about 140 bytes each; the seo-budgets browser test checks the
 * whole script against this plus those.
 */
export const HEAD_SCRIPT_BUDGET = 1_600;

/**
 * The script's code, with the page's experiments as the free identifier `XP` (the page wraps it:
 * src/view-models/experiments-on-page.ts), and the source files it came from.
 */
export async function bundleExperimentHead(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [HEAD_ENTRY],
    bundle: true,
    minify: true,
    // Statements at the top level: the page's wrapper function is their scope.
    format: "esm",
    target: "es2020",
    legalComments: "none",
    metafile: true,
    write: false,
  });
  const code = result.outputFiles[0]?.text.trim() ?? "";
  if (code === "") throw new Error(`esbuild made nothing of ${HEAD_ENTRY}`);
  return { code, inputs: Object.keys(result.metafile.inputs) };
}
