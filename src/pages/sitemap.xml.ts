// /sitemap.xml, prerendered from the configured site URL.
import type { APIRoute } from "astro";
import { sitemapXml, siteUrl } from "../view-models/seo.ts";

export const GET: APIRoute = ({ site }) =>
  new Response(sitemapXml(siteUrl(site)), {
    headers: { "Content-Type": "application/xml; charset=utf-8" },
  });
