// template-redirect (spec 2.2, 2.4): /cart/template-redirect?templateId=… opens that template in
// the editor. The id comes from a URL anyone can craft, so only an opaque id of a safe alphabet
// becomes a target, and the target is the product's own template path, checked once more by
// the site's one redirect allow-list (safeRedirectPath): nothing leaves the site.
import { safeRedirectPath } from "./redirects.ts";

/** Where the editor opens a template (a page of the product, REDIRECT_PATHS). */
const TEMPLATE_PATH = "/app";
const TEMPLATE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The editor's address for a template, or null when the id is not a template id. */
export function templateTarget(templateId: string | null | undefined): string | null {
  if (typeof templateId !== "string" || !TEMPLATE_ID.test(templateId)) return null;
  return safeRedirectPath(`${TEMPLATE_PATH}?templateId=${templateId}`);
}
