// Locates a Chromium binary for Playwright and Lighthouse. We never download a browser build
// (see ARCHITECTURE.md, "Browser tests"): an installed Chromium is found here or installed by
// scripts/ensure-chromium.ts.
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export type BrowserKind = "full" | "headless-shell";

export type FindChromiumDeps = {
  env: Record<string, string | undefined>;
  exists: (path: string) => boolean;
  home: string;
  /** Directory entries of `path`, or [] when it cannot be read. */
  list: (path: string) => string[];
};

const defaultDeps: FindChromiumDeps = {
  env: process.env,
  exists: existsSync,
  home: homedir(),
  list: (path) => {
    try {
      return readdirSync(path);
    } catch {
      return [];
    }
  },
};

/** Chromium flags that keep a headless run quiet and working as root in a container. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Where a browser of `kind` may live: the Debian package, then Playwright's cache (newest first). */
function places(kind: BrowserKind, deps: FindChromiumDeps): string[] {
  const { home, list } = deps;
  const candidates =
    kind === "headless-shell"
      ? ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell"]
      : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];
  const cache = join(home, ".cache", "ms-playwright");
  const prefix = kind === "headless-shell" ? "chromium_headless_shell-" : "chromium-";
  const file = kind === "headless-shell" ? "headless_shell" : "chrome";
  // Newest revision first: the directory names end in a build number.
  const builds = list(cache)
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
  for (const build of builds) {
    const platforms = list(join(cache, build)).filter((name) => name.startsWith("chrome-"));
    for (const platform of platforms) candidates.push(join(cache, build, platform, file));
  }
  return candidates;
}

/** The installed browser of `kind`, whatever `CHROMIUM_PATH` says. */
export function installedBrowser(
  kind: BrowserKind,
  deps: Partial<FindChromiumDeps> = {},
): string | undefined {
  const all = { ...defaultDeps, ...deps };
  return places(kind, all).find((path) => all.exists(path));
}

/** `CHROMIUM_PATH` when it names a file that exists: the browser a person chose, of any kind. */
export function chosenBrowser(deps: Partial<FindChromiumDeps> = {}): string | undefined {
  const { env, exists } = { ...defaultDeps, ...deps };
  return env.CHROMIUM_PATH && exists(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
}

/**
 * The full Chromium, as a visitor runs it (Lighthouse's figures): `CHROMIUM_PATH` if it exists,
 * then the Debian package, then a browser left in Playwright's cache.
 */
export function findChromium(deps: Partial<FindChromiumDeps> = {}): string | undefined {
  return chosenBrowser(deps) ?? installedBrowser("full", deps);
}

/**
 * The browser for the browser tests: `CHROMIUM_PATH` if it exists, else Chromium's headless shell
 * (Debian's `chromium-headless-shell`, the build Playwright itself runs headless tests in), else
 * the full Chromium. The shell is the same Blink without the desktop browser around it: the
 * browser stage took half the CPU time in it (decision 0071).
 */
export function findTestBrowser(deps: Partial<FindChromiumDeps> = {}): string | undefined {
  return (
    chosenBrowser(deps) ??
    installedBrowser("headless-shell", deps) ??
    installedBrowser("full", deps)
  );
}
