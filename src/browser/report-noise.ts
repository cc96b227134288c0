// Which error reports are noise (spec 8): errors the checkout can neither see nor fix. Pure.
//
// - Dropped: "Script error." (a cross-origin script failed; the browser hides everything else
//   about it) and the ResizeObserver loop notices (the browser's own benign warning).
// - Downgraded to warnings: errors thrown by browser extensions or ad scripts. They are not ours,
//   but one may break the page (an ad blocker stopping a payment script), so they are still sent,
//   at warning level, where they do not count as checkout failures.

export type NoiseVerdict = "drop" | "warning" | "keep";

/** Ad and ad-tech hosts whose scripts may run on the page; their subdomains too. */
const AD_HOSTS = [
  "doubleclick.net",
  "googlesyndication.com",
  "googleadservices.com",
  "googletagservices.com",
  "adservice.google.com",
  "amazon-adsystem.com",
  "adnxs.com",
  "criteo.com",
  "criteo.net",
  "taboola.com",
  "outbrain.com",
] as const;

const EXTENSION_SCHEME = /^(?:chrome|moz|safari|safari-web|ms-browser|edge)-extension:\/\//i;
const URL_IN_TEXT =
  /\b(?:https?|(?:chrome|moz|safari|safari-web|ms-browser|edge)-extension):\/\/[^\s)'"<>]+/i;

function isAdUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return AD_HOSTS.some((ad) => host === ad || host.endsWith(`.${ad}`));
  } catch {
    return false;
  }
}

/**
 * The script an error comes from: the event's filename, else the first URL of the stack (the
 * frame that threw). Only the top frame counts: an extension that wraps addEventListener shows
 * up lower in every stack, our own errors included.
 */
function sourceOf(filename: string | null | undefined, stack: string | null | undefined): string {
  if (filename) return filename;
  return URL_IN_TEXT.exec(stack ?? "")?.[0] ?? "";
}

export function classifyNoise(report: {
  message: string;
  stack?: string | null;
  filename?: string | null;
}): NoiseVerdict {
  const message = report.message.trim();
  if (/^script error\.?$/i.test(message)) return "drop";
  if (/ResizeObserver loop/i.test(message)) return "drop";
  const source = sourceOf(report.filename, report.stack);
  if (EXTENSION_SCHEME.test(source) || isAdUrl(source)) return "warning";
  return "keep";
}
