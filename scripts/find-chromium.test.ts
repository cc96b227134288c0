import { describe, expect, it } from "vitest";
import { findChromium, findTestBrowser, installedBrowser } from "./find-chromium.ts";

function fakeFs(files: string[]) {
  const set = new Set(files);
  return {
    exists: (path: string) => set.has(path),
    list: (dir: string) => {
      const prefix = `${dir}/`;
      const names = files
        .filter((file) => file.startsWith(prefix))
        .map((file) => file.slice(prefix.length).split("/")[0] ?? "");
      return [...new Set(names)];
    },
  };
}

const home = "/home/dev";
const cached = `${home}/.cache/ms-playwright/chromium-1200/chrome-linux64/chrome`;

describe("findChromium", () => {
  it("prefers CHROMIUM_PATH when it exists", () => {
    const fs = fakeFs(["/opt/chrome/chrome", "/usr/bin/chromium"]);
    expect(findChromium({ env: { CHROMIUM_PATH: "/opt/chrome/chrome" }, home, ...fs })).toBe(
      "/opt/chrome/chrome",
    );
  });

  it("falls back to the Debian package when CHROMIUM_PATH does not exist", () => {
    const fs = fakeFs(["/usr/bin/chromium"]);
    expect(findChromium({ env: { CHROMIUM_PATH: "/missing" }, home, ...fs })).toBe(
      "/usr/bin/chromium",
    );
  });

  it("uses the newest browser in Playwright's cache", () => {
    const older = `${home}/.cache/ms-playwright/chromium-999/chrome-linux/chrome`;
    const fs = fakeFs([older, cached]);
    expect(findChromium({ env: {}, home, ...fs })).toBe(cached);
  });

  it("returns undefined when there is no browser", () => {
    expect(findChromium({ env: {}, home, ...fakeFs([]) })).toBeUndefined();
  });
});

describe("findTestBrowser", () => {
  const shell = "/usr/lib/chromium/chromium-headless-shell";
  const cachedShell = `${home}/.cache/ms-playwright/chromium_headless_shell-1200/chrome-headless-shell-linux64/headless_shell`;

  it("prefers the Debian headless shell to the full browser", () => {
    const fs = fakeFs(["/usr/bin/chromium", shell]);
    expect(findTestBrowser({ env: {}, home, ...fs })).toBe(shell);
    // The bench measures pages in the full browser, as a visitor runs it.
    expect(findChromium({ env: {}, home, ...fs })).toBe("/usr/bin/chromium");
  });

  it("still prefers CHROMIUM_PATH when it exists", () => {
    const fs = fakeFs(["/opt/chrome/chrome", shell]);
    expect(findTestBrowser({ env: { CHROMIUM_PATH: "/opt/chrome/chrome" }, home, ...fs })).toBe(
      "/opt/chrome/chrome",
    );
  });

  it("uses a headless shell in Playwright's cache before any full browser", () => {
    const fs = fakeFs([cached, cachedShell]);
    expect(findTestBrowser({ env: {}, home, ...fs })).toBe(cachedShell);
    expect(installedBrowser("full", { home, ...fs })).toBe(cached);
  });

  it("falls back to the full browser without a headless shell", () => {
    const fs = fakeFs(["/usr/bin/chromium"]);
    expect(findTestBrowser({ env: {}, home, ...fs })).toBe("/usr/bin/chromium");
    expect(installedBrowser("headless-shell", { home, ...fs })).toBeUndefined();
  });
});
