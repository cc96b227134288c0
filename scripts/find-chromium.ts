// Locates a Chromium binary for Playwright and Lighthouse. We never download a browser build
// (see ARCHITECTURE.md, "Browser tests"): an installed Chromium is found here or installed by
// scripts/ensure-chromium.ts.
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

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

/**
 * Path of a Chromium executable: `CHROMIUM_PATH` if it exists, then the Debian package, then a
 * browser left in Playwright's cache (`~/.cache/ms-playwright/chromium-*\/chrome-linux*\/chrome`).
 */
export function findChromium(deps: Partial<FindChromiumDeps> = {}): string | undefined {
  const { env, exists, home, list } = { ...defaultDeps, ...deps };
  const candidates: string[] = [];
  if (env.CHROMIUM_PATH) candidates.push(env.CHROMIUM_PATH);
  candidates.push("/usr/bin/chromium", "/usr/bin/chromium-browser");
  const cache = join(home, ".cache", "ms-playwright");
  // Newest revision first: the directory names end in a build number.
  const builds = list(cache)
    .filter((name) => name.startsWith("chromium-"))
    .sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
  for (const build of builds) {
    const platforms = list(join(cache, build)).filter((name) => name.startsWith("chrome-linux"));
    for (const platform of platforms) candidates.push(join(cache, build, platform, "chrome"));
  }
  return candidates.find((path) => exists(path));
}
