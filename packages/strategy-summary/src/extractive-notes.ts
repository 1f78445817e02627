// The extractive summary's notes: parsed from and rendered to plain text, so a summary can be extended.

/** A list that keeps its newest items and counts the ones it let go. */
export interface NoteList {
  readonly items: readonly string[];
  readonly omitted: number;
}

export interface ExtractiveNotes {
  /** A previous summary that was not written by the extractive summarizer, kept in short. */
  readonly earlier: string | undefined;
  readonly requests: NoteList;
  readonly conclusions: NoteList;
  /** Tool name → calls, in order of first appearance. */
  readonly toolCalls: ReadonlyMap<string, number>;
}

export const REQUESTS_HEADER = "User requests, oldest first:";
export const CONCLUSIONS_HEADER = "Latest assistant notes, oldest first:";
const EARLIER_PREFIX = "Earlier summary: ";
const TOOL_CALLS_PREFIX = "Tool calls: ";
const OMITTED_LINE = /^\((\d+) earlier not shown\)$/;

export const EMPTY_NOTES: ExtractiveNotes = {
  earlier: undefined,
  requests: { items: [], omitted: 0 },
  conclusions: { items: [], omitted: 0 },
  toolCalls: new Map(),
};

function renderList(header: string, list: NoteList): string[] {
  if (list.items.length === 0 && list.omitted === 0) return [];
  const lines = [header];
  if (list.omitted > 0) lines.push(`(${list.omitted} earlier not shown)`);
  for (const item of list.items) lines.push(`- ${item}`);
  return lines;
}

function renderToolCalls(toolCalls: ReadonlyMap<string, number>): string {
  const total = [...toolCalls.values()].reduce((sum, count) => sum + count, 0);
  if (total === 0) return `${TOOL_CALLS_PREFIX}0`;
  // By count, then by name: the same order whichever way the counts were added up.
  const ranked = [...toolCalls].sort(([nameA, countA], [nameB, countB]) => countB - countA || (nameA < nameB ? -1 : nameA > nameB ? 1 : 0));
  return `${TOOL_CALLS_PREFIX}${total} (${ranked.map(([name, count]) => `${name} ${count}`).join(", ")})`;
}

/** Always ends with the tool-call line, so even an empty summary is non-empty text that parses back. */
export function renderNotes(notes: ExtractiveNotes): string {
  const lines: string[] = [];
  if (notes.earlier !== undefined) lines.push(`${EARLIER_PREFIX}${notes.earlier}`);
  lines.push(
    ...renderList(REQUESTS_HEADER, notes.requests),
    ...renderList(CONCLUSIONS_HEADER, notes.conclusions),
    renderToolCalls(notes.toolCalls),
  );
  return lines.join("\n");
}

function parseToolCalls(text: string): Map<string, number> {
  const toolCalls = new Map<string, number>();
  const detail = /\((.*)\)$/.exec(text)?.[1];
  for (const piece of detail?.split(", ") ?? []) {
    const match = /^(.*) (\d+)$/.exec(piece);
    if (match !== null) toolCalls.set(match[1]!, Number(match[2]));
  }
  return toolCalls;
}

/** Reads back what `renderNotes` wrote; any other text becomes `earlier`, so nothing is silently lost. */
export function parseNotes(text: string, shortenEarlier: (text: string) => string): ExtractiveNotes {
  const lines = text.split("\n");
  if (!lines.some((line) => line.startsWith(TOOL_CALLS_PREFIX))) return { ...EMPTY_NOTES, earlier: shortenEarlier(text) };
  let earlier: string | undefined;
  const lists = { requests: { items: [] as string[], omitted: 0 }, conclusions: { items: [] as string[], omitted: 0 } };
  let current: (typeof lists)["requests"] | undefined;
  let toolCalls = new Map<string, number>();
  for (const line of lines) {
    if (line.startsWith(EARLIER_PREFIX)) earlier = line.slice(EARLIER_PREFIX.length);
    else if (line === REQUESTS_HEADER) current = lists.requests;
    else if (line === CONCLUSIONS_HEADER) current = lists.conclusions;
    else if (line.startsWith(TOOL_CALLS_PREFIX)) toolCalls = parseToolCalls(line);
    else if (current !== undefined && line.startsWith("- ")) current.items.push(line.slice(2));
    else if (current !== undefined && OMITTED_LINE.test(line)) current.omitted += Number(OMITTED_LINE.exec(line)![1]);
  }
  return { earlier, ...lists, toolCalls };
}
