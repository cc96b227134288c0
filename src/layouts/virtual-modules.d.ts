// Modules the build makes (astro.config.mjs's plugins).

/** The static pages' experiment head script, minified (scripts/experiment-head.ts). */
declare module "virtual:experiment-head" {
  const code: string;
  export default code;
}
