// The router: the current location as a store, the screen it shows (domain/checkout/screens.ts)
// and the query of spec 2.4 parsed once. Path pages (/cart/plans) and hash routes (/cart#plans)
// are the same app, so moving between them is a history entry, not a page load; back and forward
// come back through popstate. Nothing here ever navigates off the site.
import { atom, computed } from "nanostores";
import {
  isExtensionFlow,
  parseCheckoutQuery,
  withExtensionParams,
} from "../domain/checkout/query.ts";
import { BASE_PATH, parseRoute, toSearch } from "../domain/checkout/screens.ts";

export type AppLocation = { pathname: string; search: string; hash: string };

export const $location = atom<AppLocation>({ pathname: BASE_PATH, search: "", hash: "" });
export const $route = computed($location, (l) => parseRoute(l.pathname, l.hash));
export const $query = computed($location, (l) => parseCheckoutQuery(l.search));

type RouterWindow = Pick<
  Window,
  "location" | "history" | "addEventListener" | "removeEventListener"
>;

let current: RouterWindow | null = null;

/**
 * The location with the query in one place: a hash router's link carries its query inside the
 * hash ("/cart#checkout?p=buy&product=…"); it is read as "/cart?p=buy&product=…#checkout". Both
 * places count, the search first: a key of the hash's query that the search already has is
 * dropped. Every screen reads the query of this form ($query), never the window's.
 */
export function normalizeLocation(l: AppLocation): AppLocation {
  const at = l.hash.indexOf("?");
  if (at < 0) return l;
  const params = new URLSearchParams(l.search);
  for (const [key, value] of new URLSearchParams(l.hash.slice(at + 1))) {
    if (!params.has(key)) params.append(key, value);
  }
  const name = l.hash.slice(0, at);
  return { pathname: l.pathname, search: toSearch(params), hash: name === "#" ? "" : name };
}

function sync(): void {
  if (!current) return;
  const { pathname, search, hash } = current.location;
  const location = normalizeLocation({ pathname, search, hash });
  // The address bar shows the one form too, so a reload, a bookmark or the hub see it.
  if (location.hash !== hash) {
    current.history.replaceState(
      null,
      "",
      `${location.pathname}${location.search}${location.hash}`,
    );
  }
  $location.set(location);
}

function isAppPath(pathname: string): boolean {
  return pathname === BASE_PATH || pathname.startsWith(`${BASE_PATH}/`);
}

/**
 * Goes to a page of this site: inside the app by history, elsewhere by loading the page. A target
 * on another origin is ignored (callers pass checked paths; this is the last line).
 */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const win = current;
  if (!win) return;
  const url = new URL(to, win.location.href);
  if (url.origin !== win.location.origin) return;
  let target = `${url.pathname}${url.search}${url.hash}`;
  // In the extension flow every navigation keeps origin=rce, flow=extension and
  // avoidRedirecting (spec 2.4).
  if (isExtensionFlow($query.get())) target = withExtensionParams(target);
  if (!isAppPath(url.pathname)) {
    win.location.assign(target);
    return;
  }
  if (target === `${win.location.pathname}${win.location.search}${win.location.hash}`) return;
  if (options.replace) win.history.replaceState(null, "", target);
  else win.history.pushState(null, "", target);
  sync();
}

/** A click on a link to another screen of the app stays in the app (no reload). */
function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.("a");
  if (!anchor || anchor.target || anchor.hasAttribute("download") || !current) return;
  const url = new URL(anchor.href, current.location.href);
  if (url.origin !== current.location.origin || !isAppPath(url.pathname)) return;
  event.preventDefault();
  navigate(`${url.pathname}${url.search}${url.hash}`);
}

/** Starts following the window's location; returns the function that stops it. */
export function startRouter(win: RouterWindow & Pick<Window, "document">): () => void {
  current = win;
  sync();
  win.addEventListener("popstate", sync);
  win.addEventListener("hashchange", sync);
  win.document.addEventListener("click", onClick);
  return () => {
    win.removeEventListener("popstate", sync);
    win.removeEventListener("hashchange", sync);
    win.document.removeEventListener("click", onClick);
    if (current === win) current = null;
  };
}
