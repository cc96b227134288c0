// Start-up and the data folder (data-folder.ts): a new install makes the database and the secret;
// a folder whose database is missing, empty, truncated, damaged, another program's or read-only,
// or whose secret is missing or weak, stops start-up with a message naming DATA_DIR and the file,
// and no file in it changes.
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { api } from "../contract/index.ts";
import { testClock } from "./clock.ts";
import { DATABASE_FILE, SECRET_FILE } from "./data-folder.ts";
import { Users } from "./db/users.ts";
import { memoryLogger } from "./log.ts";
import { type RunningServer, StartupError, startServer } from "./main.ts";
import { childEnv } from "./testing/children.ts";
import { fixtureCatalog, TEST_NOW } from "./testing/fixture-catalog.ts";
import { TestClient } from "./testing/harness.ts";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));
const folders: string[] = [];

afterAll(() => {
  for (const dir of folders) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

function newFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "checkout-startup-test-"));
  folders.push(dir);
  return dir;
}

function start(dir: string): Promise<RunningServer> {
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
async function usedFolder(): Promise<string> {
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
function snapshot(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]));
}

/** Start-up throws a StartupError naming DATA_DIR and the file, and changes no file. */
async function expectRefusal(dir: string, file: string, pattern: RegExp): Promise<string> {
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

const SECRET = Buffer.alloc(32, 7).toString("base64url");

describe("a new install", () => {
  it("makes the database and a 32-byte secret readable by the owner only, then keeps both", async () => {
    const dir = await usedFolder();
    expect(readdirSync(dir).sort()).toEqual([DATABASE_FILE, SECRET_FILE]);
    const secret = readFileSync(join(dir, SECRET_FILE), "utf8");
    expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    expect(statSync(join(dir, SECRET_FILE)).mode & 0o777).toBe(0o600);

    // A secret put back by hand often ends with a newline: it is the same key.
    writeFileSync(join(dir, SECRET_FILE), `${secret}\n`);
    const again = await start(dir);
    const users = await Users.count(again.deps.db);
    expect(again.deps.secret.toString("base64url")).toBe(secret);
    await again.close();
    expect(users).toBe(1);
  });

  it("completes a first start that stopped before the database was in place", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, `${DATABASE_FILE}.new`), "half-made by an interrupted start");
    await (await start(dir)).close();
    expect(readdirSync(dir).sort()).toEqual([DATABASE_FILE, SECRET_FILE]);
  });

  it("completes a first start that stopped before writing the secret (no account yet)", async () => {
    const dir = newFolder();
    await (await start(dir)).close();
    unlinkSync(join(dir, SECRET_FILE));
    await (await start(dir)).close();
    expect(readdirSync(dir).sort()).toEqual([DATABASE_FILE, SECRET_FILE]);
  });
});

describe("start-up refuses", () => {
  it("a secret without its database", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    await expectRefusal(dir, DATABASE_FILE, /holds a server secret but not its database/);
  });

  it("a write-ahead log without its database, secret or not", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, `${DATABASE_FILE}-wal`), "committed transactions");
    await expectRefusal(dir, DATABASE_FILE, /holds checkout\.sqlite-wal, a log of committed/);
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    await expectRefusal(dir, DATABASE_FILE, /holds checkout\.sqlite-wal, a log of committed/);
  });

  it("an empty database beside a secret, and an empty one alone", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    writeFileSync(join(dir, DATABASE_FILE), "");
    const message = await expectRefusal(dir, DATABASE_FILE, /is empty \(0 bytes\)/);
    expect(message).toMatch(/Restore checkout\.sqlite from a backup/);
    unlinkSync(join(dir, SECRET_FILE));
    await expectRefusal(dir, DATABASE_FILE, /is empty \(0 bytes\).*no server secret either/);
  });

  it("a truncated copy of a real database, at any length", async () => {
    const dir = await usedFolder();
    const path = join(dir, DATABASE_FILE);
    const whole = readFileSync(path);
    for (const length of [Math.floor(whole.length / 2), whole.length - 4096, 4096, 100, 10]) {
      writeFileSync(path, whole);
      truncateSync(path, length);
      const message = await expectRefusal(dir, DATABASE_FILE, /damaged|not a SQLite database/);
      expect(message).toMatch(/Restore checkout\.sqlite from a backup/);
    }
  });

  it("a database overwritten in the middle, or not a database at all", async () => {
    const dir = await usedFolder();
    const path = join(dir, DATABASE_FILE);
    const bytes = readFileSync(path);
    bytes.fill(0x5a, 4096, 4096 + 2048);
    writeFileSync(path, bytes);
    await expectRefusal(dir, DATABASE_FILE, /is damaged \(SQLite: /);
    writeFileSync(path, "this is a backup script, not a database\n".repeat(200));
    await expectRefusal(dir, DATABASE_FILE, /is not a SQLite database/);
  });

  it("a SQLite database without this server's tables", async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    const other = new DatabaseSync(join(dir, DATABASE_FILE));
    other.exec("CREATE TABLE photos (id INTEGER PRIMARY KEY)");
    other.close();
    await expectRefusal(dir, DATABASE_FILE, /holds tables of another program \(photos\)/);
  });

  it("a database with accounts but no secret, whose stored codes would no longer match", async () => {
    const dir = await usedFolder();
    unlinkSync(join(dir, SECRET_FILE));
    await expectRefusal(
      dir,
      DATABASE_FILE,
      /holds 1 account\(s\) but DATA_DIR has no server secret/,
    );
  });

  it("a secret shorter than 32 bytes, or not base64url", async () => {
    const dir = await usedFolder();
    writeFileSync(join(dir, SECRET_FILE), Buffer.alloc(31, 1).toString("base64url"));
    await expectRefusal(dir, SECRET_FILE, /decodes to 31 bytes; at least 32 are needed/);
    writeFileSync(join(dir, SECRET_FILE), `${SECRET.slice(0, 20)}+/!${SECRET.slice(20)}`);
    await expectRefusal(dir, SECRET_FILE, /is not base64url text/);
    writeFileSync(join(dir, SECRET_FILE), "");
    await expectRefusal(dir, SECRET_FILE, /decodes to 0 bytes/);
  });
});

// The server as a program (`node src/server/main.ts`), and the data folder opened as another
// user: as root every file is writable whatever its mode, so the read-only cases then run as
// nobody, in folders nobody owns. Spawned programs are slow to load on a busy machine, hence the
// longer time limits.
const CHILD = fileURLToPath(new URL("./testing/data-folder-child.ts", import.meta.url));
const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

type Exit = { code: number | null; stderr: string };

function run(script: string, dir: string, options: { asOwner?: boolean } = {}): Promise<Exit> {
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

function expectPlainExit(result: Exit, dir: string, file: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^server: /);
  expect(result.stderr).toContain("DATA_DIR");
  expect(result.stderr).toContain(join(dir, file));
  expect(result.stderr).not.toMatch(/^\s+at /m);
}

describe("run as a program", () => {
  it("prints the refusal and exits 1, without a stack trace", { timeout: 90_000 }, async () => {
    const dir = newFolder();
    writeFileSync(join(dir, SECRET_FILE), SECRET);
    writeFileSync(join(dir, DATABASE_FILE), "");
    const result = await run(MAIN, dir);
    expectPlainExit(result, dir, DATABASE_FILE);
    expect(result.stderr).toMatch(/is empty \(0 bytes\)/);
    expect(statSync(join(dir, DATABASE_FILE)).size).toBe(0);
  });

  it("refuses a read-only database and a read-only data folder", { timeout: 90_000 }, async () => {
    const [fileDir, folderDir] = await Promise.all([usedFolder(), usedFolder()]);
    const path = join(fileDir, DATABASE_FILE);
    const before = readFileSync(path);
    chmodSync(path, 0o444);
    chmodSync(folderDir, 0o555);
    const [file, folder] = await Promise.all([
      run(CHILD, fileDir, { asOwner: true }),
      run(CHILD, folderDir, { asOwner: true }),
    ]);
    expectPlainExit(file, fileDir, DATABASE_FILE);
    expect(file.stderr).toMatch(/checkout\.sqlite in DATA_DIR .* is read-only/);
    expect(readFileSync(path)).toEqual(before);
    expectPlainExit(folder, folderDir, DATABASE_FILE);
    expect(folder.stderr).toMatch(/DATA_DIR \(.*\) is read-only/);
  });

  it("opens a writable folder in the same child (the read-only cases are not false alarms)", {
    timeout: 90_000,
  }, async () => {
    const dir = await usedFolder();
    expect(await run(CHILD, dir, { asOwner: true })).toEqual({ code: 0, stderr: "" });
  });
});

describe("secrets and files", () => {
  it("makes the data folder the owner's only, and every file in it (database, log, secret)", async () => {
    const dir = join(newFolder(), "data");
    const running = await start(dir);
    try {
      const signUp = await new TestClient(running.url).call(api.signUp, {
        body: { email: "mode@example.com", password: "secret-1", firstName: "M", lastName: "O" },
      });
      expect(signUp.ok).toBe(true);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const names = readdirSync(dir).sort();
      expect(names).toEqual(
        [DATABASE_FILE, `${DATABASE_FILE}-shm`, `${DATABASE_FILE}-wal`, SECRET_FILE].sort(),
      );
      for (const name of names)
        expect([name, statSync(join(dir, name)).mode & 0o777]).toEqual([name, 0o600]);
    } finally {
      await running.close();
    }
  });

  it("takes group and other permissions off the files of an older install", async () => {
    const dir = await usedFolder();
    chmodSync(join(dir, DATABASE_FILE), 0o644);
    chmodSync(join(dir, SECRET_FILE), 0o644);
    await (await start(dir)).close();
    expect(statSync(join(dir, DATABASE_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, SECRET_FILE)).mode & 0o777).toBe(0o600);
  });

  it("prints no credential of DATABASE_URL, in any form, when PostgreSQL cannot be reached", async () => {
    const urls = [
      "postgres://app:pw-userinfo-1@127.0.0.1:1/db",
      "postgres://app@127.0.0.1:1/db?password=pw-query-2",
      "postgresql://127.0.0.1:1/db?user=app&password=pw-query-3&sslpassword=pw-ssl-4",
      "postgres://app:pw%40enc-5@127.0.0.1:1/db?sslmode=disable",
    ];
    for (const url of urls) {
      const log = memoryLogger();
      const error = await startServer({
        port: 0,
        host: "127.0.0.1",
        env: { DATABASE_URL: url, SERVER_SECRET: SECRET, PAYMENTS: "sandbox", SEED: "false" },
        log,
        clock: testClock(TEST_NOW),
        catalog: fixtureCatalog(),
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      const printed = `${(error as Error).message}\n${log.lines.join("\n")}`;
      expect(printed).toContain("127.0.0.1:1");
      expect(printed).not.toMatch(/pw-|pw%40|pw@enc/);
    }
  });
});

describe("the write-ahead log (issue 18 item 16)", () => {
  const WAL = `${DATABASE_FILE}-wal`;

  /**
   * A folder as a kill -9 leaves it: the files of a running server with 1 + 6 accounts, the
   * ones signed up since it started only in its write-ahead log.
   */
  async function crashedFolder(): Promise<string> {
    const dir = await usedFolder();
    const running = await start(dir);
    try {
      for (let i = 0; i < 6; i++) {
        const up = await new TestClient(running.url).call(api.signUp, {
          body: {
            email: `crash${i}@example.com`,
            password: "secret-1",
            firstName: "C",
            lastName: "K",
          },
        });
        expect(up.ok).toBe(true);
      }
      const copy = newFolder();
      for (const name of [DATABASE_FILE, WAL, SECRET_FILE]) {
        writeFileSync(join(copy, name), readFileSync(join(dir, name)));
      }
      expect(statSync(join(copy, WAL)).size).toBeGreaterThan(0);
      return copy;
    } finally {
      await running.close();
    }
  }

  async function accounts(dir: string): Promise<number> {
    const running = await start(dir);
    try {
      return await Users.count(running.deps.db);
    } finally {
      await running.close();
    }
  }

  it("starts on a crashed folder with every acknowledged account (no false alarm)", async () => {
    expect(await accounts(await crashedFolder())).toBe(7);
  });

  it("refuses a log cut short, at any length that is not whole frames", async () => {
    const dir = await crashedFolder();
    const path = join(dir, WAL);
    const whole = readFileSync(path);
    for (const length of [Math.floor(whole.length / 2), whole.length - 1, 40]) {
      writeFileSync(path, whole.subarray(0, length));
      const message = await expectRefusal(dir, WAL, /write-ahead log .* is damaged: .*cut short/);
      expect(message).toMatch(/npm run backup/);
    }
  });

  it("starts on a log whose last frame a kill stopped between its header and its page", async () => {
    // SQLite appends a frame as two writes: the 24-byte header, then the page. A kill between
    // them leaves this generation's header alone at the end, for a transaction never
    // acknowledged; seen in the crash test about once in many runs.
    const dir = await crashedFolder();
    const path = join(dir, WAL);
    const whole = readFileSync(path);
    const pageSize = whole.readUInt32BE(8);
    const lastHeader = whole.subarray(whole.length - pageSize - 24, whole.length - pageSize);
    writeFileSync(path, Buffer.concat([whole, lastHeader]));
    expect(await accounts(dir)).toBe(7);
    // The same 24 bytes with another generation's salts are not a frame being written: cut short.
    const stranger = Buffer.from(lastHeader);
    stranger[8] = (stranger[8] ?? 0) ^ 0xff;
    writeFileSync(path, Buffer.concat([whole, stranger]));
    await expectRefusal(dir, WAL, /write-ahead log .* is damaged: .*cut short/);
  });

  it("refuses a log with a flipped byte in its header or in a frame", async () => {
    const dir = await crashedFolder();
    const path = join(dir, WAL);
    const whole = readFileSync(path);
    const header = Buffer.from(whole);
    header[17] = (header[17] ?? 0) ^ 0xff; // a salt byte
    writeFileSync(path, header);
    await expectRefusal(dir, WAL, /header fails its checksum/);
    const frame = Buffer.from(whole);
    const at = 32 + 24 + 100;
    frame[at] = (frame[at] ?? 0) ^ 0x01;
    writeFileSync(path, frame);
    await expectRefusal(dir, WAL, /frame 1 fails its checksum/);
  });

  it("refuses the database file without the log it needs (a copy of checkout.sqlite alone)", async () => {
    const dir = await crashedFolder();
    unlinkSync(join(dir, WAL));
    await expectRefusal(dir, DATABASE_FILE, /write-ahead log .*-wal.* is missing/);
    // Accepting the loss on purpose: an empty log starts on what the file alone holds.
    writeFileSync(join(dir, WAL), "");
    expect(await accounts(dir)).toBe(1);
  });

  it("backs up a running server's folder with every account, restorable as DATA_DIR", async () => {
    const dir = await usedFolder();
    const running = await start(dir);
    const target = join(newFolder(), "backup");
    try {
      for (let i = 0; i < 4; i++) {
        const up = await new TestClient(running.url).call(api.signUp, {
          body: {
            email: `kept${i}@example.com`,
            password: "secret-1",
            firstName: "K",
            lastName: "B",
          },
        });
        expect(up.ok).toBe(true);
      }
      const { backupDataFolder } = await import("../../scripts/backup.ts");
      expect(backupDataFolder(dir, target)).toMatchObject({ accounts: 5 });
    } finally {
      await running.close();
    }
    expect(readdirSync(target).sort()).toEqual([DATABASE_FILE, SECRET_FILE]);
    expect(statSync(target).mode & 0o777).toBe(0o700);
    for (const name of [DATABASE_FILE, SECRET_FILE]) {
      expect(statSync(join(target, name)).mode & 0o777).toBe(0o600);
    }
    expect(await accounts(target)).toBe(5);
  });
});
