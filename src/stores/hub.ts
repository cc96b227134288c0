// The checkout inside the hub's frame (spec 4): every route change is posted to the hub as
// cart_navigation, flows post their events through postToHub, and the hub may ask the checkout to
// show a screen. Only the hub origins of session status are spoken to or listened to
// (src/browser/hub.ts checks origins and the protocol).
import type { HubChannel, HubDetail, HubEvent } from "../browser/hub.ts";
import { parseRoute } from "../domain/checkout/screens.ts";
import { $location, navigate } from "./router.ts";

let channel: HubChannel | null = null;

type Held = { event: Exclude<HubEvent, "cart_navigation">; detail: HubDetail | undefined };
/**
 * Events posted in the hub's frame before its channel connected (the channel's code loads after
 * the start-up calls): a quick press of Close or a fast purchase still reaches the hub, in order.
 * Null outside the hub's frame, where nothing is posted.
 */
let held: Held[] | null = null;
/** A page can post only so many events before the channel connects; the rest would be noise. */
const MAX_HELD = 20;

/** The checkout runs in the hub's frame: hold its events until connectHub (start.ts). */
export function holdHubEvents(): void {
  held ??= [];
}

/** Posts an event to the hub when the checkout runs in its frame; does nothing otherwise. */
export function postToHub(event: Exclude<HubEvent, "cart_navigation">, detail?: HubDetail): void {
  if (channel) channel.post(event, detail);
  else if (held && held.length < MAX_HELD) held.push({ event, detail });
}

/** The checkout runs inside the hub's frame (a PayPal approval must then open outside it). */
export function inHubFrame(): boolean {
  return channel !== null;
}

/** A message from the hub: "navigate" to a screen of the app, by its hash route. */
function onHubMessage(message: { event: string; payload: unknown }): void {
  if (message.event !== "navigate") return;
  const hash = (message.payload as { hash?: unknown } | null)?.hash;
  if (typeof hash !== "string") return;
  // Only a screen of the app: anything else (a path, another site) is ignored.
  if (parseRoute("/cart", hash).kind !== "screen") return;
  navigate(`/cart${$location.get().search}${hash}`);
}

/** Only a checkout inside the hub's frame loads the channel's code. */
export async function connectHub(win: Window, hubOrigins: readonly string[]): Promise<() => void> {
  const { createHubChannel } = await import("../browser/hub.ts");
  let storage: Storage | null = null;
  try {
    storage = win.sessionStorage;
  } catch {
    // A sandboxed frame may refuse storage; the channel then asks the referrer each time.
  }
  const hub = createHubChannel({ window: win, hubOrigins, storage });
  channel = hub;
  const unlisten = hub.listen(onHubMessage);
  const unsubscribe = $location.subscribe((location) => {
    hub.post("cart_navigation", { ...location });
  });
  for (const { event, detail } of held ?? []) hub.post(event, detail);
  held = null;
  return () => {
    unsubscribe();
    unlisten();
    if (channel === hub) channel = null;
    held = null;
  };
}
