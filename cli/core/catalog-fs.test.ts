import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeTempFolder } from "../testing/catalog-fixture.ts";
import { diskFs, gitFs, isDirectory, memoryFs } from "./catalog-fs.ts";
import { ExitError } from "./exit-error.ts";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("diskFs", () => {
  it("lists every file below a folder with / separators, sorted", () => {
    const dir = writeTempFolder({ "b.yaml": "", "plans/a.yaml": "x: 1\n" });
    folders.push(dir);
    expect(diskFs.list(dir)).toEqual(["b.yaml", "plans/a.yaml"]);
    expect(diskFs.read(join(dir, "plans/a.yaml"))).toBe("x: 1\n");
    expect(isDirectory(dir)).toBe(true);
    expect(isDirectory(join(dir, "b.yaml"))).toBe(false);
  });

  it("says so when the folder does not exist", () => {
    expect(() => diskFs.list("/nonexistent/catalog")).toThrow(
      new ExitError("no catalogue folder at /nonexistent/catalog: expected a folder of YAML files"),
    );
  });
});

describe("gitFs", () => {
  it("lists with git ls-tree and reads with git show, relative to the working directory", () => {
    const calls: string[] = [];
    const git = (args: string[]) => {
      calls.push(args.join(" "));
      if (args[0] === "ls-tree") return "catalog/essentials.yaml\ncatalog/plans/power.yaml\n";
      if (args[0] === "show") return "name: x\n";
      return "";
    };
    const fs = gitFs("main", "/repo", git);
    expect(fs.list("catalog")).toEqual(["essentials.yaml", "plans/power.yaml"]);
    expect(fs.read("catalog/essentials.yaml")).toBe("name: x\n");
    expect(calls).toEqual([
      "rev-parse --verify --quiet main^{commit}",
      "ls-tree -r --name-only main -- catalog/",
      "show main:./catalog/essentials.yaml",
    ]);
  });

  it("rejects a revision git does not know", () => {
    const git = () => {
      throw new Error("fatal");
    };
    expect(() => gitFs("nope", "/repo", git)).toThrow(
      "nope is neither a folder nor a git revision: expected a path or a commit, branch or tag",
    );
  });
});

describe("memoryFs", () => {
  it("lists files below a folder", () => {
    const fs = memoryFs({ "c/a.yaml": "a", "c/p/b.yaml": "b", "d/x.yaml": "x" });
    expect(fs.list("c/")).toEqual(["a.yaml", "p/b.yaml"]);
  });
});
