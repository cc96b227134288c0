// The /faq page: the general, education and learning-video lists of the catalogue (spec 1), each
// answer in a disclosure widget.
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import type { PageMeta } from "./seo.ts";
import { SITE_NAME } from "./site.ts";

export type FaqList = {
  id: string;
  heading: string;
  items: { id: string; question: string; answer: string }[];
};

export type FaqPageModel = { heading: string; intro: string; lists: FaqList[]; meta: PageMeta };

const LISTS: { key: string; heading: string }[] = [
  { key: "general", heading: "Plans and billing" },
  { key: "education", heading: "Education" },
  { key: "learningVideo", heading: "Interactive learning video" },
];

export function faqPageModel(catalog: Pick<Catalog, "faqs">): FaqPageModel {
  const lists = LISTS.filter(({ key }) => (catalog.faqs[key]?.length ?? 0) > 0).map(
    ({ key, heading }) => ({
      id: `faq-${key}`,
      heading,
      items: (catalog.faqs[key] ?? []).map((faq, i) => ({ id: `faq-${key}-${i + 1}`, ...faq })),
    }),
  );
  return {
    heading: "Frequently asked questions",
    intro:
      "Answers about plans, billing, trials, education licences and interactive learning video.",
    lists,
    meta: {
      title: `Frequently asked questions: plans, billing and education | ${SITE_NAME}`,
      description:
        "How trials, monthly and yearly billing, Essentials, single exports, school licences and interactive learning video work.",
      path: "/faq",
    },
  };
}
