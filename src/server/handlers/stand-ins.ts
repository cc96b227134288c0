// Local stand-ins for the pages of the wider product that this app links to (issue 34, item 5):
// the terms of use, privacy, support, the editor (/app) and the screen recorder extension's
// return. A deployment serves those from the main site beside this one; a local run has no main
// site, so instead of a 404 (or {"message":"NOT FOUND"}) each answers a page that says plainly
// that it stands in for the real one. Only for a local request (as everything under /dev/).
import { escapeHtml, fail, html, type Reply } from "../http/reply.ts";
import type { Routes } from "../routing.ts";

const STAND_IN_PATH = "/dev/stand-in";

/** The wider product's pages, by path, with what the real page is. */
const STAND_INS: Record<string, { name: string; what: string }> = {
  "/terms-of-use": { name: "Terms of use", what: "the product's terms of use" },
  "/privacy": { name: "Privacy", what: "the privacy policy" },
  "/support": { name: "Support", what: "the support centre, where people ask for help" },
  "/app": { name: "The editor", what: "the video editor itself" },
  "/api/4/rce/tokens": {
    name: "Screen recorder",
    what: "the return to the screen recorder extension, which hands it the signed-in session",
  },
};

/**
 * The stand-in page for a local request of `path`, answered at that very address (a link with a
 * query, the editor's /app?templateId=, keeps it), or null: not one of those pages.
 */
export function standInFor(path: string): Reply | null {
  const key = path.startsWith("/app/") ? "/app" : path.replace(/(.)\/$/, "$1");
  const page = STAND_INS[key];
  return page ? html(standInPage(page.name, page.what, path)) : null;
}

function standInPage(name: string, what: string, path: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(name)} (local stand-in)</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1d2939}
.mark{display:inline-block;padding:.1rem .6rem;border:1px solid #93370d;border-radius:999px;color:#93370d;background:#fffaeb;font-weight:600}
a{color:#3b28cc}</style></head>
<body><main><p class="mark">Local stand-in</p><h1>${escapeHtml(name)}</h1>
<p>This page stands in for ${escapeHtml(what)} (<code>${escapeHtml(path)}</code>). A deployment serves the real page there; a local run has none, so you see this instead.</p>
<p><a href="/cart/home">Back to your account</a> · <a href="/cart/plans">See the plans</a></p></main></body></html>`;
}

export function standInRoutes(routes: Routes): void {
  routes.raw({ method: "GET", path: STAND_IN_PATH }, async (ctx) => {
    const path = ctx.url.searchParams.get("page") ?? "";
    const page = STAND_INS[path];
    if (!page) return fail("not_found");
    return html(standInPage(page.name, page.what, path));
  });
  // The extension's return is an API path of the main product: in a local run it is this page.
  routes.raw({ method: "GET", path: "/api/4/rce/tokens" }, async (ctx) => {
    if (!ctx.isLocalRequest) return fail("not_found");
    const page = STAND_INS["/api/4/rce/tokens"];
    return page ? html(standInPage(page.name, page.what, ctx.path)) : fail("not_found");
  });
}
