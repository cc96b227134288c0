// Makes sure a Chromium is installed before browser tests run. No test is ever skipped for lack of
// a browser: either one is found, one is installed (Debian, as root), or this exits non-zero.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { findChromium } from "./find-chromium.ts";

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

const found = findChromium();
if (found) {
  console.log(`ensure-chromium: using ${found}`);
} else if (existsSync("/etc/debian_version") && process.getuid?.() === 0) {
  console.log("ensure-chromium: no Chromium found; installing the Debian package `chromium`.");
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "--no-install-recommends", "chromium"]);
  const installed = findChromium();
  if (!installed) {
    console.error("ensure-chromium: apt-get finished but no Chromium was found afterwards.");
    process.exit(1);
  }
  console.log(`ensure-chromium: installed ${installed}`);
} else {
  console.error(
    [
      "ensure-chromium: no Chromium found, and this is not Debian as root, so none was installed.",
      "Install one (Debian/Ubuntu: `sudo apt-get install chromium`) or set CHROMIUM_PATH to a",
      "Chromium or Chrome executable, then run the tests again.",
    ].join("\n"),
  );
  process.exit(1);
}
