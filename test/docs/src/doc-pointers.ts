// What a document points at, by three written conventions, so that a docs test can check each pointer still holds:
// - a link `[text](path)` or a code span `packages/…/file.ts` names a file of the repository;
// - `[file](path): \`a\`, \`b\` …` names things that file contains (a "files to read" list, a pointer to a README);
// - `` `a`, `b` and `c` from `@ctxkit/x` `` names exports of that package entry.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * Code spans that are repository paths: from a top-level folder, with no placeholder (`<name>`, `*`, `…`). Under
 * test/ only a file counts: `test/__fixtures__` is every package's folder, not the root's.
 */
const REPOSITORY_PATH =
  /^(?:(?:packages|contributing|architecture|scripts|examples|bench|\.changeset)\/[\w./@-]*[\w/]|test\/[\w./@-]*\.\w+)$/;
const IDENTIFIER = /^[A-Za-z_$][\w$]*/;

export interface FilePointer {
  readonly line: number;
  /** From the repository root. */
  readonly path: string;
}

export interface NamesInFile extends FilePointer {
  readonly names: readonly string[];
}

export interface NamesFromEntry {
  readonly line: number;
  /** A package entry: `@ctxkit/core`, `@ctxkit/core/kit`. */
  readonly entry: string;
  readonly names: readonly string[];
}

/** The document's text without its fenced code blocks (blank lines kept, so line numbers hold). */
function prose(markdown: string): string[] {
  let isFenced = false;
  return markdown.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      isFenced = !isFenced;
      return "";
    }
    return isFenced ? "" : line;
  });
}

/** The prose in blocks (a paragraph, a list item, a table row), each joined into one line, with its first line's number. */
function blocks(markdown: string): { line: number; text: string }[] {
  const result: { line: number; text: string }[] = [];
  prose(markdown).forEach((text, index) => {
    const isStart = /^\s*(?:[-*]\s|\d+\.\s|\|)/.test(text) || /^#/.test(text);
    const last = result.at(-1);
    if (text.trim() === "") result.push({ line: index + 2, text: "" });
    else if (isStart || last === undefined || last.text === "") result.push({ line: index + 1, text: text.trim() });
    else last.text = `${last.text} ${text.trim()}`;
  });
  return result.filter((block) => block.text !== "");
}

/** The leading identifier of each code span in `text` (`createContextManager({ store })` gives `createContextManager`). */
function spanNames(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].flatMap((match) => IDENTIFIER.exec(match[1]!)?.[0] ?? []);
}

/** Every file a document names, by link (relative to it) or by a code span holding a repository path. */
export function filePointers(document: string, markdown: string): FilePointer[] {
  return prose(markdown).flatMap((text, index) => {
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!.split("#")[0]!)
      .filter((target) => target !== "" && !/^[a-z]+:/.test(target))
      .map((target) => join(dirname(document), target));
    const spans = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!).filter((span) => REPOSITORY_PATH.test(span));
    return [...links, ...spans].map((path) => ({ line: index + 1, path }));
  });
}

/**
 * `[label](path): \`a\`, \`b\` …` (a code span right after the colon): the names, up to the end of the sentence or list item; and
 * `` `call(…)` (see `path`) ``: the functions an inline example calls, which the file it points to must show.
 */
export function namesInFiles(document: string, markdown: string): NamesInFile[] {
  return blocks(markdown).flatMap(({ line, text }) => [
    ...[...text.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\):\s*(`[\s\S]*?)(?:\.(?:\s|$)|$)/g)]
      .filter((match) => !/^[a-z]+:/.test(match[1]!))
      .flatMap((match) => {
        const names = spanNames(match[2]!);
        return names.length === 0 ? [] : [{ line, path: join(dirname(document), match[1]!), names }];
      }),
    ...[...text.matchAll(/`([^`]+)`\s*\(see\s+(?:`([^`\s]+)`|\[[^\]]*\]\(([^)\s#]+)[^)]*\))\)/g)].flatMap((match) => {
      // A placeholder's part (`create<Name>Strategy(`) names nothing.
      const calls = [...match[1]!.matchAll(/(?<![\w$<>])([A-Za-z_$][\w$]*)\(/g)].map((call) => call[1]!);
      const names = calls.length > 0 ? calls : spanNames(`\`${match[1]}\``);
      const path = match[2] ?? join(dirname(document), match[3]!);
      return names.length === 0 ? [] : [{ line, path, names }];
    }),
  ]);
}

/** `` `a`, `b` and `c` from `@ctxkit/x` ``: each run of code spans joined by commas, "and" or "or", then the entry. */
export function namesFromEntries(markdown: string): NamesFromEntry[] {
  return blocks(markdown).flatMap(({ line, text }) =>
    [...text.matchAll(/((?:`[^`]+`(?:,\s*|,?\s+and\s+|,?\s+or\s+))*`[^`]+`)\s+from\s+`(@ctxkit\/[a-z-]+(?:\/[a-z-]+)?)`/g)].map(
      (match) => ({ line, entry: match[2]!, names: spanNames(match[1]!) }),
    ),
  );
}

/** The source file of a workspace package's entry, by its exports map's `@ctxkit/source` condition. */
export function entrySource(root: string, entry: string): string | undefined {
  const [, folder, subpath] = /^@ctxkit\/([a-z-]+)(\/[a-z-]+)?$/.exec(entry) ?? [];
  if (folder === undefined) return undefined;
  const manifestFile = join(root, "packages", folder, "package.json");
  if (!existsSync(manifestFile)) return undefined;
  const exports = JSON.parse(readFileSync(manifestFile, "utf8")).exports ?? {};
  const source = exports[subpath === undefined ? "." : `.${subpath}`]?.["@ctxkit/source"];
  return source === undefined ? undefined : join(root, "packages", folder, source);
}

/** The names a TypeScript module exports, read from its export statements (following `export *`). */
export function exportedNames(file: string, seen = new Set<string>()): Set<string> {
  const names = new Set<string>();
  if (seen.has(file) || !existsSync(file)) return names;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const match of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const item of match[1]!.split(",")) {
      const name = item
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.add(name);
    }
  }
  for (const match of source.matchAll(
    /export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g,
  )) {
    names.add(match[1]!);
  }
  // `export const { meta, mount } = …`
  for (const match of source.matchAll(/export\s+const\s+\{([^}]*)\}/g)) {
    for (const item of match[1]!.split(","))
      names.add(
        item
          .trim()
          .split(/\s*:\s*/)
          .at(-1)!,
      );
  }
  for (const match of source.matchAll(/export\s+\*\s+from\s+"(\.[^"]+)"/g)) {
    for (const name of exportedNames(join(dirname(file), match[1]!.replace(/\.js$/, ".ts")), seen)) names.add(name);
  }
  return names;
}
