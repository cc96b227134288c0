// What the startup-*.test.ts files share: data folders made and removed, a server started on one,
// a folder's files snapshotted, start-up's refusal expected, and the server run as a program.
import { spawn } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect } from "vitest";
import { api } from "../../contract/index.ts";
import { testClock } from "../clock.ts";
import { memoryLogger } from "../log.ts";
import { type RunningServer, StartupError, startServer } from "../main.ts";
import { childEnv } from "./children.ts";
import { fixtureCatalog, TEST_NOW } from "./fixture-catalog.ts";
import { TestClient } from "./harness.ts";

export const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
export const folders: string[] = [];

export function newFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "checkout-startup-test-"));
  folders.push(dir);
  return dir;
}

export function start(dir: string): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: "127.0.0.1",
    env: { DATA_DIR: dir, PAYMENTS: "sandbox", SEED: "false" },
    log: memoryLogger(),
    clock: testClock(TEST_NOW),
    catalog: fixtureCatalog(),
    passwordCost: 10,
  });
}

/** A data folder as a server leaves it: one account, closed cleanly. */
export async function usedFolder(): Promise<string> {
  const dir = newFolder();
  const running = await start(dir);
  const signUp = await new TestClient(running.url).call(api.signUp, {
    body: { email: "kept@example.com", password: "secret-1", firstName: "Kim", lastName: "Kept" },
  });
  expect(signUp.ok).toBe(true);
  await running.close();
  return dir;
}

/** Every file of the folder and its bytes. */
export function snapshot(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}

/** Start-up throws a StartupError naming DATA_DIR and the file, and changes no file. */
export async function expectRefusal(dir: string, file: string, pattern: RegExp): Promise<string> {
  const before = snapshot(dir);
  const error = await start(dir).then(
    () => {
      throw new Error("start-up went on");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StartupError);
  const message = (error as StartupError).message;
  expect(message).toMatch(pattern);
  expect(message).toContain("DATA_DIR");
  expect(message).toContain(dir);
  expect(message).toContain(join(dir, file));
  expect(snapshot(dir)).toEqual(before);
  return message;
}

export const SECRET = Buffer.alloc(32, 7).toString("base64url");

// The server as a program (`node src/server/main.ts`), and the data folder opened as another
// user: as root every file is writable whatever its mode, so the read-only cases then run as
// nobody, in folders nobody owns. Spawned programs are slow to load on a busy machine, hence the
// longer time limits.
export const CHILD = fileURLToPath(new URL("./data-folder-child.ts", import.meta.url));
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

export type Exit = { code: number | null; stderr: string };

export function run(
  script: string,
  dir: string,
  options: { asOwner?: boolean } = {},
): Promise<Exit> {
  const switchUser = options.asOwner === true && AS_ROOT;
  if (switchUser) chownTree(dir, NOBODY);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], {
      // childEnv: without the run's DATABASE_URL (CI sets it), so that DATA_DIR is what opens.
      env: childEnv({
        DATA_DIR: dir,
        HOST: "127.0.0.1",
        PORT: "0",
        PAYMENTS: "sandbox",
        SEED: "false",
      }),
      stdio: ["ignore", "ignore", "pipe"],
      ...(switchUser ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // A program that did not refuse would serve until killed. A refusal takes 13 s in the whole
    // unit stage on a slow machine (loading the server's modules), so the guard leaves room.
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function chownTree(dir: string, uid: number): void {
  chownSync(dir, uid, uid);
  for (const name of readdirSync(dir)) chownSync(join(dir, name), uid, uid);
}

export function expectPlainExit(result: Exit, dir: string, file: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^server: /);
  expect(result.stderr).toContain("DATA_DIR");
  expect(result.stderr).toContain(join(dir, file));
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

/**
 * Removes the data folders a file's tests made once they are done. The list is emptied as it is
 * read: test files share this module when a worker runs several (isolation off, decision 0025),
 * so a later file must not meet the folders an earlier one already removed.
 */
export function removesFoldersAfter(): void {
  afterAll(() => {
    for (const dir of folders.splice(0)) {
      chmodSync(dir, 0o755);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
