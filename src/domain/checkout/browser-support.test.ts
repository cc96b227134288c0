import { describe, expect, it } from "vitest";
import { detectBrowser, isSupportedBrowser } from "./browser-support.ts";

// Real user-agent strings, as the browsers send them.
const UA = {
  chrome120:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
  chrome40:
    "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/40.0.2214.115 Safari/537.36",
  chrome39:
    "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/39.0.2171.95 Safari/537.36",
  headlessChrome:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
  chromeIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0.6099.119 Mobile/15E148 Safari/604.1",
  samsung:
    "Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
  firefox121: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0",
  firefox39: "Mozilla/5.0 (Windows NT 6.1; WOW64; rv:39.0) Gecko/20100101 Firefox/39.0",
  opera106:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 OPR/106.0.0.0",
  // Opera 29 runs on Chromium 42: its own version is below 40, so it is unsupported.
  opera29:
    "Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/42.0.2311.90 Safari/537.36 OPR/29.0.1795.47",
  operaPresto: "Opera/9.80 (Windows NT 6.1; WOW64) Presto/2.12.388 Version/12.18",
  edgeChromium:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91",
  edge18:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.17763",
  edge15:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Safari/537.36 Edge/15.15063",
  edge14_14393:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.79 Safari/537.36 Edge/14.14393",
  edge14_14372:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/51.0.2704.79 Safari/537.36 Edge/14.14372",
  edge13:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/46.0.2486.0 Safari/537.36 Edge/13.10586",
  safari17:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15",
  safariIos:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1",
  ie11: "Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko",
  ie10: "Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.1; Trident/6.0)",
  googlebotLegacy: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  googlebotEvergreen:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/120.0.6099.129 Safari/537.36",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  curl: "curl/8.5.0",
  empty: "",
} as const;

describe("browser support for the extension and browser flow (spec 5)", () => {
  it.each<[keyof typeof UA, boolean, string]>([
    ["chrome120", true, "chrome"],
    ["chrome40", true, "chrome"],
    ["chrome39", false, "chrome"],
    ["headlessChrome", true, "chrome"],
    ["chromeAndroid", true, "chrome"],
    ["chromeIos", true, "chrome"],
    ["samsung", true, "chromium-based"],
    ["firefox121", true, "firefox"],
    ["firefox39", false, "firefox"],
    ["opera106", true, "opera"],
    ["opera29", false, "opera"],
    ["operaPresto", false, "opera"],
    ["edgeChromium", true, "edge"],
    ["edge18", true, "edge-legacy"],
    ["edge15", true, "edge-legacy"],
    ["edge14_14393", true, "edge-legacy"],
    ["edge14_14372", false, "edge-legacy"],
    ["edge13", false, "edge-legacy"],
    ["safari17", false, "safari"],
    ["safariIos", false, "safari"],
    ["ie11", false, "ie"],
    ["ie10", false, "ie"],
    // Bots go by the same rule: the evergreen Googlebot renders with Chromium.
    ["googlebotLegacy", false, "other"],
    ["googlebotEvergreen", true, "chrome"],
    ["bingbot", false, "other"],
    ["curl", false, "other"],
    ["empty", false, "other"],
  ])("%s: supported %s, detected as %s", (key, supported, name) => {
    expect(isSupportedBrowser(UA[key])).toBe(supported);
    expect(detectBrowser(UA[key]).name).toBe(name);
  });

  it("reads the version the rule compares", () => {
    expect(detectBrowser(UA.edge14_14393)).toEqual({ name: "edge-legacy", version: "14.14393" });
    expect(detectBrowser(UA.operaPresto)).toEqual({ name: "opera", version: "12.18" });
    expect(detectBrowser(UA.samsung).version).toBe("115.0.0.0");
  });
});
