// The fake model both imitations run, and the tool the loops answer it with: tool results of 3–8k provider tokens.

const WORDS = [
  "alpha",
  "build",
  "cache",
  "delta",
  "error",
  "field",
  "graph",
  "house",
  "index",
  "joint",
  "kernel",
  "layer",
  "model",
  "node",
  "order",
  "parse",
  "query",
  "route",
  "stack",
  "token",
  "unit",
  "value",
  "write",
  "yield",
  "zone",
];

/** Turn `turn` asks for one or two files; the model reads them one call at a time, then answers. */
export function questionFor(turn: number): string {
  return `Turn ${turn}: read ${filesFor(turn)} file(s) and tell me what they say.`;
}

function filesFor(turn: number): number {
  return turn % 3 === 0 ? 2 : 1;
}

/** What the model does next, given the user's latest question and the tool results since it. */
export function nextMove(question: string, resultsSince: number): { call: string } | { answer: string } {
  const turn = Number(/^Turn (\d+):/.exec(question)?.[1] ?? "0");
  if (resultsSince < filesFor(turn)) return { call: JSON.stringify({ path: `turn-${turn}-file-${resultsSince}.txt` }) };
  return { answer: `Turn ${turn}: the ${filesFor(turn)} file(s) list build steps; nothing failed.` };
}

/** A deterministic file of about 2,600–6,600 o200k tokens (3–8k as the imitated provider counts). */
export function readFile(argumentsJson: string): string {
  const { path } = JSON.parse(argumentsJson) as { path: string };
  let seed = [...path].reduce((hash, character) => (hash * 31 + character.charCodeAt(0)) >>> 0, 7);
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    return seed / 2 ** 32;
  };
  const words = 2_600 + Math.floor(random() * 4_000);
  const lines: string[] = [`# ${path}`];
  let line: string[] = [];
  for (let index = 0; index < words; index += 1) {
    line.push(WORDS[Math.floor(random() * WORDS.length)]!);
    if (line.length === 12) {
      lines.push(line.join(" "));
      line = [];
    }
  }
  lines.push(line.join(" "));
  return lines.join("\n");
}

export const READ_FILE_DESCRIPTION = "Reads a text file of the project and returns its content.";
