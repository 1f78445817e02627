// Exact tiktoken counts, built lazily once per encoding, in time linear in the text's length.
import { ContextArgumentError } from "../errors.js";
import { createRequire } from "node:module";
import type { TokenCounter } from "./token-counter.js";

export type TiktokenEncoding = "o200k_base" | "cl100k_base";

/**
 * The longest run of UTF-8 bytes merged by BPE in one go: longer pieces (unbroken letters, Thai or
 * Chinese with no punctuation) are merged in chunks cut between characters, so every text counts in
 * linear time, within a token per chunk of tiktoken. Chosen by measurement: the heap merge costs
 * about the same per byte from 128 to 4,096, and 1,024 (~340 CJK or Thai characters) keeps real
 * sentences in every script exact.
 */
export const MAX_PIECE_BYTES = 1024;

interface Encoder {
  readonly pattern: RegExp;
  /** Token bytes as a latin1 string (one char per byte) → rank: a string key hashes fast. */
  readonly ranks: ReadonlyMap<string, number>;
  /** Rank of each two-byte token at `first << 8 | second`, or NO_PAIR: BPE's first round, without hashing. */
  readonly bytePairRanks: Int32Array;
  /** Counts of pieces that needed merging: real text repeats its words. Cleared when full. */
  readonly mergedCounts: Map<string, number>;
}

/**
 * A js-tiktoken rank file, as `import o200k_base from "js-tiktoken/ranks/o200k_base"` gives it. Pass one
 * to `tiktokenCounter` where the default lookup cannot find it: inside a bundle, say.
 */
export interface TiktokenRanks {
  readonly bpe_ranks: string;
}

export interface TiktokenCounterOptions {
  /** Which encoding the ranks are for; it picks the pre-token pattern. Default `o200k_base`. */
  readonly encoding?: TiktokenEncoding;
  /** The encoding's rank data. Default: js-tiktoken's rank file, required from disk on first count. */
  readonly ranks?: TiktokenRanks;
}

const CONTRACTION = `'(?:[sS]|[tT]|[dD]|[mM]|[lL][lL]|[vV][eE]|[rR][eE])`;

/**
 * tiktoken's pre-token patterns in JavaScript syntax, without captures (faster). cl100k's is the one
 * tiktoken uses today, with `\s+$`; js-tiktoken ships an older, equivalent-in-practice form.
 */
const PATTERNS: Record<TiktokenEncoding, string> = {
  o200k_base: String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:${CONTRACTION})?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:${CONTRACTION})?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  cl100k_base: String.raw`${CONTRACTION}|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s`,
};

/**
 * The most characters one regular-expression scan sees. V8's regex engine keeps a backtracking entry
 * per character of a match, so one unbroken run of millions of letters overflows its stack; longer
 * texts are scanned in segments, cut where a piece boundary is certain whenever the text allows.
 */
export const MAX_SCAN_CHARS = 1 << 17;
// How far back from the segment limit a certain piece boundary is looked for.
const BOUNDARY_SEARCH_CHARS = 4_096;
const WHITESPACE = /\s/;

const NO_PAIR = -1;
const MERGED_COUNTS_LIMIT = 20_000;
const encoders = new Map<TiktokenEncoding, Encoder>();
// Encoders built from ranks a caller passed, per rank object: the same import shares one encoder.
const encodersByRanks = new WeakMap<TiktokenRanks, Encoder>();
const NON_ASCII = /[^\x00-\x7f]/;

// A rank file is 1-2 MB of JavaScript, so it is required on first use, not when @ctxkit/core loads.
function loadRankFile(encoding: TiktokenEncoding): TiktokenRanks {
  let loaded: unknown;
  try {
    const require = createRequire(import.meta.url);
    loaded = encoding === "o200k_base" ? require("js-tiktoken/ranks/o200k_base") : require("js-tiktoken/ranks/cl100k_base");
  } catch (error) {
    // A bundle has no node_modules to require from: say how to hand the ranks over instead.
    throw new ContextArgumentError(
      `tiktokenCounter("${encoding}")`,
      [
        {
          path: "ranks",
          message:
            `Cannot load js-tiktoken's rank file for ${encoding} (${error instanceof Error ? error.message : String(error)}). ` +
            `In a bundle, import it and pass it: import ${encoding} from "js-tiktoken/ranks/${encoding}"; ` +
            `tiktokenCounter({ encoding: "${encoding}", ranks: ${encoding} }).`,
        },
      ],
      { cause: error },
    );
  }
  // The CommonJS rank files export the object itself; `.default` only exists under ESM interop.
  return checkRanks((loaded as { default?: TiktokenRanks }).default ?? (loaded as TiktokenRanks), encoding);
}

function checkRanks(ranks: TiktokenRanks, encoding: TiktokenEncoding): TiktokenRanks {
  if (typeof ranks?.bpe_ranks !== "string") {
    throw new ContextArgumentError(`tiktokenCounter("${encoding}")`, [
      { path: "ranks", message: `has no "bpe_ranks" string: pass a js-tiktoken rank file, such as js-tiktoken/ranks/${encoding}` },
    ]);
  }
  return ranks;
}

function buildEncoder(encoding: TiktokenEncoding, file: TiktokenRanks): Encoder {
  const ranks = new Map<string, number>();
  const bytePairRanks = new Int32Array(65_536).fill(NO_PAIR);
  // Each line is `<label> <first rank> <base64 token> …`; atob yields the latin1 key directly.
  for (const line of file.bpe_ranks.split("\n")) {
    const fields = line.split(" ");
    const firstRank = Number.parseInt(fields[1] ?? "", 10);
    for (let index = 2; index < fields.length; index++) {
      const token = atob(fields[index] ?? "");
      const rank = firstRank + index - 2;
      ranks.set(token, rank);
      if (token.length === 2) bytePairRanks[(token.charCodeAt(0) << 8) | token.charCodeAt(1)] = rank;
    }
  }
  return { pattern: new RegExp(PATTERNS[encoding], "uy"), ranks, bytePairRanks, mergedCounts: new Map() };
}

function getEncoder(encoding: TiktokenEncoding, ranks: TiktokenRanks | undefined): Encoder {
  if (ranks !== undefined) {
    let encoder = encodersByRanks.get(ranks);
    if (encoder === undefined) {
      encoder = buildEncoder(encoding, ranks);
      encodersByRanks.set(ranks, encoder);
    }
    return encoder;
  }
  let encoder = encoders.get(encoding);
  if (encoder === undefined) {
    encoder = buildEncoder(encoding, loadRankFile(encoding));
    encoders.set(encoding, encoder);
  }
  return encoder;
}

// Scratch space for mergeCount, sized for the largest piece; counting is synchronous, so one set suffices.
const POSITION_SCALE = 2 ** 20;
const nextStart = new Int32Array(MAX_PIECE_BYTES + 1);
const previousStart = new Int32Array(MAX_PIECE_BYTES + 1);
const pairRank = new Int32Array(MAX_PIECE_BYTES + 1);
const heap = new Float64Array(3 * MAX_PIECE_BYTES);
let heapSize = 0;

function heapPush(key: number): void {
  let index = heapSize++;
  while (index > 0) {
    const parent = (index - 1) >> 1;
    const parentKey = heap[parent] as number;
    if (parentKey <= key) break;
    heap[index] = parentKey;
    index = parent;
  }
  heap[index] = key;
}

function heapPop(): number {
  const top = heap[0] as number;
  const last = heap[--heapSize] as number;
  let index = 0;
  for (;;) {
    let child = 2 * index + 1;
    if (child >= heapSize) break;
    const right = child + 1;
    if (right < heapSize && (heap[right] as number) < (heap[child] as number)) child = right;
    if ((heap[child] as number) >= last) break;
    heap[index] = heap[child] as number;
    index = child;
  }
  heap[index] = last;
  return top;
}

function rankPair(bytes: string, ranks: ReadonlyMap<string, number>, start: number): number {
  const middle = nextStart[start] as number;
  if (middle >= bytes.length) return NO_PAIR;
  return ranks.get(bytes.slice(start, nextStart[middle])) ?? NO_PAIR;
}

/**
 * Counts the parts BPE leaves of `bytes` (latin1, at most MAX_PIECE_BYTES long). It makes tiktoken's
 * merges (lowest rank first, leftmost on ties) with a heap of pairs instead of a scan per merge.
 */
function mergeCount(bytes: string, { ranks, bytePairRanks }: Encoder): number {
  const length = bytes.length;
  heapSize = 0;
  for (let start = 0; start < length; start++) {
    nextStart[start] = start + 1;
    previousStart[start] = start - 1;
  }
  pairRank[length - 1] = NO_PAIR;
  for (let start = 0; start < length - 1; start++) {
    const rank = bytePairRanks[(bytes.charCodeAt(start) << 8) | bytes.charCodeAt(start + 1)] as number;
    pairRank[start] = rank;
    if (rank !== NO_PAIR) heapPush(rank * POSITION_SCALE + start);
  }
  let parts = length;
  while (heapSize > 0) {
    const key = heapPop();
    const start = key % POSITION_SCALE;
    // A pair's bytes only grow, and ranks are unique, so a changed pair never keeps its old rank.
    if (pairRank[start] !== (key - start) / POSITION_SCALE) continue;
    const absorbed = nextStart[start] as number;
    const end = nextStart[absorbed] as number;
    nextStart[start] = end;
    if (end < length) previousStart[end] = start;
    pairRank[absorbed] = NO_PAIR;
    parts -= 1;
    const rank = rankPair(bytes, ranks, start);
    pairRank[start] = rank;
    if (rank !== NO_PAIR) heapPush(rank * POSITION_SCALE + start);
    const previous = previousStart[start] as number;
    if (previous >= 0) {
      const previousRank = rankPair(bytes, ranks, previous);
      pairRank[previous] = previousRank;
      if (previousRank !== NO_PAIR) heapPush(previousRank * POSITION_SCALE + previous);
    }
  }
  return parts;
}

function countPiece(bytes: string, encoder: Encoder): number {
  if (encoder.ranks.has(bytes)) return 1;
  if (bytes.length > MAX_PIECE_BYTES) return countLongPiece(bytes, encoder);
  const { mergedCounts } = encoder;
  let count = mergedCounts.get(bytes);
  if (count === undefined) {
    count = mergeCount(bytes, encoder);
    if (mergedCounts.size >= MERGED_COUNTS_LIMIT) mergedCounts.clear();
    // A copy, not a slice: a key must not keep the whole text it was cut from alive.
    mergedCounts.set(Buffer.from(bytes, "latin1").toString("latin1"), count);
  }
  return count;
}

function countLongPiece(bytes: string, encoder: Encoder): number {
  let total = 0;
  for (let start = 0; start < bytes.length; ) {
    let end = Math.min(start + MAX_PIECE_BYTES, bytes.length);
    // Step back over UTF-8 continuation bytes (10xxxxxx) so no character is split.
    while (end < bytes.length && (bytes.charCodeAt(end) & 0xc0) === 0x80) end -= 1;
    total += mergeCount(bytes.slice(start, end), encoder);
    start = end;
  }
  return total;
}

/**
 * Where the segment starting at `start` ends: before a single space that has text on both sides
 * (every pre-token pattern starts a piece there, so the counts are exact; a newline may join the
 * punctuation before it), or, in a text
 * with no such place near the limit (one huge run of letters), at the limit between two characters,
 * within a token of tiktoken, as a long piece is.
 */
function segmentEnd(text: string, start: number): number {
  const limit = start + MAX_SCAN_CHARS;
  if (limit >= text.length) return text.length;
  for (let index = limit; index > limit - BOUNDARY_SEARCH_CHARS && index > start + 1; index -= 1) {
    if (text[index] === " " && !WHITESPACE.test(text[index - 1]!) && !WHITESPACE.test(text[index + 1] ?? " ")) return index;
  }
  const code = text.charCodeAt(limit - 1);
  // Never between the two halves of a surrogate pair.
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

function countSegment(text: string, encoder: Encoder): number {
  const { pattern } = encoder;
  const isAscii = !NON_ASCII.test(text);
  let total = 0;
  // Sticky: the pattern covers every character, so each piece starts where the last one ended,
  // and test() saves building a match array per piece.
  pattern.lastIndex = 0;
  for (let start = 0; start < text.length && pattern.test(text); start = pattern.lastIndex) {
    const piece = text.slice(start, pattern.lastIndex);
    const bytes = isAscii || !NON_ASCII.test(piece) ? piece : Buffer.from(piece, "utf8").toString("latin1");
    total += countPiece(bytes, encoder);
  }
  return total;
}

/**
 * An exact counter for OpenAI's `o200k_base` (the default) or `cl100k_base`. Special-token text such
 * as `<|endoftext|>` counts as plain text. The rank data loads on the first `count()` and is shared
 * by every counter of that encoding in the process. Bundled code, where js-tiktoken's rank files are
 * not on disk, passes them: `tiktokenCounter({ ranks: o200k_base })`.
 */
export function tiktokenCounter(options: TiktokenEncoding | TiktokenCounterOptions = "o200k_base"): TokenCounter {
  const { encoding = "o200k_base", ranks } = typeof options === "string" ? { encoding: options } : options;
  if (encoding !== "o200k_base" && encoding !== "cl100k_base") {
    throw new ContextArgumentError("tiktokenCounter", [
      { path: "encoding", message: `unknown encoding ${JSON.stringify(encoding)}: use "o200k_base" or "cl100k_base"` },
    ]);
  }
  // Checked now, not on the first count: a wrong import should fail where it is written.
  if (ranks !== undefined) checkRanks(ranks, encoding);
  return {
    name: `tiktoken:${encoding}`,
    count(text: string): number {
      if (text.length === 0) return 0;
      const encoder = getEncoder(encoding, ranks);
      if (text.length <= MAX_SCAN_CHARS) return countSegment(text, encoder);
      let total = 0;
      for (let start = 0; start < text.length; ) {
        const end = segmentEnd(text, start);
        total += countSegment(text.slice(start, end), encoder);
        start = end;
      }
      return total;
    },
  };
}
