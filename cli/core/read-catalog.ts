// Reads a catalogue folder into parsed source files for validateCatalog: the kind of each file
// from its path (FILE_KINDS), its YAML parsed with a line counter so that any field path maps to
// the line the pricing team edits. YAML syntax errors and unknown files become issues, never
// stack traces. One parser, `yaml`, and every file parsed on every run (no parse cache: the
// start-up goal it served was withdrawn, issue 35).
import { isAlias, isMap, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { closest } from "../../src/domain/catalog/closest.ts";
import type { FieldPath, Issue } from "../../src/domain/catalog/issue.ts";
import { messages } from "../../src/domain/catalog/messages.ts";
import { FILE_KIND_LIST, kindOf, type SourceFile } from "../../src/domain/catalog/source-file.ts";
import type { FileKind } from "../../src/domain/catalog/source-schema.ts";
import type { CatalogFs } from "./catalog-fs.ts";
import { displayDir, type RawFile, readTexts } from "./read-texts.ts";

export type { RawFile };

export type ReadResult = { files: SourceFile[]; issues: Issue[] };

/** Parses one YAML file with `yaml`; `lineOf` finds the line of a field, or of its nearest ancestor. */
export function parseSource(path: string, kind: FileKind, text: string): SourceFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;
  const syntaxProblem = (message: string, offset: number): Issue => {
    const problem = messages.yamlSyntax(message.charAt(0).toLowerCase() + message.slice(1));
    return {
      code: problem.code,
      file: path,
      line: lineAt(offset),
      path: "",
      message: problem.message,
      ...(problem.hint ? { hint: problem.hint } : {}),
    };
  };
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((error) => syntaxProblem(error.message, error.pos[0]));
    return { path, kind, data: undefined, lineOf: () => undefined, problems };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) ?? null;
  } catch (error) {
    // `yaml` parses an alias without its anchor (or too many aliases) and only fails when it
    // builds the values: still the file's fault, so an issue at the alias, never a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    const alias = /: (\S+)$/.exec(message)?.[1];
    const offset = alias ? Math.max(0, text.indexOf(`*${alias}`)) : 0;
    return {
      path,
      kind,
      data: undefined,
      lineOf: () => undefined,
      problems: [syntaxProblem(message, offset)],
    };
  }
  const resolve = (node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);
  const lineOf = (fieldPath: FieldPath): number | undefined => {
    let node = resolve(doc.contents);
    let line = (node as Node | null)?.range ? lineAt((node as Node).range?.[0] ?? 0) : 1;
    for (const part of fieldPath) {
      if (isMap(node)) {
        const pair = node.items.find((item) => {
          const key = resolve(item.key) as { value?: unknown } | null;
          return key !== null && typeof key === "object" && String(key.value) === String(part);
        });
        if (!pair) break;
        const key = pair.key as Node | null;
        if (key?.range) line = lineAt(key.range[0]);
        node = resolve(pair.value);
      } else if (isSeq(node) && typeof part === "number") {
        const item = resolve(node.items[part]) as Node | undefined;
        if (!item) break;
        if (item.range) line = lineAt(item.range[0]);
        node = item;
      } else {
        break;
      }
    }
    return line;
  };
  return { path, kind, data, lineOf };
}

/** Parses the files read by readTexts; a file of no known kind is an issue. */
export function parseCatalog(raw: readonly RawFile[], dir: string): ReadResult {
  const shown = displayDir(dir);
  const files: SourceFile[] = [];
  const issues: Issue[] = [];
  for (const { relativePath, text } of raw) {
    const path = shown === "." ? relativePath : `${shown}/${relativePath}`;
    const kind = kindOf(relativePath);
    if (!kind || text === null) {
      const expected = FILE_KIND_LIST.filter((k) => k !== "plans/*.yaml");
      const plan = relativePath.startsWith("plans/")
        ? `plans/${relativePath.replace(/^.*\//, "").replace(/\.[^.]*$/, "")}.yaml`
        : undefined;
      const problem = messages.unknownFile(expected, plan ?? closest(relativePath, expected));
      issues.push({
        code: problem.code,
        file: path,
        path: "",
        message: problem.message,
        ...(problem.hint ? { hint: problem.hint } : {}),
      });
      continue;
    }
    files.push(parseSource(path, kind, text));
  }
  return { files, issues };
}

/** Reads and parses every file of the catalogue folder `dir`. */
export function readCatalog(fs: CatalogFs, dir: string): ReadResult {
  return parseCatalog(readTexts(fs, dir), dir);
}
