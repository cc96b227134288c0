// Where `catalog build` writes: the disk, or a map in tests.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export type OutputFs = {
  /** The file's text, or undefined when it does not exist. */
  read(path: string): string | undefined;
  write(path: string, content: string): void;
};

export const diskOutputFs: OutputFs = {
  read(path) {
    try {
      return readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  },
  write(path, content) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  },
};

export function memoryOutputFs(
  files: Record<string, string> = {},
): OutputFs & { files: Record<string, string> } {
  return {
    files,
    read: (path) => files[path],
    write(path, content) {
      files[path] = content;
    },
  };
}
