// Finds the TypeScript snippets of a Markdown file, each with whether and why it is not run.

export interface Snippet {
  /** 1-based line of the opening fence, as an editor shows it. */
  readonly line: number;
  readonly code: string;
  /** Why the snippet is not run, from a `<!-- snippet: not run (reason) -->` comment right before it. */
  readonly notRun?: string;
}

const FENCE = /^```(ts|typescript)\s*$/;
const NOT_RUN = /<!--\s*snippet:\s*not run\s*\((.+)\)\s*-->/;

export function extractSnippets(markdown: string): Snippet[] {
  const lines = markdown.split("\n");
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (!FENCE.test(lines[index]!)) continue;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && lines[index] !== "```"; index += 1) body.push(lines[index]!);
    const previous = lines
      .slice(0, start)
      .reverse()
      .find((line) => line.trim() !== "");
    const reason = previous === undefined ? undefined : NOT_RUN.exec(previous)?.[1];
    snippets.push({ line: start + 1, code: body.join("\n"), ...(reason === undefined ? {} : { notRun: reason }) });
  }
  return snippets;
}
