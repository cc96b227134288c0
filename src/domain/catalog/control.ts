// The control group's name, in a module of its own with no schema library: the static pages'
// head script bundles the experiment assignment (src/browser/experiment-head.ts), and importing
// the constant from catalog-schema.ts would bundle zod with it (470 KB instead of a few hundred
// bytes).

/** The control group of every experiment: the default prices. */
export const CONTROL = "control";
