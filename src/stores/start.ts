// Start-up of the island: the router, the host (standalone, the hub's frame, the extension), the
// viewport flags, browser support, error reporting, then the start-up calls of spec section 4;
// once they are done, the hub channel and the redirect rules. Returns what stops it all.
import { atom } from "nanostores";
import { type AppHost, detectHost, summaryReplacement } from "../domain/checkout/screens.ts";
import { type ViewportFlags, viewportFlags } from "../domain/checkout/viewport.ts";
import { $app, initApp } from "./app.ts";
import { startGuard } from "./guard.ts";
import { connectHub, holdHubEvents, postToHub } from "./hub.ts";
import { $location, $query, $route, navigate, startRouter } from "./router.ts";
import { installTelemetry, loadAnalytics } from "./telemetry.ts";

export const $host = atom<AppHost>("standalone");
export const $viewport = atom<ViewportFlags>({ isMobile: false, isTablet: false });
/** The extension and browser flow need a supported browser (spec 5). */
export const $browserSupported = atom(true);

/**
 * The close control of the hub's frame (spec 4): close_iframe, or close_checkout_modal when the
 * hub opened the checkout as its modal (modal=true, spec 2.4).
 */
export function closeFrame(): void {
  postToHub($query.get().modal ? "close_checkout_modal" : "close_iframe");
}

export function startCheckout(win: Window): () => void {
  const stops: (() => void)[] = [startRouter(win)];
  const query = $query.get();
  const host = detectHost({ inFrame: win.parent !== win, query });
  $host.set(host);
  // Its events wait for the channel, which connects once the start-up calls are done.
  if (host === "hub") holdHubEvents();
  // Only the extension flow checks the browser (spec 5), so only it loads the rule.
  if (host === "extension") {
    void import("../domain/checkout/browser-support.ts").then(({ isSupportedBrowser }) => {
      $browserSupported.set(isSupportedBrowser(win.navigator.userAgent));
    });
  }

  const resize = () => $viewport.set(viewportFlags(win.innerWidth));
  resize();
  win.addEventListener("resize", resize);
  stops.push(() => win.removeEventListener("resize", resize));
  stops.push(installTelemetry(win));

  // The order summary's URL form follows the host (spec 2.2).
  stops.push(
    $route.subscribe((route) => {
      const replacement = summaryReplacement(route, $host.get(), $location.get());
      if (replacement) navigate(replacement, { replace: true });
    }),
  );

  let stopped = false;
  void initApp
    .run({
      search: $location.get().search,
      referrer: win.document.referrer,
    })
    .then(() => {
      if (stopped) return;
      if (host === "hub") {
        void connectHub(win, $app.get().hubOrigins).then((stop) => {
          if (stopped) stop();
          else stops.push(stop);
        });
      }
      stops.push(startGuard((url) => win.location.assign(url)));
      void loadAnalytics().then((m) => m.startExperiments(win));
    });
  return () => {
    stopped = true;
    for (const stop of stops.splice(0)) stop();
  };
}
