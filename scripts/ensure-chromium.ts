// Makes sure the browsers are installed before browser tests run. No test is ever skipped for lack
// of a browser: either they are found, installed (Debian, as root), or this exits non-zero.
// Two Debian packages of one Chromium build: `chromium-headless-shell`, which the browser tests
// run in (decision 0071), and `chromium`, the full browser `npm run bench` measures pages in.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import {
  type BrowserKind,
  chosenBrowser,
  findTestBrowser,
  installedBrowser,
} from "./find-chromium.ts";

function run(command: string, args: string[]): void {
  console.log(`ensure-chromium: running ${[command, ...args].join(" ")}`);
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  if (result.status !== 0) {
    console.error(`ensure-chromium: ${command} ${args.join(" ")} failed (exit ${result.status}).`);
    process.exit(1);
  }
}

const packages: Record<BrowserKind, string> = {
  full: "chromium",
  "headless-shell": "chromium-headless-shell",
};
const debianRoot = existsSync("/etc/debian_version") && process.getuid?.() === 0;
const missing = (Object.keys(packages) as BrowserKind[])
  .filter((kind) => installedBrowser(kind) === undefined)
  .map((kind) => packages[kind]);

if (!chosenBrowser() && debianRoot && missing.length > 0) {
  console.log(`ensure-chromium: installing the Debian package(s) ${missing.join(", ")}.`);
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", ...missing]);
}
const found = findTestBrowser();
if (found) {
  console.log(`ensure-chromium: browser tests use ${found}`);
} else {
  console.error(
    [
      "ensure-chromium: no Chromium found, and this is not Debian as root, so none was installed.",
      "Install one (Debian/Ubuntu: `sudo apt-get install chromium-headless-shell chromium`) or set",
      "CHROMIUM_PATH to a Chromium or Chrome executable, then run the tests again.",
    ].join("\n"),
  );
  process.exit(1);
}
