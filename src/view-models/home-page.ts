// The home page: what the product is, and a way into the plans of each audience.
import type { Catalog } from "../domain/catalog/catalog-schema.ts";
import type { Link } from "./checkout-links.ts";
import { TAB_IDS, type TabId, tabPlans } from "./plans-page.ts";
import { listLabel, type PageMeta, tabPath } from "./seo.ts";
import { SITE_NAME } from "./site.ts";

export type HomePageModel = {
  heading: string;
  intro: string;
  audiences: { id: TabId; heading: string; text: string; link: Link }[];
  more: Link[];
  meta: PageMeta;
};

const AUDIENCES: Record<TabId, { heading: string; text: string }> = {
  personal: { heading: "For you", text: "Personal plans" },
  business: { heading: "For teams", text: "Team licences with shared brand kits and admin tools" },
  education: { heading: "For schools", text: "Licences for teachers, schools and districts" },
};

export function homePageModel(catalog: Pick<Catalog, "plans">): HomePageModel {
  const namesOf = (tab: TabId) => [...new Set(tabPlans(catalog, tab, "plans").map((p) => p.name))];
  return {
    heading: "Make video together, right in your browser",
    intro: `${SITE_NAME} is an online video editor for people, teams and schools: record, edit and publish without installing anything.`,
    audiences: TAB_IDS.map((id) => ({
      id,
      heading: AUDIENCES[id].heading,
      text: `${AUDIENCES[id].text}: ${listLabel(namesOf(id))}.`,
      link: { href: tabPath(id), label: `See ${id} plans` },
    })),
    more: [
      { href: "/pricing", label: "Compare all prices" },
      { href: "/faq", label: "Read the FAQ" },
    ],
    meta: {
      title: `${SITE_NAME}: online video editor for people, teams and schools`,
      description:
        "Record, edit and publish video in your browser. Plans for individuals, teams, teachers and schools, billed monthly or yearly.",
      path: "/",
    },
  };
}
