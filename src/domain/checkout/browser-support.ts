// Browser support for the extension and browser flow (spec 5): Chrome, Firefox and Opera below
// version 40 are unsupported; any other browser must be Chrome-like, Opera, Firefox or Edge at
// version 14.14393 or above. Read from the user-agent string, the only thing the page knows
// before any feature is used.

export type BrowserName =
  | "chrome"
  | "chromium-based"
  | "edge"
  | "edge-legacy"
  | "opera"
  | "firefox"
  | "safari"
  | "ie"
  | "other";

export type DetectedBrowser = {
  name: BrowserName;
  /** The version as written in the user agent ("120.0.6099.71", "14.14393"); null if none. */
  version: string | null;
};

/** The first browser token that matches wins: forks also carry "Chrome/" and "Safari/". */
const TOKENS: readonly [BrowserName, RegExp][] = [
  // EdgeHTML (legacy Edge) says "Chrome/51 … Edge/14.14393": it must be told apart first.
  ["edge-legacy", /\bEdge\/(\d+(?:\.\d+)*)/],
  ["edge", /\bEdg(?:A|iOS)?\/(\d+(?:\.\d+)*)/],
  ["opera", /\bOPR\/(\d+(?:\.\d+)*)/],
  // Presto Opera (12 and older) puts its real version after "Version/".
  ["opera", /\bOpera\b.*\bVersion\/(\d+(?:\.\d+)*)/],
  ["opera", /\bOpera[/ ](\d+(?:\.\d+)*)/],
  ["firefox", /\b(?:Firefox|FxiOS)\/(\d+(?:\.\d+)*)/],
  // Other Chromium browsers (Samsung Internet, Vivaldi, Yandex…) name themselves before Chrome.
  [
    "chromium-based",
    /\b(?:SamsungBrowser|Vivaldi|YaBrowser|UCBrowser)\/\d.*\bChrome\/(\d+(?:\.\d+)*)/,
  ],
  ["chrome", /\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\/(\d+(?:\.\d+)*)/],
  ["ie", /\b(?:MSIE |Trident\/.*\brv:)(\d+(?:\.\d+)*)/],
  ["safari", /\bVersion\/(\d+(?:\.\d+)*).*\bSafari\//],
];

export function detectBrowser(userAgent: string): DetectedBrowser {
  for (const [name, pattern] of TOKENS) {
    const match = pattern.exec(userAgent);
    if (match) return { name, version: match[1] ?? null };
  }
  return { name: "other", version: null };
}

/** Compares dotted versions part by part: "14.14393" ≥ "14.14393", "15.15063" > "14.14393". */
function atLeast(version: string, minimum: string): boolean {
  const have = version.split(".").map(Number);
  const want = minimum.split(".").map(Number);
  for (let i = 0; i < want.length; i++) {
    const a = have[i] ?? 0;
    const b = want[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** Chrome, Firefox and Opera from this major version on (spec 5). */
const MINIMUM_MAJOR_VERSION = 40;
/** Legacy Edge from this EdgeHTML version on (spec 5). */
const MINIMUM_EDGE_VERSION = "14.14393";

export function isSupportedBrowser(userAgent: string): boolean {
  const { name, version } = detectBrowser(userAgent);
  if (version === null) return false;
  switch (name) {
    case "chrome":
    case "chromium-based":
    case "edge":
    case "opera":
    case "firefox":
      // Chromium Edge and other Chromium browsers are Chrome-like: the same floor applies.
      return atLeast(version, String(MINIMUM_MAJOR_VERSION));
    case "edge-legacy":
      return atLeast(version, MINIMUM_EDGE_VERSION);
    default:
      return false;
  }
}
