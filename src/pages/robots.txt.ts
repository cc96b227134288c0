// /robots.txt, prerendered, pointing at the sitemap of the configured site URL.
import type { APIRoute } from "astro";
import { robotsTxt, siteUrl } from "../view-models/seo.ts";

export const GET: APIRoute = ({ site }) =>
  new Response(robotsTxt(siteUrl(site)), {
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });
