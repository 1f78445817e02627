// Finds the fenced code blocks of a Markdown file: the TypeScript snippets, each with whether and why it is
// not run, and the blocks that show a file of the repository, each with the file it must equal.

export interface CodeBlock {
  /** 1-based line of the opening fence, as an editor shows it. */
  readonly line: number;
  /** The fence's language (`ts`, `json`, `sh`), or "" for none. */
  readonly language: string;
  readonly code: string;
  /** Why the snippet is not run, from a `<!-- snippet: not run (reason) -->` comment right before it. */
  readonly notRun?: string;
  /** The repository file (from its root) the block shows, from a `<!-- file: path -->` comment right before it. */
  readonly file?: string;
}

export type Snippet = Omit<CodeBlock, "language">;

const OPENING_FENCE = /^```(\S*)\s*$/;
const NOT_RUN = /<!--\s*snippet:\s*not run\s*\((.+)\)\s*-->/;
// A line of its own, so prose that mentions the marker (in backticks) is not one.
const FILE = /^\s*<!--\s*file:\s*(\S+)\s*-->\s*$/;
const TYPESCRIPT = new Set(["ts", "typescript"]);

/** Every block fenced at the start of a line; indented fences (inside a list item) are part of the text. */
export function extractCodeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = OPENING_FENCE.exec(lines[index]!);
    if (opening === null) continue;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && lines[index] !== "```"; index += 1) body.push(lines[index]!);
    const previous = lines
      .slice(0, start)
      .reverse()
      .find((line) => line.trim() !== "");
    const reason = previous === undefined ? undefined : NOT_RUN.exec(previous)?.[1];
    const file = previous === undefined ? undefined : FILE.exec(previous)?.[1];
    blocks.push({
      line: start + 1,
      language: opening[1]!,
      code: body.join("\n"),
      ...(reason === undefined ? {} : { notRun: reason }),
      ...(file === undefined ? {} : { file }),
    });
  }
  return blocks;
}

/** The TypeScript blocks, to run as a user would. */
export function extractSnippets(markdown: string): Snippet[] {
  return extractCodeBlocks(markdown)
    .filter((block) => TYPESCRIPT.has(block.language))
    .map(({ language: _language, ...snippet }) => snippet);
}

/** How many `<!-- file: … -->` markers the text has, so a marker with no block after it is noticed. */
export function countFileMarkers(markdown: string): number {
  return markdown.split("\n").filter((line) => FILE.test(line)).length;
}
