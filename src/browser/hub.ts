// Messages between the checkout and the hub that embeds it in an iframe (spec 4; protocol in
// README.md). The only module that calls postMessage or reads "message" events: it sends only the
// events of the spec, only inside a frame, only to the hub origin the parent has (never "*"), and
// hands on only messages from the parent window at an allowed origin.

/** The events the checkout may post to the hub (spec 4), and nothing else. */
export const HUB_EVENTS = [
  "close_iframe",
  "checkout_completed_success",
  "checkout_completed_failure",
  "payment_paypal",
  "payment_credit_card",
  "navigate_to_dashboard",
  "clicked_get_started",
  "clicked_privacy_link",
  "clicked_confirm_single_export",
  "cart_navigation",
  "clicked_back_to_free",
  "email_activation",
  "close_checkout_modal",
] as const;

export type HubEvent = (typeof HUB_EVENTS)[number];
const HUB_PROTOCOL_VERSION = 1;

export type CartNavigation = { pathname: string; search: string; hash: string };
/** Optional flat details of the other events (a product code, an error code). */
export type HubDetail = Readonly<Record<string, string | number | boolean | null>>;
export type HubPayload<E extends HubEvent> = E extends "cart_navigation"
  ? CartNavigation
  : HubDetail;

export type HubMessage<E extends HubEvent = HubEvent> = {
  source: "checkout";
  version: typeof HUB_PROTOCOL_VERSION;
  event: E;
  payload: HubPayload<E> | null;
};

/** What the hub sends to the checkout: { source: "hub", version: 1, event, payload }. */
export type HubIncoming = { event: string; payload: unknown; origin: string };

type Target = { postMessage(message: unknown, targetOrigin: string): void };
type MessageLike = { origin: string; source: unknown; data: unknown };

/** The parts of `window` the channel uses, so tests can pass a plain object. */
export type HubWindow = {
  parent: Target | null;
  document?: { referrer: string };
  location?: { ancestorOrigins?: { readonly length: number; readonly [index: number]: string } };
  addEventListener(type: "message", listener: (event: MessageEvent) => void): void;
  removeEventListener(type: "message", listener: (event: MessageEvent) => void): void;
};

export type HubChannelOptions = {
  window: HubWindow;
  /** The hub origins allowed to embed the checkout ("https://hub.example"). */
  hubOrigins: readonly string[];
  /** Remembers the parent's origin across page loads inside the frame (sessionStorage). */
  storage?: Pick<Storage, "getItem" | "setItem"> | null;
};

export type HubChannel = {
  /** Whether the checkout runs inside a frame at all. */
  readonly inFrame: boolean;
  /** The parent's origin if it is an allowed hub origin, else null (then nothing is sent). */
  hubOrigin(): string | null;
  /** Posts one event to the hub; false when it was not sent (not framed, unknown parent). */
  post<E extends HubEvent>(
    event: E,
    ...payload: E extends "cart_navigation" ? [CartNavigation] : [HubDetail?]
  ): boolean;
  /** Calls `handler` for each valid message from the hub; returns the unsubscribe function. */
  listen(handler: (message: HubIncoming) => void): () => void;
};

const STORAGE_KEY = "checkout.hubOrigin";
const EVENT_SET: ReadonlySet<string> = new Set(HUB_EVENTS);

function originOf(url: string | undefined | null): string | null {
  if (!url) return null;
  try {
    const origin = new URL(url).origin;
    // Opaque origins ("null": file:, data:, sandboxed frames) can never be an allowed hub.
    return /^https?:\/\//.test(origin) ? origin : null;
  } catch {
    return null;
  }
}

function detail(payload: HubDetail | undefined): HubDetail | null {
  if (!payload) return null;
  const copy: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) copy[key] = value;
  }
  return copy;
}

function payloadFor(event: HubEvent, payload: unknown): HubMessage["payload"] {
  if (event !== "cart_navigation") return detail(payload as HubDetail | undefined);
  // Only the three location parts travel, whatever object the caller passed.
  const { pathname, search, hash } = (payload ?? {}) as Partial<CartNavigation>;
  return {
    pathname: String(pathname ?? ""),
    search: String(search ?? ""),
    hash: String(hash ?? ""),
  };
}

export function createHubChannel(options: HubChannelOptions): HubChannel {
  const win = options.window;
  const allowed = new Set(
    options.hubOrigins.map(originOf).filter((origin): origin is string => origin !== null),
  );
  const parent = win.parent;
  const inFrame = parent !== null && parent !== (win as unknown);
  let learned: string | null = null;

  function remembered(): string | null {
    try {
      return options.storage?.getItem(STORAGE_KEY) ?? null;
    } catch {
      return null; // Storage may be blocked in a third-party frame.
    }
  }

  function remember(origin: string): void {
    learned = origin;
    try {
      options.storage?.setItem(STORAGE_KEY, origin);
    } catch {
      // Nothing to do: the origin is still known for this page.
    }
  }

  function hubOrigin(): string | null {
    if (!inFrame) return null;
    // The browser's own word for the parent's origin (Chromium, Safari) comes first; the
    // referrer is the parent only on the frame's first page; later pages of the frame rely on
    // what was learned or remembered. With one allowed origin, that one is the only candidate:
    // postMessage drops the message if the parent is anywhere else.
    const ancestors = win.location?.ancestorOrigins;
    const candidates = [
      ancestors && ancestors.length > 0 ? ancestors[0] : null,
      originOf(win.document?.referrer),
      learned,
      remembered(),
      allowed.size === 1 ? [...allowed][0] : null,
    ];
    const found = candidates.find((origin) => origin != null && allowed.has(origin)) ?? null;
    if (found !== null && found !== learned) remember(found);
    return found;
  }

  function post(event: HubEvent, payload?: unknown): boolean {
    if (!EVENT_SET.has(event) || parent === null) return false;
    const origin = hubOrigin();
    if (origin === null) return false;
    const message: HubMessage = {
      source: "checkout",
      version: HUB_PROTOCOL_VERSION,
      event,
      payload: payloadFor(event, payload),
    };
    parent.postMessage(message, origin);
    return true;
  }

  function listen(handler: (message: HubIncoming) => void): () => void {
    const listener = (event: MessageLike) => {
      if (!inFrame || event.source !== parent || !allowed.has(event.origin)) return;
      const data = event.data as Partial<{ source: unknown; version: unknown; event: unknown }>;
      if (data === null || typeof data !== "object") return;
      if (data.source !== "hub" || data.version !== HUB_PROTOCOL_VERSION) return;
      if (typeof data.event !== "string") return;
      if (learned !== event.origin) remember(event.origin);
      handler({
        event: data.event,
        payload: (data as { payload?: unknown }).payload ?? null,
        origin: event.origin,
      });
    };
    win.addEventListener("message", listener);
    return () => win.removeEventListener("message", listener);
  }

  return { inFrame, hubOrigin, post: post as HubChannel["post"], listen };
}
