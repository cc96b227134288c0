// What each static page renders: its view model, its metadata and its JSON-LD, from the catalogue,
// the build time and the site URL. The .astro pages only call these and render.
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import { type FaqPageModel, faqPageModel } from "./faq-page.ts";
import { type PlansPageModel, type PlansPageOptions, plansPageModel } from "./plans-page.ts";
import { faqJsonLd, jsonLdText, type PageMeta, plansJsonLd, plansPageMeta } from "./seo.ts";

export type PageData<M> = { model: M; meta: PageMeta; jsonLd: string };

export function plansPage(
  catalog: Catalog,
  nowMs: number,
  options: PlansPageOptions,
  siteUrl: URL,
): PageData<PlansPageModel> {
  const model = plansPageModel(catalog, nowMs, options);
  return { model, meta: plansPageMeta(model), jsonLd: jsonLdText(plansJsonLd(model, siteUrl)) };
}

export function faqPage(catalog: Catalog): PageData<FaqPageModel> {
  const model = faqPageModel(catalog);
  return { model, meta: model.meta, jsonLd: jsonLdText(faqJsonLd(catalog.faqs)) };
}
